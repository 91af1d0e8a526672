/**
 * Running the gate on hand-made changes in the tests and the gate bench: a
 * change of files becomes a git diff (created, deleted or renamed files as
 * `git diff` writes them) and the gate reads the originals from memory.
 *
 * @module
 */

import { checkInvariants, type InvariantReport } from "../../../engine/gate/invariants.ts";
import { unifiedDiff } from "../../../engine/exec/diff.ts";
import type { GatePolicy } from "../../../engine/gate/policy.ts";

/** A file's text before and after a change (null: absent on that side); `from`: renamed from. */
export interface Change {
  path: string;
  before: string | null;
  after: string | null;
  from?: string;
}

function bodyLines(text: string): string[] {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

/** One change as `git diff` writes it. */
export function diffOfChange({ path, before, after, from }: Change): string {
  if (from !== undefined) {
    const header = `diff --git a/${from} b/${path}\nsimilarity index ${before === after ? 100 : 90}%\n` +
      `rename from ${from}\nrename to ${path}\n`;
    if (before === after) return header;
    return header + unifiedDiff(path, before!, after!).replace(/^--- a\/\S+/m, `--- a/${from}`);
  }
  if (before === null) {
    const lines = bodyLines(after!);
    return `diff --git a/${path} b/${path}\nnew file mode 100644\n--- /dev/null\n+++ b/${path}\n` +
      `@@ -0,0 +1,${lines.length} @@\n${lines.map((l) => `+${l}\n`).join("")}`;
  }
  if (after === null) {
    const lines = bodyLines(before);
    return `diff --git a/${path} b/${path}\ndeleted file mode 100644\n--- a/${path}\n+++ /dev/null\n` +
      `@@ -1,${lines.length} +0,0 @@\n${lines.map((l) => `-${l}\n`).join("")}`;
  }
  return unifiedDiff(path, before, after);
}

/** The gate's report on `changes`; `extra` are other files of the repository, unchanged. */
export async function gateChanges(
  changes: Change[],
  extra: Record<string, string> = {},
  policy?: GatePolicy,
): Promise<InvariantReport> {
  const files = new Map<string, string>(Object.entries(extra));
  for (const change of changes) {
    if (change.before !== null) files.set(change.from ?? change.path, change.before);
  }
  return await checkInvariants(changes.map(diffOfChange).join(""), {
    readFile: (path) => Promise.resolve(files.get(path) ?? null),
    policy,
  });
}

/** `text` with the one occurrence of `find` replaced (throws when it is absent or repeated). */
export function replaceOnce(text: string, find: string, replacement: string): string {
  const at = text.indexOf(find);
  if (at < 0) throw new Error(`Not found: ${find}`);
  if (text.indexOf(find, at + 1) !== -1) throw new Error(`Found twice: ${find}`);
  return text.slice(0, at) + replacement + text.slice(at + find.length);
}
