/**
 * Name-level verdicts are the final state's. A step of a plan may use a
 * name that a later step binds: a helper defined below its first use, a
 * parameter that `add_parameter` adds after `guard_clause` has used it, a
 * local whose assignment a later step inserts above the new use. Its L3–L5
 * warning is true of the files after that step and untrue of the files
 * after the plan, and a plan is judged by what it leaves, so:
 *
 * - **syntax is judged per step** (L0–L2 are errors of the step: a later
 *   step cannot repair a file that does not parse, and the simulation stops
 *   trusting it);
 * - **names are judged on each file as the plan's last step touching it
 *   leaves it**: a step's name warning (`unbound-name`, `import-missing`,
 *   `import-unused`, `interface-mismatch`, `export-removed`) is kept only
 *   while the final files still show the problem; dangling uses
 *   (`l3_dangling.ts`) and uses before binding (`l3_use_before_binding.ts`)
 *   are recomputed between the files before the plan and after it.
 *
 * ## Why not order the steps instead
 *
 * Lift could order its steps so that every intermediate state binds its
 * names, but a hand-written plan has no such order to find (a model writes
 * "use the helper, then define it" as often as the reverse, and both plans
 * leave the same files), some edits bind and use in one region and cannot
 * be split, and a verdict that depends on the order of steps which leave
 * identical files would tell the model something false. Judging the final
 * state gives every plan that leaves the same files the same verdict, which
 * is the contract (ARCHITECTURE.md, "Lift": a lifted plan's verdict equals
 * the verdict on the diff's final files).
 *
 * ## How a warning is settled
 *
 * The name a warning is about is read back from its message (each level
 * quotes it first); a name clipped by `clip` (over 80 characters) is never
 * settled. `unbound-name` and `import-missing` settle when the final file
 * binds the name at module level or has no read of it that resolves to
 * nothing (`resolveName`, the same resolution L3 used): the binding a later
 * step made may be a parameter or a local of the function, and a class's
 * name read while its body runs (`early_class_name.ts`) keeps the warning
 * whatever the module binds. Whether the use
 * now comes before that binding is not this file's question:
 * `use-before-binding` asks it of the final state.
 *
 * An `interface-mismatch` on a removed or renamed method settles when the
 * final file no longer uses the old name. One on a changed signature
 * settles when L5, asked about the whole plan (the defining file before the
 * plan against after it), no longer finds that callable's calls broken in
 * that file: a plan may drop a method's parameters in one step and rename
 * it in the next (django's `Exact.process_rhs` becoming `get_prep_lookup()`),
 * and the callers of the name then reach another class's method, unchanged.
 *
 * Worked example (sympy-18835, lifted): step 0 inserts `if original_len is
 * not None ...` in the loop of `uniq`, step 1 inserts `original_len = ...`
 * above the `try`. After step 0 `original_len` resolves to nothing (a
 * warning of step 0); after step 1 every read of it resolves to the local,
 * so the warning settles and the plan passes `--strict`, as the diff's
 * final file does.
 *
 * @module
 */

import type { Issue } from "../../base/issue.ts";
import type { Document, DocumentStore } from "../../parse/documents.ts";
import { moduleScope, occurrencesOf, resolveName, wordOccurrences } from "../../analysis/scope.ts";
import { checkInterface } from "./l5_interface.ts";
import { earlyClassName } from "./early_class_name.ts";
import { quotedTypeUses } from "./quoted_types.ts";

/** The first quoted name of a message, unless it was clipped. */
function subject(issue: Issue): string | undefined {
  const name = /"([^"]+)"/.exec(issue.message)?.[1];
  return name && !name.endsWith("...") ? name : undefined;
}

/** The file and the old name of an L5 warning on a removed or renamed symbol. */
function brokenUse(issue: Issue): { file: string; name: string } | undefined {
  const found = /^(?:Call|Import) at "([^"]+):\d+" breaks: "([^"]+)" was (?:removed|renamed)/.exec(
    issue.message,
  );
  if (!found || found[2].endsWith("...")) return undefined;
  return { file: found[1], name: found[2].slice(found[2].lastIndexOf(".") + 1) };
}

/** The callable and its defining file of an L5 warning on a changed signature. */
function changedSignature(issue: Issue): { qualname: string; file: string } | undefined {
  const found = /breaks: the signature of "([^"]+)" changed/.exec(issue.message);
  const where = /is defined at "([^"]+):\d+"/.exec(issue.hint ?? "");
  if (!found || !where || found[1].endsWith("...")) return undefined;
  return { qualname: found[1], file: where[1] };
}

/** What the whole plan settles against: the files after it, and each changed file as it was before it. */
interface Final {
  store: DocumentStore;
  originals?: ReadonlyMap<string, Document>;
  /** L5 of the whole plan per defining file, computed once. */
  interfaces: Map<string, Promise<Issue[]>>;
}

/** L5 on the whole plan's change of `path` (before the plan against after it); undefined when unknown. */
async function wholePlanInterface(final: Final, path: string): Promise<Issue[] | undefined> {
  const before = final.originals?.get(path);
  const after = await finalDoc(final.store, path);
  if (!before || !after) return undefined;
  if (!final.interfaces.has(path)) {
    final.interfaces.set(
      path,
      checkInterface({ path, before, after, records: [] }, { step: 0, store: final.store }),
    );
  }
  return await final.interfaces.get(path)!;
}

async function finalDoc(store: DocumentStore, path: string | undefined): Promise<Document | undefined> {
  if (!path) return undefined;
  try {
    return await store.get(path);
  } catch {
    return undefined;
  }
}

/** Whether some read of `name` in `doc` resolves to nothing (a star import's "unknown" is not nothing). */
function unboundUse(doc: Document, name: string): boolean {
  return occurrencesOf(doc, name).some(({ node, role }) =>
    role === "reference" && resolveName(doc, name, node).status === "missing"
  ) || quotedTypeUses(doc, name).some(({ node }) => resolveName(doc, name, node).status === "missing");
}

/** Whether some read of `name` in `doc` names a class whose body is still running (`early_class_name.ts`). */
function earlyClassUse(doc: Document, name: string): boolean {
  return occurrencesOf(doc, name).some(({ node, role }) =>
    role === "reference" && earlyClassName(doc, name, node)
  );
}

/** Whether the problem a warning reports is gone from the files in `store` (the state after the plan). */
async function settled(issue: Issue, final: Final): Promise<boolean> {
  const store = final.store;
  if (issue.code === "unbound-name" || issue.code === "import-missing") {
    const name = subject(issue);
    const doc = await finalDoc(store, issue.file);
    if (!name || !doc || doc.file.language !== "python") return false;
    // a later step bound it where it is used: at module level, or in the function (a parameter, a local);
    // a class's name read while its body runs stays unbound although the module binds it
    if (earlyClassUse(doc, name)) return false;
    return moduleScope(doc).bindings.has(name) || !unboundUse(doc, name);
  }
  if (issue.code === "import-unused") {
    const name = subject(issue);
    const doc = await finalDoc(store, issue.file);
    if (!name || !doc || doc.file.language !== "python") return false;
    const imported = moduleScope(doc).bindings.get(name)?.some((binding) => binding.kind === "import");
    return !imported || occurrencesOf(doc, name).some(({ role }) => role === "reference");
  }
  if (issue.code === "export-removed") {
    const name = subject(issue);
    const doc = await finalDoc(store, issue.file);
    if (!name || !doc || doc.file.language !== "python") return false;
    // bound again, or no longer listed in __all__
    return moduleScope(doc).bindings.has(name) || !occurrencesOf(doc, "__all__").length ||
      !new RegExp(`__all__[^\\]]*["']${name}["']`).test(doc.file.text);
  }
  if (issue.code === "interface-mismatch") {
    const use = brokenUse(issue);
    if (use) {
      const doc = await finalDoc(store, use.file);
      // a later step updated (or removed) every use of the old name in that file
      return !!doc && wordOccurrences(doc.file.text, use.name).length === 0;
    }
    const changed = changedSignature(issue);
    const whole = changed && await wholePlanInterface(final, changed.file);
    // the whole plan leaves no call of that callable in that file broken
    return !!whole &&
      !whole.some((other) =>
        other.file === issue.file && other.message.includes(`the signature of "${changed!.qualname}" changed`)
      );
  }
  return false;
}

/**
 * The warnings of a plan's steps that still hold after the whole plan, in
 * order. `store` holds the files as the plan leaves them, `originals` each
 * file the plan changed as it was before it (without them a changed
 * signature never settles). Only L3–L5 name warnings (unbound-name,
 * import-missing, import-unused, interface-mismatch, export-removed) can
 * settle; every other warning is kept.
 */
export async function settleWarnings(
  warnings: readonly Issue[],
  store: DocumentStore,
  originals?: ReadonlyMap<string, Document>,
): Promise<Issue[]> {
  const out: Issue[] = [];
  const final: Final = { store, originals, interfaces: new Map() };
  for (const issue of warnings) {
    if (issue.severity === "warning" && await settled(issue, final)) continue;
    out.push(issue);
  }
  return out;
}
