/**
 * Real runs to inspect: the demo (the scripted model of `deno task demo`
 * through `graphplan run`, the real helper), a run that fails verification,
 * rolls back a failed execution and falls back (the agent in-process with a
 * scripted helper, hostile strings in the task, the model's words and the
 * issues), and a batch directory written the way `graphplan batch` writes
 * one (batch.json, exit_statuses.yaml, preds.json, ID/ID.traj.json).
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { stringify } from "yaml";
import { loadConfig } from "../../../../agent/config.ts";
import { LocalEnvironment } from "../../../../agent/env/mod.ts";
import { GraphPlanAgent } from "../../../../agent/graphplan/mod.ts";
import type { Helper } from "../../../../agent/common/mod.ts";
import { type Model, ScriptedModel } from "../../../../agent/model/mod.ts";
import { Trajectory } from "../../../../agent/trajectory/mod.ts";
import { main } from "../../../../main.ts";
import { fixPlan, ROOT, sampleRepo, SED_FIX, SUBMIT, writePlan } from "../../../e2e/_support.ts";

/** Strings that would be markup or script if a page did not escape them. */
export const HOSTILE = {
  task:
    'Crash in order_total <script>alert("task")</script> and </script><script>alert(2)</script> & "quotes"',
  content: `Checking <img src=x onerror="alert('content')"> first`,
  issue: 'Cannot resolve locator: no attribute "<b>discont</b>" inside method "order_total"',
};

/** The demo's run: its trajectory's path (the plan path in `root`: the script writes $GRAPHPLAN_PLAN_PATH). */
export async function demoRun(): Promise<{ trajectory: string; cleanup: () => Promise<void> }> {
  const ctx = await sampleRepo();
  const scriptPath = join(ROOT, "config/demo/scripted_run.yaml");
  const code = await main([
    "run",
    "--repo",
    ctx.repo,
    "--task-file",
    join(ROOT, "config/demo/task.md"),
    "--id",
    "sample_project-discount",
    "-c",
    "model.name=scripted/demo",
    "-c",
    `model.script=${scriptPath}`,
    "-c",
    `agent.plan_path=${ctx.planPath}`,
    "-o",
    ctx.out,
  ]);
  assert.equal(code, 0, "the demo run submits a patch");
  return {
    trajectory: join(ctx.out, "sample_project-discount", "sample_project-discount.traj.json"),
    cleanup: ctx.cleanup,
  };
}

/** A model that charges `perCall` dollars for each answer of `inner`. */
function priced(inner: Model, perCall: number): Model {
  return {
    name: inner.name,
    get stats() {
      return { ...inner.stats, cost: inner.stats.calls * perCall };
    },
    async query(messages, options) {
      return { ...await inner.query(messages, options), cost: perCall };
    },
  };
}

const GRAPH = {
  symbols: [
    { name: "OrderService", kind: "class", file: "app/service.py", start_line: 19, end_line: 60 },
    {
      name: "order_total",
      kind: "method",
      file: "app/service.py",
      start_line: 29,
      end_line: 34,
      parent: "OrderService",
    },
  ],
  imports: [],
  line_kinds: { "app/service.py": { "32": "expression_statement" } },
  errors: [],
};

/** The issue codes the fallback run's helper reports. */
export const FALLBACK_CODES = [
  "locator-not-found",
  "name-unbound",
  "plan-many-files",
  "kind-changed",
  "syntax-error",
];

const TARGET = {
  file: "app/service.py",
  kind: "attribute",
  name: "discont",
  parent: { kind: "method", name: "order_total", parent: { kind: "class", name: "OrderService" } },
};

/** The two plans the fallback run's model writes. */
export const FALLBACK_PLANS = [
  [
    {
      template: "replace_expression",
      params: { target: TARGET, expression: 'order.customer.discount or Decimal("0")' },
    },
    {
      op: "rename_identifier",
      params: {
        target: {
          file: "app/service.py",
          kind: "identifier",
          name: "discounted",
          parent: { kind: "method", name: "order_total" },
        },
        new_name: "net",
      },
    },
  ],
  [
    {
      template: "replace_expression",
      params: {
        target: { ...TARGET, name: "discount" },
        expression: 'order.customer.discount or Decimal("0")',
      },
    },
    {
      op: "insert_after_node",
      params: {
        // The e2e fix plan's locator: method order_total of class OrderService.
        locator: (fixPlan()[0] as { params: { locator: unknown } }).params.locator,
        code: "def broken(:\n",
      },
    },
  ],
];

function scriptedHelper(): Helper {
  let verifies = 0;
  return {
    call(method) {
      if (method === "build_graph") return Promise.resolve(GRAPH);
      if (method === "rollback") return Promise.resolve({ success: true, restored: [], errors: [] });
      if (method === "verify_plan") {
        verifies++;
        if (verifies === 1) {
          return Promise.resolve({
            passed: false,
            errors: [{
              code: "locator-not-found",
              severity: "error",
              message: HOSTILE.issue,
              step: 0,
              layer: "0b",
              path: [0, "params", "target"],
              hint: 'did you mean "discount"?',
              candidates: [{
                file: "app/service.py",
                line: 32,
                kind: "attribute",
                text: "order.customer.discount",
              }],
            }],
            warnings: [
              {
                code: "name-unbound",
                severity: "warning",
                message: 'Name "net" is not bound',
                step: 1,
                level: "L3",
              },
              {
                code: "plan-many-files",
                severity: "warning",
                message: "The plan touches 1 file",
                layer: "6",
              },
            ],
          });
        }
        return Promise.resolve({ passed: true, errors: [], warnings: [] });
      }
      if (method === "execute_plan") {
        return Promise.resolve({
          success: false,
          rolled_back: true,
          failed_step: 1,
          errors: [
            {
              code: "syntax-error",
              severity: "error",
              message: "The edit adds a syntax error at line 36",
              step: 1,
              level: "L0",
              file: "app/service.py",
              line: 36,
            },
            {
              code: "kind-changed",
              severity: "error",
              message: "The node changes kind",
              step: 1,
              level: "L1",
            },
          ],
          warnings: [],
          files_changed: [],
        });
      }
      return Promise.reject(new Error(`unexpected helper method "${method}"`));
    },
    close: () => Promise.resolve(),
  };
}

/**
 * A run on the sample project that fails verification (attempt 1), passes it
 * and rolls back a failed execution (attempt 2), falls back at `execute` and
 * submits a sed fix: exit status FallbackSubmitted. Costs $0.0125 a call.
 */
export async function fallbackRun(
  options: { id?: string; task?: string } = {},
): Promise<{ trajectory: string; out: string; cleanup: () => Promise<void> }> {
  const ctx = await sampleRepo();
  const config = await loadConfig([
    `agent.plan_path=${ctx.planPath}`,
    "model.name=scripted/test",
    `environment.cwd=${ctx.repo}`,
    "agent.max_plan_revisions=2",
  ]);
  const model = priced(
    new ScriptedModel([
      { content: HOSTILE.content, command: "grep -rn 'discount' app/ | head -n 5 && echo '<b>not bold</b>'" },
      { command: `echo 'READY_TO_PLAN: ["app/service.py"]'` },
      { content: "Plan one.", command: writePlan(ctx.planPath, FALLBACK_PLANS[0]) },
      { content: "Plan two.", command: writePlan(ctx.planPath, FALLBACK_PLANS[1]) },
      { content: "Fixing it by hand.", command: SED_FIX },
      { command: SUBMIT },
    ]),
    0.0125,
  );
  const env = new LocalEnvironment({ ...config.environment });
  const trajectory = new Trajectory(ctx.out, options.id ?? "sample-fallback", {
    config,
    stats: () => model.stats,
  });
  const agent = new GraphPlanAgent({
    model,
    env,
    config,
    trajectory,
    helper: scriptedHelper(),
    operatorCatalog: "",
  });
  const result = await agent.run(options.task ?? HOSTILE.task);
  await env.close();
  assert.equal(result.exitStatus, "FallbackSubmitted");
  return { trajectory: trajectory.path, out: ctx.out, cleanup: ctx.cleanup };
}

/** One instance of the made-up batch. */
export interface BatchInstance {
  id: string;
  status: string;
  phase: string;
  fallback_point?: string;
  cost: number;
  steps: number;
  wall_time: number;
  /** A trajectory to copy in as ID/ID.traj.json (its instance_id rewritten). */
  from?: string;
  patch?: string;
}

/** Write a batch output directory in `dir` the way `graphplan batch` does. */
export async function writeBatch(dir: string, instances: BatchInstance[]): Promise<void> {
  const records: Record<string, unknown> = {};
  const statuses: Record<string, string[]> = {};
  const preds: Record<string, unknown> = {};
  for (const instance of instances) {
    const { from, patch, id, ...record } = instance;
    records[id] = { instance_id: id, ...record, started_at: "2026-11-24T10:00:00.000Z" };
    (statuses[instance.status] ??= []).push(id);
    if (patch !== undefined) {
      preds[id] = { instance_id: id, model_name_or_path: "openai/fake", model_patch: patch };
    }
    if (from) {
      const doc = JSON.parse(await Deno.readTextFile(from));
      doc.instance_id = id;
      await Deno.mkdir(join(dir, id), { recursive: true });
      await Deno.writeTextFile(join(dir, id, `${id}.traj.json`), JSON.stringify(doc, null, 2));
    }
  }
  await Deno.writeTextFile(
    join(dir, "batch.json"),
    JSON.stringify(
      {
        batch: { dataset: "princeton-nlp/SWE-bench_Lite", workers: 2, preds_format: "dict" },
        updated_at: "2026-11-24T10:30:00.000Z",
        instances: records,
      },
      null,
      2,
    ),
  );
  await Deno.writeTextFile(join(dir, "exit_statuses.yaml"), stringify(statuses));
  await Deno.writeTextFile(join(dir, "preds.json"), JSON.stringify(preds, null, 2));
}

/** The runs a batch test needs: the demo's and the fallback run's trajectories. */
export interface Runs {
  demo: string;
  fallback: string;
}

/**
 * A batch of five instances in `dir`: the demo (Submitted), the fallback run
 * (FallbackSubmitted at execute), a LimitsExceeded one, one the cost cap
 * kept from starting (no trajectory), and, when `hostile`, an id that is
 * markup.
 */
export async function sampleBatch(
  dir: string,
  runs: Runs,
  options: { hostile?: boolean } = {},
): Promise<BatchInstance[]> {
  const demoPatch = JSON.parse(await Deno.readTextFile(runs.demo)).info.submission as string;
  const instances: BatchInstance[] = [
    {
      id: "shop__orders-101",
      status: "Submitted",
      phase: "submit",
      cost: 0.0412,
      steps: 7,
      wall_time: 48.2,
      from: runs.demo,
      patch: demoPatch,
    },
    {
      id: "shop__orders-102",
      status: "FallbackSubmitted",
      phase: "fallback",
      fallback_point: "execute",
      cost: 0.075,
      steps: 6,
      wall_time: 131.5,
      from: runs.fallback,
      patch: demoPatch,
    },
    {
      id: "shop__billing-7",
      status: "LimitsExceeded",
      phase: "fallback",
      fallback_point: "verify",
      cost: 0.2301,
      steps: 40,
      wall_time: 602,
      from: runs.fallback,
      patch: "",
    },
    { id: "shop__billing-9", status: "BatchCostLimit", phase: "none", cost: 0, steps: 0, wall_time: 0 },
  ];
  if (options.hostile) {
    instances.push({
      id: "evil<img src=x onerror=alert(1)>",
      status: "Submitted",
      phase: "submit",
      cost: 0.01,
      steps: 3,
      wall_time: 12,
      from: runs.demo,
      patch: demoPatch,
    });
  }
  await writeBatch(dir, instances);
  return instances;
}
