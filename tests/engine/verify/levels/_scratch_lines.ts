import { loadCorpus } from "../../../_support/corpus.ts";
const inst = (await loadCorpus()).find((i) => i.instance_id === Deno.args[0])!;
const f = inst.files[0];
const lines = f.before.split("\n");
for (let i = Number(Deno.args[1]); i < Number(Deno.args[1]) + 5; i++) console.log(i, JSON.stringify(lines[i - 1]));
console.log(f.before.split(/\r\n|\r|\n|\u2028|\u2029|\f|\v|\x1c|\x1d|\x1e|\x85/).length, lines.length);
