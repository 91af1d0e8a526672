/**
 * L3 referential integrity (Python): each name the edit introduces is bound
 * where it is used: in an enclosing scope, as a builtin, by an import, or
 * by the edit itself (the new text is part of the re-parsed file, so its own
 * definitions count). Resolution follows `analysis/scope.ts`: class scopes do not
 * leak into methods, comprehension variables do not leak out, `global` and
 * `nonlocal` are honoured, and a star import makes an unbound name
 * "unknown", which is not reported. A class's own name read while its body
 * runs (`-> C` on a method of `C`) is unbound too (`early_class_name.ts`).
 *
 * Attribute names after `.` and keyword-argument names are not references.
 * A reserved word the grammar read as an identifier (`x = not if`) is not an
 * unbound name but an error (`reserved-word-as-name`): CPython refuses it.
 * Names used as the object of an attribute access (`np` in `np.zeros`) are
 * left to L4, which reports them as missing imports.
 *
 * Other languages: uses left without their definition (`l3_names.ts`).
 *
 * @module
 */

import { error, type Issue, warning } from "../../base/issue.ts";
import { resolveName } from "../../analysis/scope.ts";
import { checkNewName } from "../../analysis/rename_safety.ts";
import type { CheckEnv, FileChange } from "./mod.ts";
import { spanContents } from "./names.ts";
import { lineAt } from "./region.ts";
import { clip } from "./quote.ts";
import { checkDangling } from "./l3_dangling.ts";
import { checkNames, hasNameRules } from "./l3_names.ts";
import { earlyClassName } from "./early_class_name.ts";

/** L3: unbound names introduced by the edit, and uses an edit left without their binding (`l3_dangling.ts`). */
export async function checkReferences(change: FileChange, env: CheckEnv): Promise<Issue[]> {
  if (change.after.file.language !== "python") {
    return hasNameRules(change.after) ? await checkNames(change, env) : [];
  }
  return [...introducedNames(change, env), ...await checkDangling(change, env)];
}

function introducedNames(change: FileChange, env: CheckEnv): Issue[] {
  const contents = spanContents(change);
  const issues: Issue[] = [];
  const seen = new Set<string>();
  const root = change.after.tree.rootNode;
  for (const name of contents.names) {
    if (name.role !== "reference" || seen.has(name.name)) continue;
    // A reserved word the grammar let through as an identifier (`not if`) is not an unbound name:
    // it is code CPython refuses (checked before "was there": the keyword `if` was there as a keyword).
    if (checkNewName(name.name, "python").some((issue) => issue.code === "rename-keyword")) {
      seen.add(name.name);
      issues.push(error("reserved-word-as-name", `"${name.name}" is a reserved word, not a name`, {
        level: "L3",
        step: env.step,
        file: change.path,
        line: lineAt(change.after.file.text, name.start),
        hint: "the grammar let it through, but Python refuses it here: check the expression around it",
      }));
      continue;
    }
    if (name.wasThere || name.attributeBase) continue;
    const node = root.descendantForIndex(name.start, name.end);
    if (!node) continue;
    const missing = resolveName(change.after, name.name, node).status === "missing";
    // a quoted type is read later, by a type checker: the class's own name is bound by then
    if (!missing && (name.quoted || !earlyClassName(change.after, name.name, node))) continue;
    seen.add(name.name);
    const where = missing
      ? "where the edit uses it"
      : "yet where the edit uses it: its class body is still running";
    issues.push(warning("unbound-name", `Name "${clip(name.name)}" is not defined ${where}`, {
      level: "L3",
      step: env.step,
      file: change.path,
      line: lineAt(change.after.file.text, name.start),
      hint: missing
        ? `define "${clip(name.name)}", import it, or use a name that is in scope`
        : `quote the annotation ("${
          clip(name.name)
        }"), add "from __future__ import annotations", or use "typing.Self"`,
    }));
  }
  return issues;
}
