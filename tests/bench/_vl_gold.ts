import { loadCorpus } from "../_support/corpus.ts";
import { editAndCheck } from "../engine/verify/levels/_support.ts";
import { diffEdit } from "../../engine/parse/documents.ts";
import { formatIssue } from "../../engine/issue.ts";
const corpus = await loadCorpus();
const counts: Record<string, number> = {};
let n = 0;
const times: number[] = [];
for (const inst of corpus) {
  for (const f of inst.files) {
    if (!f.path.endsWith(".py")) continue;
    const e = diffEdit(f.before, f.after);
    if (!e) continue;
    const files: Record<string,string> = {};
    for (const g of inst.files) files[g.path] = g.before;
    const start = f.before.lastIndexOf("\n", e.startIndex - 1) + 1;
    let tail = f.before.length - e.oldEndIndex;
    const lineStart = (t: string, i: number) => i === 0 || i === t.length || t[i - 1] === "\n";
    while (tail > 0 && !(lineStart(f.before, f.before.length - tail) && lineStart(f.after, f.after.length - tail))) tail--;
    const t0 = performance.now();
    const r = await editAndCheck(files, f.path, () => [{ start, end: f.before.length - tail, replacement: f.after.slice(start, f.after.length - tail) }]);
    times.push(performance.now() - t0);
    n++;
    for (const i of [...r.errors, ...r.warnings]) {
      counts[i.code] = (counts[i.code] ?? 0) + 1;
      if (Deno.args.includes("-v") && (i.severity === "error" || Deno.args.includes(i.code))) console.log(inst.instance_id, formatIssue(i));
    }
    await Deno.remove(r.dir, { recursive: true });
  }
}
times.sort((a,b)=>a-b);
console.log(n, counts, "p50", times[Math.floor(n/2)].toFixed(1), "p95", times[Math.floor(n*0.95)].toFixed(1));
