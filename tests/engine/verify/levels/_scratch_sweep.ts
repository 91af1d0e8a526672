import { DocumentStore } from "../../../../engine/parse/documents.ts";
import { verifyPlan } from "../../../../engine/verify/mod.ts";
import { Workspace } from "../../../../engine/workspace.ts";
import { loadCorpus, materialize } from "../../../../tests/_support/corpus.ts";
import { planFromPatch } from "../../../../tests/bench/verify_plan.ts";
const only = Deno.args[0];
const t0 = Date.now();
const warn: Record<string, number> = {};
let plans = 0, steps = 0;
for (const inst of await loadCorpus()) {
  if (only && !inst.instance_id.includes(only)) continue;
  const plan = planFromPatch(inst);
  if (!plan.length) continue;
  plans++; steps += plan.length;
  const dir = await materialize(inst);
  const r = await verifyPlan(new DocumentStore(Workspace.open(dir)), plan);
  for (const e of r.errors) console.log("ERR", inst.instance_id, e.code, e.level, e.step, e.line, (e.message ?? "").slice(0, 200));
  for (const w of r.warnings) { const k = `${w.level ?? w.layer}:${w.code}`; warn[k] = (warn[k] ?? 0) + 1; if (Deno.env.get("W")) console.log("WARN", inst.instance_id, k, e2(w)); }
  await Deno.remove(dir, { recursive: true });
}
function e2(w: any) { return `${w.step} ${w.line} ${(w.message ?? "").slice(0, 200)}`; }
console.log({ plans, steps, ms: Date.now() - t0 });
console.log(warn);
