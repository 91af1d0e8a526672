import { loadCorpus } from "../../../_support/corpus.ts";
const inst = (await loadCorpus()).find((i) => i.instance_id === Deno.args[0])!;
console.log(inst.patch);
