/**
 * `deno task demo`: the whole agent on tests/fixtures/sample_project with
 * the scripted model (config/demo/scripted_run.yaml): no key, no network.
 *
 * The sample project is copied to a temporary git repository first, so the
 * shipped fixture never changes. The run is the same command a real model
 * uses (`graphplan run --repo DIR --task-file config/demo/task.md`, with
 * `--model openai/gpt-5-mini` instead of the scripted model); afterwards the
 * project's unit tests run on the patched copy when python3 is installed.
 * Between the two, the plan the model wrote is printed in full with its
 * verification result (`demo_report.ts`).
 *
 * Options: `--keep` keeps the temporary directory; anything after `--` is
 * passed to `graphplan run` (e.g. `-- --model openai/gpt-5-mini`, which
 * replaces the scripted model).
 *
 * @module
 */

import { join } from "node:path";
import { main } from "../main.ts";
import { readTrajectory, trajectoryPath } from "../agent/trajectory/mod.ts";
import { planReport } from "./demo_report.ts";

const ROOT = new URL("../", import.meta.url).pathname.replace(/\/$/, "");
const INSTANCE = "sample_project-discount";

async function sh(argv: string[], cwd: string): Promise<{ code: number; output: string }> {
  const out = await new Deno.Command(argv[0], { args: argv.slice(1), cwd, stdout: "piped", stderr: "piped" })
    .output();
  const decoder = new TextDecoder();
  return { code: out.code, output: decoder.decode(out.stdout) + decoder.decode(out.stderr) };
}

async function hasCommand(name: string): Promise<boolean> {
  try {
    return (await sh(["sh", "-c", `command -v ${name}`], "/")).code === 0;
  } catch {
    return false;
  }
}

/** Run the demo; returns the exit code of `graphplan run` (or of the tests, when they fail). */
export async function demo(argv: string[]): Promise<number> {
  const keep = argv.includes("--keep");
  const extra = argv.includes("--") ? argv.slice(argv.indexOf("--") + 1) : [];
  const real = extra.includes("--model");
  const root = await Deno.makeTempDir({ prefix: "graphplan_demo_" });
  const repo = join(root, "sample_project");
  // The outputs outlive the demo, so the trajectory path it prints stays valid.
  const out = await Deno.makeTempDir({ prefix: "graphplan_demo_out_" });
  try {
    const copied = await sh(["cp", "-a", join(ROOT, "tests/fixtures/sample_project"), repo], ROOT);
    if (copied.code !== 0) throw new Error(`Cannot copy the sample project: ${copied.output}`);
    const git = ["git", "-c", "user.email=demo@graphplan.invalid", "-c", "user.name=GraphPlan demo"];
    for (const args of [["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "Sample project"]]) {
      const result = await sh([...git, ...args], repo);
      if (result.code !== 0) throw new Error(`git ${args[0]} failed: ${result.output}`);
    }
    const python = await hasCommand("python3");
    if (python) {
      const before = await sh(["python3", "-m", "unittest", "tests/test_service.py"], repo);
      console.error(`demo: before the run, the project's tests ${before.code === 0 ? "pass" : "FAIL"}:`);
      console.error(before.output.trim().split("\n").slice(-3).join("\n"));
    }
    const args = [
      "run",
      "--repo",
      repo,
      "--task-file",
      join(ROOT, "config/demo/task.md"),
      "--id",
      INSTANCE,
      ...(real ? [] : [
        "-c",
        "model.name=scripted/demo",
        "-c",
        `model.script=${join(ROOT, "config/demo/scripted_run.yaml")}`,
      ]),
      "-o",
      out,
      ...extra,
    ];
    console.error(`demo: graphplan ${args.join(" ")}`);
    const code = await main(args);
    try {
      const saved = await readTrajectory(trajectoryPath(out, INSTANCE));
      for (const line of planReport(saved.info.phases)) console.error(line);
    } catch (err) {
      console.error(`demo: cannot read the trajectory: ${(err as Error).message}`);
    }
    if (python) {
      const after = await sh(["python3", "-m", "unittest", "tests/test_service.py"], repo);
      console.error(`demo: after the run, the project's tests ${after.code === 0 ? "pass" : "FAIL"}:`);
      console.error(after.output.trim().split("\n").slice(-3).join("\n"));
      if (code === 0 && after.code !== 0) return 1;
    } else {
      console.error("demo: python3 is not installed: the project's tests were not run");
    }
    console.error(`demo: outputs kept in ${out}${keep ? `, the patched copy in ${repo}` : ""}`);
    console.error(`demo: to see the run as a web page: graphplan inspect ${out}`);
    return code;
  } finally {
    if (!keep) await Deno.remove(root, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) Deno.exit(await demo(Deno.args));
