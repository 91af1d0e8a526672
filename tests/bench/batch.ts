/**
 * Benchmark section `batch`: the agent's orchestration in podman, the
 * helper's session path against the one-`exec`-per-command path it replaces
 * (today's fallback), measured in the same run.
 *
 * 1. Per command: `true` run 30 times in one container through the
 *    session's `shell` method and as one `podman exec`, in turns (goal: the
 *    session's median at most 10 ms).
 *    The session's bare round trip (`version`) is timed in the same turns.
 * 2. Deployment: the helper made ready in a fresh container, bind-mounted
 *    read-only with the warm Deno cache seeded (agent/common/deno_seed.ts)
 *    and running as the container's main process (agent/env/main_session.ts),
 *    checked over its session, against the same opened with `exec -i`, mounted
 *    with an empty cache, and copied in (mkdir, cp, chmod); 3 containers
 *    each, in turns (goal: 0.3 s), and `podman exec true` in each, the floor
 *    of any deployment that opens its session through `exec`. Each
 *    container's start (`run -i` attached to the marker for the main
 *    process, `run -d` otherwise) is timed too: the main process must not
 *    move the cost there.
 * 3. A 30-step scripted task (the demo's 7 turns after 23 more exploring
 *    commands) as a 4-instance batch with 2 workers, once through the session
 *    and once with `environment.shell=exec` and `environment.helper_mount=false`;
 *    each instance's wall time split as batch.json records it. The scripted
 *    model answers at once, so an instance's wall time is its orchestration
 *    overhead (goal: the session path's median at most half the exec path's).
 *
 *     deno task bench batch
 *     deno run -A tests/bench/batch.ts --no-task   # 1 and 2 only
 *
 * @module
 */

import { join } from "node:path";
import { ContainerEnvironment, type MainSession } from "../../agent/env/mod.ts";
import {
  deployHelper,
  helperLaunch,
  launchSeed,
  mainSession,
  mountedLaunch,
  plannedLaunch,
  sessionShell,
} from "../../agent/common/mod.ts";
import type { InstanceRecord } from "../../agent/swebench/report.ts";
import {
  batchScratch,
  demoScript,
  PODMAN_SKIP,
  podmanEnv,
  removeTestbedImage,
  runBatchCli,
  testbedImage,
  type Turn,
} from "../e2e/_batch_support.ts";
import type { BenchContext, BenchSection } from "./context.ts";
import { type BenchRow, median, round, rowAtMost, timeInTurns } from "./stats.ts";

const SECTION = "batch";
const INSTANCES = 4;
const WORKERS = 2;
const STEPS = 30;
const COMMAND_RUNS = 30;
const DEPLOY_RUNS = 3;

/** Exploring commands a model would run (read-only), to make the demo's 7 turns 30. */
function exploringTurns(count: number): Turn[] {
  const commands = [
    "ls -la",
    "git log --oneline -3",
    "find . -name '*.py' -not -path './.git/*' | head -20",
    "grep -rn 'def ' app/ | head -20",
    "wc -l app/*.py",
    "sed -n '1,20p' app/service.py",
    "grep -rn 'import' app/models.py",
    "git status --short",
  ];
  return Array.from({ length: count }, (_, i) => ({
    content: `Looking around (${i + 1}).`,
    command: commands[i % commands.length],
  }));
}

/** A started container of `image` (network off) with `runArgs`; closed by the caller. */
function container(image: string, runArgs: string[] = [], main?: MainSession): Promise<ContainerEnvironment> {
  return ContainerEnvironment.start({
    type: "podman",
    image,
    cwd: "/testbed",
    run_args: ["--network", "none", ...runArgs],
  }, { main });
}

/**
 * Per-command time, in turns in one container (ms): `true` through the
 * session and as one exec, and the session's bare round trip (`version`, no
 * process started) that shows what of the session's time is bash's spawn.
 */
async function perCommand(image: string) {
  const planned = await plannedLaunch({ type: "podman", helper_mount: true });
  const env = await container(image, planned.runArgs);
  try {
    const { helper } = await deployHelper(env, { launch: planned.launch });
    const shell = sessionShell(env, helper, {});
    try {
      const sample = await timeInTurns(COMMAND_RUNS, {
        session: () => shell.execute("true"),
        exec: () => env.execute("true"),
        roundTrip: () => helper.send("version", {}, 30),
      }, { warmup: 3 });
      if (shell.counts.exec > 0) throw new Error("A session command fell back to exec");
      return sample;
    } finally {
      await helper.close();
    }
  } finally {
    await env.close();
  }
}

/**
 * Deployment in fresh containers, in turns (s): mounted with the warm Deno
 * cache seeded, mounted with an empty cache (the previous default), copied;
 * and `podman exec true`, the floor any deployment through `exec` pays.
 */
async function deployment(image: string) {
  const launch = await helperLaunch("podman");
  const seed = await launchSeed(launch);
  if (!seed) throw new Error("The warm Deno cache for the helper could not be made");
  const plans = {
    main: mountedLaunch(launch, seed),
    seeded: mountedLaunch(launch, seed),
    mounted: mountedLaunch(launch),
    copied: { launch, runArgs: [] },
  };
  const times = {
    main: [] as number[],
    seeded: [] as number[],
    mounted: [] as number[],
    copied: [] as number[],
    exec: [] as number[],
  };
  const starts = { main: [] as number[], detached: [] as number[] };
  for (let i = 0; i < DEPLOY_RUNS; i++) {
    for (const kind of ["main", "seeded", "mounted", "copied"] as const) {
      const plan = plans[kind];
      const main = kind === "main" ? mainSession(plan.launch, "/testbed") : undefined;
      const starting = performance.now();
      const env = await container(image, plan.runArgs, main);
      starts[kind === "main" ? "main" : "detached"].push((performance.now() - starting) / 1000);
      try {
        const { helper, info } = await deployHelper(env, { launch: plan.launch, main: main !== undefined });
        await helper.close();
        if ((info.mounted === true) !== (kind !== "copied") || (info.main === true) !== (kind === "main")) {
          throw new Error(`The ${kind} deployment was not`);
        }
        times[kind].push(info.seconds);
        const started = performance.now();
        await env.execute("true");
        times.exec.push((performance.now() - started) / 1000);
      } finally {
        await env.close();
      }
    }
  }
  return { ...times, starts };
}

/** One batch of the 30-step task through `options`; its instances' records. */
async function batchRun(script: string, dataset: string, out: string, options: string[]) {
  const started = performance.now();
  const result = await runBatchCli(script, [
    "--subset",
    dataset,
    "-w",
    String(WORKERS),
    "-o",
    out,
    "-c",
    "agent.max_explore_steps=40",
    ...options,
  ]);
  const wall = (performance.now() - started) / 1000;
  if (result.code !== 0) throw new Error(`The batch failed: ${result.stderr}`);
  const doc = JSON.parse(await Deno.readTextFile(join(out, "batch.json"))) as {
    instances: Record<string, InstanceRecord>;
  };
  const records = Object.values(doc.instances);
  if (records.some((r) => r.status !== "Submitted" || !r.timings)) {
    throw new Error(`Not every instance was submitted: ${JSON.stringify(records.map((r) => r.status))}`);
  }
  return { wall, records };
}

function row(metric: string, values: number[], note: string, unit = "s"): BenchRow {
  return { section: SECTION, metric, value: round(median(values)), unit, note };
}

/** The rows of one batch path. */
function pathRows(label: string, run: Awaited<ReturnType<typeof batchRun>>): BenchRow[] {
  const { records } = run;
  const t = records.map((r) => r.timings!);
  const note = `median of ${records.length} instances, ${WORKERS} at a time`;
  return [
    {
      section: SECTION,
      metric: `${label}: batch wall (4 instances, 2 workers)`,
      value: round(run.wall),
      unit: "s",
    },
    row(`${label}: instance wall = orchestration overhead`, records.map((r) => r.wall_time), note),
    row("  container start (podman run)", t.map((x) => x.container_start), note),
    row("  helper deployment", t.map((x) => x.helper_deploy), note),
    row(`  helper requests (${t[0].helper_calls})`, t.map((x) => x.helper_requests), note),
    row(`  commands (${t[0].command_count})`, t.map((x) => x.commands), note),
    row(
      "  rest (scripted model, agent, trajectory, teardown)",
      records.map((r, i) =>
        r.wall_time - t[i].container_start - t[i].helper_deploy - t[i].helper_requests - t[i].commands
      ),
      note,
    ),
  ];
}

/** Run the three measurements; the figures as bench rows. */
export async function batchBench(options: { task?: boolean } = {}): Promise<BenchRow[]> {
  if (PODMAN_SKIP) {
    return [{ section: SECTION, metric: "batch in podman", value: null, unit: "s", note: PODMAN_SKIP }];
  }
  for (const [key, value] of Object.entries(podmanEnv())) Deno.env.set(key, value);
  const ctx = await batchScratch(INSTANCES);
  try {
    const image = await testbedImage();
    // Builds the bundle outside the timings, and warms podman.
    await deployment(image).catch(() => {});
    const rows: BenchRow[] = [];
    const commands = await perCommand(image);
    const turnNote = `median of ${COMMAND_RUNS}, in turns in one container`;
    const ms = (metric: string, value: number): BenchRow => ({
      section: SECTION,
      metric,
      value: round(value),
      unit: "ms",
      note: turnNote,
    });
    rows.push(
      rowAtMost(ms("per command (`true`): through the helper's session", commands.session.median), 10),
      ms("per command (`true`): one podman exec", commands.exec.median),
      ms("  the session's bare round trip (`version`, no process)", commands.roundTrip.median),
    );
    const deploy = await deployment(image);
    const deployNote = `median of ${DEPLOY_RUNS} fresh containers, in turns`;
    const seconds = (metric: string, values: number[]): BenchRow => ({
      section: SECTION,
      metric,
      value: round(median(values)),
      unit: "s",
      note: deployNote,
    });
    rows.push(
      rowAtMost(
        seconds("helper deployment: the container's main process (no exec), version", deploy.main),
        0.3,
      ),
      seconds("helper deployment: mounted, warm Deno cache seeded, exec -i, version", deploy.seeded),
      seconds("helper deployment: mounted, empty Deno cache, version", deploy.mounted),
      seconds("helper deployment: copied in (mkdir, cp, chmod), version", deploy.copied),
      seconds("  `podman exec true` in the same containers (the floor through exec)", deploy.exec),
      seconds("container start: `run -i` to the main process's marker", deploy.starts.main),
      seconds("container start: `run -d` (sleep infinity)", deploy.starts.detached),
    );
    if (!options.task) return rows;
    const script = await demoScript(ctx.root, { before: exploringTurns(STEPS - 7) });
    const session = await batchRun(script, ctx.dataset, join(ctx.root, "session"), []);
    const exec = await batchRun(script, ctx.dataset, join(ctx.root, "exec"), [
      "-c",
      "environment.shell=exec",
      "-c",
      "environment.helper_mount=false",
    ]);
    rows.push(
      ...pathRows(`${STEPS}-step task, session`, session),
      ...pathRows(`${STEPS}-step task, one exec per command`, exec),
    );
    rows.push(rowAtMost({
      section: SECTION,
      metric: "orchestration overhead per instance: session / one exec per command",
      value: round(
        median(session.records.map((r) => r.wall_time)) / median(exec.records.map((r) => r.wall_time)),
      ),
      unit: "x",
      note: "medians of the two batches above",
    }, 0.5));
    return rows;
  } finally {
    await removeTestbedImage();
    await ctx.cleanup();
  }
}

/** The `batch` section for tests/bench/run.ts. */
export const batchSection: BenchSection = {
  name: SECTION,
  description:
    "podman: per-command time and helper deployment, session vs one exec; a 30-step 4-instance batch both ways",
  run(_ctx: BenchContext): Promise<BenchRow[]> {
    return batchBench({ task: true });
  },
};

if (import.meta.main) {
  for (const r of await batchBench({ task: !Deno.args.includes("--no-task") })) {
    console.log(`${r.metric.padEnd(72)} ${String(r.value ?? "-").padStart(8)} ${r.unit}  ${r.note ?? ""}`);
  }
}
