/**
 * Shared set-up for executor tests: a private state directory (so journals
 * never land in the real home), temporary repositories, byte snapshots.
 *
 * @module
 */

import { skipReason } from "../../_support/skips.ts";
import { runCli } from "../../_support/cli.ts";

/**
 * Point `XDG_STATE_HOME` at a private directory of this test process (the
 * same for every test file: `deno test --parallel` runs files in workers of
 * one process, which share the environment), so journals never land in the
 * real home.
 */
export const STATE_HOME: string = (() => {
  const dir = `${(Deno.env.get("TMPDIR") || "/tmp").replace(/\/+$/, "")}/graphplan-test-state-${Deno.pid}`;
  Deno.mkdirSync(dir, { recursive: true });
  Deno.env.set("XDG_STATE_HOME", dir);
  return dir;
})();

const created: string[] = [];
globalThis.addEventListener("unload", () => {
  for (const dir of created) {
    for (const path of [dir, `${dir}.patch`, `${dir}.plan.json`, `${dir}.params.json`, `${dir}.file`]) {
      try {
        Deno.removeSync(path, { recursive: true });
      } catch { /* already gone */ }
    }
  }
});

/** A temporary repository with `files` (path → text or bytes), removed when the test module unloads. */
export function makeRepo(files: Record<string, string | Uint8Array>): string {
  const dir = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "graphplan-repo-" }));
  created.push(dir);
  for (const [path, content] of Object.entries(files)) {
    const abs = `${dir}/${path}`;
    Deno.mkdirSync(abs.slice(0, abs.lastIndexOf("/")), { recursive: true });
    if (typeof content === "string") Deno.writeTextFileSync(abs, content);
    else Deno.writeFileSync(abs, content);
  }
  return dir;
}

/** Every regular file under `dir` (relative path → bytes), skipping `.git`. */
export function snapshot(dir: string, prefix = ""): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  for (const entry of Deno.readDirSync(`${dir}/${prefix}`)) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.name === ".git") continue;
    if (entry.isDirectory) { for (const [k, v] of snapshot(dir, rel)) out.set(k, v); }
    else if (entry.isFile) out.set(rel, Deno.readFileSync(`${dir}/${rel}`));
  }
  return out;
}

/** Run git in `dir`; returns stdout. */
export function git(dir: string, ...args: string[]): string {
  const out = new Deno.Command("git", {
    args: ["-c", "user.email=t@example.com", "-c", "user.name=t", "-c", "core.autocrlf=false", ...args],
    cwd: dir,
    stdout: "piped",
    stderr: "piped",
  }).outputSync();
  if (!out.success) throw new Error(`git ${args.join(" ")} failed: ${new TextDecoder().decode(out.stderr)}`);
  return new TextDecoder().decode(out.stdout);
}

function hasGit(): boolean {
  try {
    return new Deno.Command("git", { args: ["--version"], stdout: "null", stderr: "null" }).outputSync()
      .success;
  } catch {
    return false;
  }
}

/** Reason to skip git-based tests, or undefined. */
export const GIT_SKIP = skipReason(hasGit() ? undefined : "git not found on PATH");

/** Make `dir` a git repository with everything committed. */
export function gitInit(dir: string): void {
  git(dir, "init", "-q");
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "base");
}

/** Bytes of `text` with `old` replaced by `replacement` once, done on bytes (an independent oracle). */
export function spliceBytes(bytes: Uint8Array, old: string, replacement: string): Uint8Array {
  const needle = new TextEncoder().encode(old);
  outer: for (let i = 0; i + needle.length <= bytes.length; i++) {
    for (let k = 0; k < needle.length; k++) if (bytes[i + k] !== needle[k]) continue outer;
    const rep = new TextEncoder().encode(replacement);
    const out = new Uint8Array(bytes.length - needle.length + rep.length);
    out.set(bytes.subarray(0, i));
    out.set(rep, i);
    out.set(bytes.subarray(i + needle.length), i + rep.length);
    return out;
  }
  throw new Error(`"${old}" not found`);
}

let dispatchProbe: Promise<string | undefined> | undefined;

/**
 * Reason to skip tests that need the real plan parser and operators (run
 * through `main.ts apply --dry-run` once), or undefined when they work.
 */
export function dispatchSkip(): Promise<string | undefined> {
  dispatchProbe ??= (async () => {
    const dir = makeRepo({ "a.py": "x = 1\n" });
    const plan = JSON.stringify([{
      op: "replace_code",
      params: { file: "a.py", pattern: "x = 1", replacement: "x = 2" },
    }]);
    const out = await runCli(["apply", "-", "--repo", dir, "--dry-run", "--json"], {
      stdin: plan,
      env: { XDG_STATE_HOME: STATE_HOME },
      json: false,
    });
    try {
      const result = JSON.parse(out.stdout);
      return result.success === true
        ? undefined
        : `the operators refuse replace_code: ${JSON.stringify(result.errors)}`;
    } catch {
      return `the plan parser or operators do not load: ${out.stderr.split("\n")[0]}`;
    }
  })().then(skipReason);
  return dispatchProbe;
}

/** Options of {@linkcode pausedRunner}. */
export interface PausedRunnerOptions {
  /** The 1-based write to pause at. */
  write: number;
  /** `journal`, `temp` or `rename` (default `rename`). */
  stage?: string;
  /** More environment (XDG_STATE_HOME is this process's private one unless given). */
  env?: Record<string, string>;
}

/**
 * Start `_fault_runner.ts` on the plan in `planFile` over `repo` and return
 * it once it is paused at the chosen write (its stderr read up to the pause
 * message, then closed). The caller kills it.
 */
export async function pausedRunner(
  repo: string,
  planFile: string,
  options: PausedRunnerOptions,
): Promise<Deno.ChildProcess> {
  const stage = options.stage ?? "rename";
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL("./_fault_runner.ts", import.meta.url).pathname, repo, planFile],
    env: {
      XDG_STATE_HOME: STATE_HOME,
      NO_COLOR: "1",
      GRAPHPLAN_TEST_PAUSE_AFTER_WRITE: String(options.write),
      GRAPHPLAN_TEST_PAUSE_STAGE: stage,
      ...options.env,
    },
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  while (!seen.includes(`paused at write ${options.write} (${stage})`)) {
    const { value, done } = await reader.read();
    if (done) {
      await child.status;
      throw new Error(`the runner did not pause at write ${options.write} (${stage}): ${seen}`);
    }
    seen += value;
  }
  await reader.cancel();
  return child;
}

/**
 * Read `child`'s stderr until a `GRAPHPLAN_TEST_PAUSE_*` pause is announced
 * (or the stream ends), then SIGKILL it; returns the stderr read.
 */
export async function killAtPause(child: Deno.ChildProcess): Promise<string> {
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  while (!seen.includes("graphplan-test: paused")) {
    const { value, done } = await reader.read();
    if (done) break;
    seen += value;
  }
  child.kill("SIGKILL");
  await child.status;
  await reader.cancel();
  return seen;
}
