import type { TextEdit } from "../../../../engine/edit/text_edit.ts";
import { loadCorpus } from "../../../_support/corpus.ts";
import { editAndCheck } from "./_support.ts";

/** Minimal line edits of a file's patch: each run of -/+ lines. */
function minimalEdits(patch: string, path: string, before: string): TextEdit[] {
  const starts = [0];
  for (let i = 0; i < before.length; i++) if (before[i] === "\n") starts.push(i + 1);
  const off = (line: number) => line - 1 < starts.length ? starts[line - 1] : before.length;
  const edits: TextEdit[] = [];
  let file: string | undefined;
  let line = 0;
  let run: { start: number; removed: number; added: string[] } | undefined;
  const flush = () => {
    if (run) {
      edits.push({ start: off(run.start), end: off(run.start + run.removed), replacement: run.added.map((l) => l + "\n").join("") });
    }
    run = undefined;
  };
  for (const l of patch.split("\n")) {
    if (l.startsWith("diff --git ")) { flush(); file = undefined; }
    else if (l.startsWith("+++ ")) file = l.slice(4).replace(/^b\//, "");
    else if (l.startsWith("--- ")) continue;
    else if (l.startsWith("@@")) { flush(); line = Number(/^@@ -(\d+)/.exec(l)![1]); }
    else if (file !== path) continue;
    else if (l.startsWith("-")) { run ??= { start: line, removed: 0, added: [] }; run.removed++; line++; }
    else if (l.startsWith("+")) { run ??= { start: line, removed: 0, added: [] }; run.added.push(l.slice(1)); }
    else if (l.startsWith(" ") || l === "") { flush(); line++; }
    else if (l.startsWith("\\")) continue;
  }
  flush();
  return edits;
}
let n = 0;
const t0 = Date.now();
for (const inst of await loadCorpus()) { if (Deno.args[0] && inst.instance_id !== Deno.args[0]) continue;
  for (const f of inst.files) {
    if (!f.path.endsWith(".py")) continue;
    const edits = minimalEdits(inst.patch, f.path, f.before);
    if (!edits.length) continue;
    const step = await editAndCheck({ [f.path]: f.before }, f.path, (t) => { if (t !== f.before) console.log("TEXTDIFF", inst.instance_id); return edits; });
    n++;
    if (step.change.after.file.text !== f.after) { const a = step.change.after.file.text; let k = 0; while (a[k] === f.after[k]) k++; console.log("MISMATCH", inst.instance_id, f.path, JSON.stringify(a.slice(k - 60, k + 60)), JSON.stringify(f.after.slice(k - 60, k + 60))); await Deno.remove(step.dir, { recursive: true }); continue; }
    for (const e of step.errors) console.log("ERR", inst.instance_id, f.path, e.level, e.code, e.line, e.message.slice(0, 150));
    await Deno.remove(step.dir, { recursive: true });
  }
}
console.log(n, Date.now() - t0);
