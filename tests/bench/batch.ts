/**
 * Benchmark section `batch`: the scripted demo task run by `graphplan
 * batch` as a 4-instance batch with 2 workers in podman (the minimal image
 * with the sample project in /testbed), each instance's wall time split as
 * batch.json records it: container start, helper deployment, helper requests
 * over the `--serve` session, the environment's commands (one `podman exec`
 * each), and the rest (model, agent, trajectory writes, teardown).
 *
 * Next to it, the same steps done the way mini-swe-agent does everything:
 * one `podman exec` per step. The same 4 instances, 2 at a time: start a
 * container, copy the helper in, run the demo's commands one `podman exec`
 * each, and each helper request the batch made as one `podman exec` of a
 * fresh `graphplan helper METHOD` (a new Deno process that loads the bundle
 * and the grammar every time).
 *
 *     deno task bench batch
 *
 * @module
 */

import { join } from "node:path";
import { parse } from "yaml";
import { ContainerEnvironment } from "../../agent/env/mod.ts";
import { deployHelper, helperLaunch, shellQuote } from "../../agent/graphplan/mod.ts";
import type { InstanceRecord } from "../../agent/swebench/report.ts";
import {
  batchScratch,
  demoScript,
  PODMAN_SKIP,
  podmanEnv,
  removeTestbedImage,
  runBatchCli,
  testbedImage,
} from "../e2e/_batch_support.ts";
import { REPO_ROOT } from "./context.ts";
import type { BenchContext, BenchSection } from "./context.ts";
import { type BenchRow, median, round } from "./stats.ts";

const SECTION = "batch";
const INSTANCES = 4;
const WORKERS = 2;

/** The demo's commands and its edit plan (from the heredoc of the turn that writes it). */
async function demoSteps(): Promise<{ commands: string[]; plan: unknown }> {
  const turns = parse(await Deno.readTextFile(join(REPO_ROOT, "config/demo/scripted_run.yaml"))) as {
    command: string;
  }[];
  const commands = turns.map((turn) => turn.command);
  const writer = commands.find((command) => command.includes("PLAN_EOF"))!;
  const plan = JSON.parse(writer.split("\n").slice(1, -1).join("\n"));
  return { commands, plan };
}

/** The params the agent sends for `method` on the demo task. */
function demoParams(method: string, plan: unknown): Record<string, unknown> {
  switch (method) {
    case "version":
      return {};
    case "build_graph":
      return { files: ["app/service.py"] };
    case "verify_plan":
    case "execute_plan":
      return { plan };
    default:
      throw new Error(`The batch bench cannot replay helper method "${method}"`);
  }
}

/** The baseline for one instance: every step one `podman exec`; seconds per part. */
async function oneExecPerStep(image: string, methods: string[]) {
  const { commands, plan } = await demoSteps();
  const started = performance.now();
  const env = await ContainerEnvironment.start({
    type: "podman",
    image,
    cwd: "/testbed",
    run_args: ["--network", "none"],
  });
  const containerStart = (performance.now() - started) / 1000;
  try {
    const launch = await helperLaunch("podman");
    const deployStart = performance.now();
    for (const copy of launch.copies) {
      await env.execute(`mkdir -p ${shellQuote(copy.to.replace(/\/[^/]+$/, ""))}`);
      await env.copyIn(copy.from, copy.to);
    }
    const deploy = (performance.now() - deployStart) / 1000;
    let commandSeconds = 0;
    for (const command of commands) {
      const t = performance.now();
      await env.execute(command, { timeout: 120 });
      commandSeconds += (performance.now() - t) / 1000;
    }
    let helperSeconds = 0;
    const argv = launch.argv.map(shellQuote).join(" ");
    for (const method of methods) {
      const params = shellQuote(JSON.stringify(demoParams(method, plan)));
      const t = performance.now();
      const result = await env.execute(`printf '%s' ${params} | ${argv} ${method} --repo /testbed`, {
        env: launch.env,
        timeout: 300,
      });
      helperSeconds += (performance.now() - t) / 1000;
      if (result.returncode !== 0) throw new Error(`One-shot helper "${method}" failed: ${result.output}`);
    }
    return {
      containerStart,
      deploy,
      commands: commandSeconds,
      helper: helperSeconds,
      commandCount: commands.length,
    };
  } finally {
    await env.close();
  }
}

function row(metric: string, values: number[], note: string): BenchRow {
  return { section: SECTION, metric, value: round(median(values)), unit: "s", note };
}

/** Run the batch and the baseline; the figures as bench rows. */
export async function batchBench(): Promise<BenchRow[]> {
  if (PODMAN_SKIP) {
    return [{ section: SECTION, metric: "batch in podman", value: null, unit: "s", note: PODMAN_SKIP }];
  }
  for (const [key, value] of Object.entries(podmanEnv())) Deno.env.set(key, value);
  const ctx = await batchScratch(INSTANCES);
  try {
    const image = await testbedImage();
    const script = await demoScript(ctx.root);
    // Build the bundle outside the timed batch.
    await deployHelperWarmup(image);
    const batchStart = performance.now();
    const result = await runBatchCli(script, ["--subset", ctx.dataset, "-w", String(WORKERS), "-o", ctx.out]);
    const batchWall = (performance.now() - batchStart) / 1000;
    if (result.code !== 0) throw new Error(`The batch failed: ${result.stderr}`);
    const doc = JSON.parse(await Deno.readTextFile(join(ctx.out, "batch.json"))) as {
      instances: Record<string, InstanceRecord>;
    };
    const records = Object.values(doc.instances);
    if (records.some((r) => r.status !== "Submitted" || !r.timings)) {
      throw new Error(`Not every instance was submitted: ${JSON.stringify(records.map((r) => r.status))}`);
    }
    const t = records.map((r) => r.timings!);
    const methods = t[0].helper_methods;
    const note = `median of ${records.length} instances, ${WORKERS} at a time`;
    const rows: BenchRow[] = [
      { section: SECTION, metric: "batch wall (4 instances, 2 workers)", value: round(batchWall), unit: "s" },
      row("instance wall", records.map((r) => r.wall_time), note),
      row("  container start (podman run)", t.map((x) => x.container_start), note),
      row("  helper deployment (copy + version + session)", t.map((x) => x.helper_deploy), note),
      row(
        `  helper requests (${t[0].helper_calls} over the session: ${methods.join(", ")})`,
        t.map((x) => x.helper_requests),
        note,
      ),
      row(`  commands (${t[0].command_count}, one podman exec each)`, t.map((x) => x.commands), note),
      row(
        "  rest (model, agent, trajectory, teardown)",
        records.map((r, i) =>
          r.wall_time - t[i].container_start - t[i].helper_deploy - t[i].helper_requests - t[i].commands
        ),
        note,
      ),
    ];
    // The baseline: the same steps, every one a podman exec, the same 4 instances 2 at a time.
    const baseline: Awaited<ReturnType<typeof oneExecPerStep>>[] = [];
    const queue = Array.from({ length: INSTANCES }, (_, i) => i);
    const baseStart = performance.now();
    await Promise.all(Array.from({ length: WORKERS }, async () => {
      while (queue.shift() !== undefined) baseline.push(await oneExecPerStep(image, methods));
    }));
    const baseWall = (performance.now() - baseStart) / 1000;
    const baseNote = `median of ${INSTANCES}, ${WORKERS} at a time, model time excluded`;
    rows.push(
      {
        section: SECTION,
        metric: "one exec per step: 4 instances, 2 at a time",
        value: round(baseWall),
        unit: "s",
      },
      row("  container start (podman run)", baseline.map((b) => b.containerStart), baseNote),
      row("  helper copy (no session)", baseline.map((b) => b.deploy), baseNote),
      row(
        `  helper requests (${methods.length}, a fresh helper per podman exec)`,
        baseline.map((b) => b.helper),
        baseNote,
      ),
      row(
        `  commands (${baseline[0].commandCount}, one podman exec each)`,
        baseline.map((b) => b.commands),
        baseNote,
      ),
      {
        section: SECTION,
        metric: "helper requests: one exec each / session",
        value: round(median(baseline.map((b) => b.helper)) / median(t.map((x) => x.helper_requests))),
        unit: "x",
      },
    );
    return rows;
  } finally {
    await removeTestbedImage();
    await ctx.cleanup();
  }
}

/** Deploy the helper once into a throwaway container, so the bundle build is not timed. */
async function deployHelperWarmup(image: string): Promise<void> {
  const env = await ContainerEnvironment.start({
    type: "podman",
    image,
    cwd: "/testbed",
    run_args: ["--network", "none"],
  });
  try {
    const { helper } = await deployHelper(env, {});
    await helper.close();
  } finally {
    await env.close();
  }
}

/** The `batch` section for tests/bench/run.ts. */
export const batchSection: BenchSection = {
  name: SECTION,
  description: "a 4-instance batch with 2 workers in podman, split by step, vs one podman exec per step",
  run(_ctx: BenchContext): Promise<BenchRow[]> {
    return batchBench();
  },
};

if (import.meta.main) {
  for (const r of await batchBench()) {
    console.log(`${r.metric.padEnd(72)} ${String(r.value ?? "-").padStart(8)} ${r.unit}  ${r.note ?? ""}`);
  }
}
