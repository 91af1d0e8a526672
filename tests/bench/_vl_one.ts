import { loadCorpus } from "../_support/corpus.ts";
import { diffEdit } from "../../engine/parse/documents.ts";
const corpus = await loadCorpus();
const inst = corpus.find((i) => i.instance_id === Deno.args[0])!;
for (const f of inst.files) {
  if (!f.path.endsWith(".py")) continue;
  const e = diffEdit(f.before, f.after)!;
  console.log(f.path, e);
  console.log("---BEFORE\n" + f.before.slice(e.startIndex - 200, e.oldEndIndex + 100));
  console.log("---REPLACED [" + f.before.slice(e.startIndex, e.oldEndIndex) + "]");
  console.log("---NEW [" + f.after.slice(e.startIndex, e.newEndIndex) + "]");
}
const f = inst.files.find((f) => f.path.endsWith(".py"))!;
const e = diffEdit(f.before, f.after)!;
console.log("---BEFORE END CONTEXT\n[" + f.before.slice(e.oldEndIndex - 150, e.oldEndIndex) + "|||" + f.before.slice(e.oldEndIndex, e.oldEndIndex + 150) + "]");
console.log("---AFTER END CONTEXT\n[" + f.after.slice(e.newEndIndex - 150, e.newEndIndex) + "|||" + f.after.slice(e.newEndIndex, e.newEndIndex + 150) + "]");
import { parse } from "../../engine/parse/mod.ts";
const tb = await parse("python", f.before), ta = await parse("python", f.after);
const anc = (t: any, i: number) => { const out = []; for (let n = t.rootNode.descendantForIndex(i); n; n = n.parent) out.push(`${n.type}[${n.startIndex},${n.endIndex}]`); return out.join(" < "); };
const rb = f.before.indexOf("return self.func(self.sym, cond, base)", e.oldEndIndex - 10);
const ra = f.after.indexOf("return self.func(self.sym, cond, base)", e.newEndIndex - 10);
console.log(rb - e.oldEndIndex, ra - e.newEndIndex);
console.log(anc(tb, rb)); console.log(anc(ta, ra));
console.log(f.after.slice(8700, 9150));
