/**
 * Shared pieces of the batch end-to-end tests: a SWE-bench-shaped image
 * built here (the minimal image of tools/minimal_image.ts with a git copy
 * of the sample project in /testbed), a dataset of instances that all use
 * it, scripted models, and `graphplan batch` as a subprocess (awaited, or
 * spawned to be killed).
 *
 * @module
 */

import { join } from "node:path";
import { buildMinimalImage } from "../../tools/minimal_image.ts";
import { git, podmanEnv, ROOT, runCommand, SAMPLE } from "./_support.ts";

export { podmanEnv } from "./_support.ts";

/** Whether `name` is a program on the PATH. */
export function has(name: string): boolean {
  try {
    return new Deno.Command("bash", { args: ["-c", `type -P ${name}`], stdout: "null", stderr: "null" })
      .outputSync().success;
  } catch {
    return false;
  }
}

/** Why the podman tests cannot run here ("" when they can). */
export const PODMAN_SKIP = has("podman") ? "" : "podman is not installed";

/** Run `command` with bash (podman's environment set). */
export function sh(command: string) {
  return runCommand(["bash", "-c", command], ROOT, podmanEnv());
}

let image: Promise<string> | undefined;

/** The test image (built once per test file, named after this process so parallel runs never collide). */
export function testbedImage(): Promise<string> {
  image ??= (async () => {
    const name = `localhost/graphplan-batch-${Deno.pid}-${crypto.randomUUID().slice(0, 6)}:latest`;
    const dir = await Deno.makeTempDir({ prefix: "gp_testbed_" });
    try {
      const repo = join(dir, "testbed");
      const copied = await new Deno.Command("cp", { args: ["-a", SAMPLE, repo] }).output();
      if (!copied.success) throw new Error("Cannot copy the sample project");
      await git(repo, "init", "-q");
      await git(repo, "add", "-A");
      await git(repo, "commit", "-q", "-m", "init");
      const saved = Deno.env.get("CONTAINERS_CONF");
      for (const [key, value] of Object.entries(podmanEnv())) Deno.env.set(key, value);
      try {
        await buildMinimalImage(name, { cli: "podman", testbed: repo });
      } finally {
        if (saved === undefined) Deno.env.delete("CONTAINERS_CONF");
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
    return name;
  })();
  return image;
}

/** Remove the test image, if it was built. */
export async function removeTestbedImage(): Promise<void> {
  if (!image) return;
  await sh(`podman rmi -f ${await image}`);
}

/** A scratch directory with a dataset of `n` instances (`demo__sample-1` ...) in SWE-bench's schema. */
export async function batchScratch(n: number) {
  const root = await Deno.makeTempDir({ prefix: "gp_batch_" });
  const task = await Deno.readTextFile(join(ROOT, "config/demo/task.md"));
  const rows = Array.from({ length: n }, (_, i) => ({
    instance_id: `demo__sample-${i + 1}`,
    repo: "demo/sample",
    base_commit: "HEAD",
    problem_statement: task,
    version: "1.0",
  }));
  const dataset = join(root, "dataset.jsonl");
  await Deno.writeTextFile(dataset, rows.map((row) => JSON.stringify(row)).join("\n") + "\n");
  return {
    root,
    dataset,
    out: join(root, "out"),
    ids: rows.map((row) => row.instance_id),
    cleanup: () => Deno.remove(root, { recursive: true }),
  };
}

/** One scripted turn: `{content, command, usage}`. */
export type Turn = Record<string, unknown>;

/** The demo's scripted turns (they fix the sample project), with `before` turns first and `usage` on each. */
export async function demoScript(
  dir: string,
  options: { before?: Turn[]; usage?: { input_tokens: number; output_tokens: number } } = {},
): Promise<string> {
  const { parse } = await import("yaml");
  const turns = parse(await Deno.readTextFile(join(ROOT, "config/demo/scripted_run.yaml"))) as Turn[];
  const all = [...(options.before ?? []), ...turns].map((turn) =>
    options.usage ? { ...turn, usage: options.usage } : turn
  );
  const path = join(dir, `script-${crypto.randomUUID().slice(0, 6)}.json`);
  await Deno.writeTextFile(path, JSON.stringify(all));
  return path;
}

/**
 * How an e2e batch's commands reach the container: `session`, the default
 * (through the helper's session, the helper mounted and run as the
 * container's main process); `exec-i`, the same session opened with `exec
 * -i` (`environment.helper_main=false`); `exec`, the fallback (the helper
 * copied in, one `exec` per command).
 */
export type ShellPath = "session" | "exec-i" | "exec";

/** The config options of each {@linkcode ShellPath}. */
export const SHELL_PATHS: Record<ShellPath, string[]> = {
  session: [],
  "exec-i": ["-c", "environment.helper_main=false"],
  exec: ["-c", "environment.shell=exec", "-c", "environment.helper_mount=false"],
};

/** The batch options that run the test image with the scripted model `script`, no network, on `path`. */
export async function scriptedOptions(script: string, path: ShellPath = "session"): Promise<string[]> {
  return [
    "--env",
    "podman",
    "--image",
    await testbedImage(),
    "--model",
    "scripted/demo",
    "-c",
    `model.script=${script}`,
    "-c",
    "environment.run_args=[--network, none]",
    ...SHELL_PATHS[path],
  ];
}

/** The argv of `graphplan batch` from the sources, with the test image and the scripted model. */
export async function batchArgv(
  script: string,
  args: string[],
  path: ShellPath = "session",
): Promise<string[]> {
  const main = ["run", "-A", "--config", join(ROOT, "deno.json"), join(ROOT, "main.ts")];
  return [Deno.execPath(), ...main, "batch", ...await scriptedOptions(script, path), ...args];
}

/** Run `graphplan batch` to its end. */
export async function runBatchCli(script: string, args: string[], path: ShellPath = "session") {
  return runCommand(await batchArgv(script, args, path), ROOT, podmanEnv());
}

/** `graphplan batch` started in the background; `waitFor` reads its stderr until a pattern shows. */
export async function spawnBatch(script: string, args: string[], path: ShellPath = "session") {
  const argv = await batchArgv(script, args, path);
  const child = new Deno.Command(argv[0], {
    args: argv.slice(1),
    env: podmanEnv(),
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  let finished = false;
  const pump = (async () => {
    while (true) {
      const { value, done } = await reader.read();
      if (done) break;
      seen += value;
    }
    finished = true;
  })();
  return {
    child,
    get stderr() {
      return seen;
    },
    /** Wait until stderr matches `pattern` (or the process ends, or 120 s pass). */
    async waitFor(pattern: RegExp): Promise<void> {
      const deadline = Date.now() + 120_000;
      while (!pattern.test(seen)) {
        if (finished) throw new Error(`batch ended before ${pattern}:\n${seen}`);
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern}:\n${seen}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    /** The exit status and everything printed on stderr. */
    async end(): Promise<{ code: number; signal: Deno.Signal | null; stderr: string }> {
      const status = await child.status;
      await pump;
      return { code: status.code, signal: status.signal, stderr: seen };
    },
  };
}

/** Names of containers carrying `graphplan.batch=KEY` for the batch writing to `out`. */
export async function batchContainers(out: string): Promise<string[]> {
  const { batchKey } = await import("../../agent/swebench/containers.ts");
  const key = await batchKey(out);
  const listed = await sh(`podman ps -a --filter label=graphplan.batch=${key} --format '{{.Names}}'`);
  return listed.stdout.split("\n").map((line) => line.trim()).filter(Boolean);
}
