/**
 * Plan-level settling of edit-level warnings: a step of a plan may use a
 * helper that a later step defines, or move the uses of an import into
 * code a later step adds. Its L3–L5 warning is true of the files after that
 * step but not of the files after the plan, and on gold patches such
 * warnings were all of the L3/L4 noise. `settleWarnings` keeps a warning
 * only while the final files still show the problem.
 *
 * The name a warning is about is read back from its message (each level
 * quotes it first); a name clipped by `clip` (over 80 characters) is never
 * settled.
 *
 * @module
 */

import type { Issue } from "../../issue.ts";
import type { Document, DocumentStore } from "../../parse/documents.ts";
import { moduleScope, occurrencesOf, wordOccurrences } from "../../analysis/scope.ts";

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

async function finalDoc(store: DocumentStore, path: string | undefined): Promise<Document | undefined> {
  if (!path) return undefined;
  try {
    return await store.get(path);
  } catch {
    return undefined;
  }
}

/** Whether the problem a warning reports is gone from the files in `store` (the state after the plan). */
async function settled(issue: Issue, store: DocumentStore): Promise<boolean> {
  if (issue.code === "unbound-name" || issue.code === "import-missing") {
    const name = subject(issue);
    const doc = await finalDoc(store, issue.file);
    if (!name || !doc || doc.file.language !== "python") return false;
    // a later step defined or imported it at module level
    return moduleScope(doc).bindings.has(name);
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
    const doc = use && await finalDoc(store, use.file);
    // a later step updated (or removed) every use of the old name in that file
    return !!doc && wordOccurrences(doc.file.text, use!.name).length === 0;
  }
  return false;
}

/**
 * The warnings of a plan's steps that still hold after the whole plan, in
 * order. `store` holds the files as the plan leaves them. Only L3–L5 name
 * warnings (unbound-name, import-missing, import-unused, interface-mismatch,
 * export-removed) can settle; every other warning is kept.
 */
export async function settleWarnings(warnings: readonly Issue[], store: DocumentStore): Promise<Issue[]> {
  const out: Issue[] = [];
  for (const issue of warnings) {
    if (issue.severity === "warning" && await settled(issue, store)) continue;
    out.push(issue);
  }
  return out;
}
