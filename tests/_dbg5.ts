import { HOSTILE_REPO, hostileCase } from "./_support/hostile_plans.ts";
import { DocumentStore } from "../engine/parse/documents.ts";
import { Workspace } from "../engine/workspace.ts";
import { verifyPlan } from "../engine/verify/mod.ts";
const repo = Deno.makeTempDirSync();
for (const [p, t] of Object.entries(HOSTILE_REPO)) {
  Deno.mkdirSync(`${repo}/app`, { recursive: true });
  Deno.writeTextFileSync(`${repo}/${p}`, t);
}
const c = hostileCase(Number(Deno.args[0]));
const t = performance.now();
const { withBudget } = await import("../engine/budget.ts");
const r = await withBudget(
  Number(Deno.args[1] ?? 0),
  () => verifyPlan(new DocumentStore(Workspace.open(repo)), c.plan),
);
console.log(
  performance.now() - t,
  r.passed,
  r.errors.length,
  r.warnings.length,
  JSON.stringify(r.errors).slice(0, 300),
);
