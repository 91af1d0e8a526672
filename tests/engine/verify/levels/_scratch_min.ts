import type { TextEdit } from "../../../../engine/edit/text_edit.ts";
import { loadCorpus } from "../../../_support/corpus.ts";
import { editAndCheck } from "./_support.ts";

interface Hunk { file: string; oldStart: number; lines: string[] }
function hunksOf(patch: string): Hunk[] {
  const hunks: Hunk[] = [];
  let file: string | undefined;
  let hunk: Hunk | undefined;
  for (const l of patch.split("\n")) {
    if (l.startsWith("diff --git ")) { hunk = undefined; file = undefined; }
    else if (!hunk && l.startsWith("+++ ")) file = l.slice(4).replace(/^b\//, "");
    else if (!hunk && l.startsWith("--- ")) continue;
    else if (l.startsWith("@@")) { hunk = { file: file!, oldStart: Number(/^@@ -(\d+)/.exec(l)![1]), lines: [] }; hunks.push(hunk); }
    else if (hunk && /^[ +-]/.test(l)) hunk.lines.push(l);
    else if (hunk && l === "") hunk.lines.push(" ");
  }
  for (const h of hunks) while (h.lines.at(-1) === " " && false) h.lines.pop();
  return hunks;
}
function minimalEdits(patch: string, path: string, before: string): TextEdit[] | undefined {
  const edits: TextEdit[] = [];
  for (const h of hunksOf(patch).filter((h) => h.file === path)) {
    let lines = h.lines;
    // the patch's final newline can read as an empty context line
    let old = lines.filter((l) => l[0] !== "+").map((l) => l.slice(1) + "\n").join("");
    let at = -1, best = Infinity;
    const lineOf = (o: number) => before.slice(0, o).split("\n").length;
    for (let i = before.indexOf(old); i !== -1; i = before.indexOf(old, i + 1)) {
      if ((i === 0 || before[i - 1] === "\n") && Math.abs(lineOf(i) - h.oldStart) < best) { best = Math.abs(lineOf(i) - h.oldStart); at = i; }
    }
    if (at === -1 && lines.at(-1) === " ") {
      lines = lines.slice(0, -1);
      old = lines.filter((l) => l[0] !== "+").map((l) => l.slice(1) + "\n").join("");
      for (let i = before.indexOf(old); i !== -1; i = before.indexOf(old, i + 1)) {
        if ((i === 0 || before[i - 1] === "\n") && Math.abs(lineOf(i) - h.oldStart) < best) { best = Math.abs(lineOf(i) - h.oldStart); at = i; }
      }
    }
    if (at === -1) return undefined;
    let offset = at;
    let run: TextEdit | undefined;
    for (const l of lines) {
      if (l[0] === " ") { if (run) edits.push(run); run = undefined; offset += l.length; continue; }
      run ??= { start: offset, end: offset, replacement: "" };
      if (l[0] === "-") { offset += l.length; run.end = offset; }
      else run.replacement += l.slice(1) + "\n";
    }
    if (run) edits.push(run);
  }
  return edits;
}
let n = 0;
const t0 = Date.now();
for (const inst of await loadCorpus()) {
  if (Deno.args[0] && inst.instance_id !== Deno.args[0]) continue;
  for (const f of inst.files) {
    if (!f.path.endsWith(".py")) continue;
    const edits = minimalEdits(inst.patch, f.path, f.before);
    if (!edits) { console.log("NOTFOUND", inst.instance_id, f.path); continue; }
    if (!edits.length) continue;
    const step = await editAndCheck({ [f.path]: f.before }, f.path, () => edits);
    n++;
    if (step.change.after.file.text !== f.after) { console.log("MISMATCH", inst.instance_id, f.path); await Deno.remove(step.dir, { recursive: true }); continue; }
    for (const e of step.errors) console.log("ERR", inst.instance_id, f.path, e.level, e.code, e.line, e.message.slice(0, 150));
    await Deno.remove(step.dir, { recursive: true });
  }
}
console.log(n, Date.now() - t0);
