/**
 * L4 import closure (Python):
 *
 * - `import-missing`: a name the edit introduces is unbound and used like a
 *   module (`np.zeros`), or is imported elsewhere in the file but not where
 *   the edit uses it (a function-local import the edit forgot);
 * - `import-after-use`: an import the edit adds comes after a use of its
 *   name in the same scope (the use runs first and fails);
 * - `import-unused`: the edit removed the last use of an imported name.
 *
 * Re-exports are left alone: `__init__.py` files and names listed as
 * strings (in `__all__`) are never reported unused.
 *
 * @module
 */

import { type Issue, warning } from "../../base/issue.ts";
import type { Document } from "../../parse/documents.ts";
import type { Node } from "../../parse/mod.ts";
import {
  moduleScope,
  occurrencesOf,
  resolveName,
  scopeChainAt,
  wordOccurrences,
} from "../../analysis/scope.ts";
import type { CheckEnv, FileChange } from "./mod.ts";
import { spanContents } from "./names.ts";
import { lineAt } from "./region.ts";
import { clip } from "./quote.ts";

/** L4: import closure of the edit. */
export function checkImports(change: FileChange, env: CheckEnv): Promise<Issue[]> {
  if (change.after.file.language !== "python") return Promise.resolve([]);
  const details = { level: "L4", step: env.step, file: change.path };
  const issues: Issue[] = [];
  const contents = spanContents(change);
  const after = change.after;
  const text = after.file.text;
  const root = after.tree.rootNode;

  // names used like modules, or imported elsewhere, that are not bound here
  const seen = new Set<string>();
  for (const name of contents.names) {
    if (name.role !== "reference" || name.wasThere || seen.has(name.name)) continue;
    const node = root.descendantForIndex(name.start, name.end);
    if (!node || resolveName(after, name.name, node).status !== "missing") continue;
    // (a scan of the whole file: only for the few names that resolve to nothing)
    const importedElsewhere = new RegExp(`\\bimport\\b[^\\n]*\\b${name.name}\\b`).test(text);
    if (!name.attributeBase && !importedElsewhere) continue;
    seen.add(name.name);
    issues.push(
      warning("import-missing", `Name "${clip(name.name)}" is used by the edit but not imported or defined`, {
        ...details,
        line: lineAt(text, name.start),
        hint: importedElsewhere
          ? `"${
            clip(name.name)
          }" is imported elsewhere in the file but not in this scope; import it at module level`
          : `add an import of "${clip(name.name)}" before its first use`,
      }),
    );
  }

  // new imports after a use in the same scope
  for (const statement of contents.imports) {
    for (const item of importAfterUse(after, statement, details)) issues.push(item);
  }

  // imports whose last use the edit removed
  if (!change.path.endsWith("__init__.py")) {
    for (const item of unusedImports(change, contents.replacedWords, details)) issues.push(item);
  }
  return Promise.resolve(issues);
}

function importAfterUse(doc: Document, statement: Node, details: Record<string, unknown>): Issue[] {
  const issues: Issue[] = [];
  const chain = scopeChainAt(doc, statement);
  const scope = chain[0];
  for (const [name, bindings] of scope.bindings) {
    const own = bindings.find((b) => b.kind === "import" && b.statementStart === statement.startIndex);
    if (!own) continue;
    const earlier = bindings.some((b) => b !== own && b.start < statement.startIndex);
    if (earlier) continue;
    const uses = occurrencesOf(doc, name, { from: scope.node.startIndex, to: statement.startIndex });
    const first = uses.find(({ node, role }) => role === "reference" && scopeChainAt(doc, node)[0] === scope);
    if (!first) continue;
    issues.push(warning("import-after-use", `Import of "${clip(name)}" comes after its first use`, {
      ...details,
      line: statement.startPosition.row + 1,
      hint: `move the import above line ${first.node.startPosition.row + 1}`,
    }));
  }
  return issues;
}

function unusedImports(
  change: FileChange,
  replacedWords: Set<string>,
  details: Record<string, unknown>,
): Issue[] {
  const issues: Issue[] = [];
  const before = change.before;
  const after = change.after;
  // (the module scopes cost a walk of each whole file: only when the edit replaced an identifier)
  if (replacedWords.size === 0) return issues;
  const afterModule = moduleScope(after);
  const beforeModule = moduleScope(before);
  for (const word of replacedWords) {
    const binding = afterModule.bindings.get(word)?.find((b) => b.kind === "import");
    if (!binding || binding.module === "__future__") continue;
    if (!beforeModule.bindings.get(word)?.some((b) => b.kind === "import")) continue;
    const afterCount = wordOccurrences(after.file.text, word).length;
    if (afterCount >= wordOccurrences(before.file.text, word).length) continue;
    if (after.file.text.includes(`"${word}"`) || after.file.text.includes(`'${word}'`)) continue;
    const used = (doc: Document) => occurrencesOf(doc, word).some(({ role }) => role === "reference");
    if (used(after) || !used(before)) continue;
    issues.push(warning("import-unused", `Import of "${clip(word)}" is unused after the edit`, {
      ...details,
      line: binding.line,
      hint: `remove the import of "${clip(word)}" or keep a use of it`,
    }));
  }
  return issues;
}
