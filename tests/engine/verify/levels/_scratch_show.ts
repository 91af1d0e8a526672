import { loadCorpus } from "../../../_support/corpus.ts";
import { planFromPatch } from "../../../bench/verify_plan.ts";
const inst = (await loadCorpus()).find((i) => i.instance_id === Deno.args[0])!;
console.log(inst.patch);
console.log(JSON.stringify(planFromPatch(inst), null, 1));
