import { parse } from "/work/main/engine/parse/mod.ts";
function dump(n: any, d = 0) { console.log(" ".repeat(d*2) + (n.isNamed ? n.type : JSON.stringify(n.type)) + (n.childCount===0? " " + JSON.stringify(n.text):"") + ` [${n.startIndex},${n.endIndex}]`); for (const c of n.children) dump(c, d+1); }
const src = Deno.args[1];
const t = await parse(Deno.args[0] as any, src);
dump(t.rootNode);
