/**
 * Putting the helper where the task's code is, at setup.
 *
 * - `local`: the helper runs on the host as a subprocess: this executable
 *   (`graphplan helper`) when it is a compiled binary, else
 *   `deno run -A main.ts helper` from the checkout (or the bundle this
 *   process runs from).
 * - `docker`/`podman`: the files are copied into the container under
 *   {@linkcode CONTAINER_HELPER_DIR}: the compiled binary itself, or the
 *   `deno` executable plus `dist/graphplan.js` (rebuilt with `deno bundle`
 *   when missing or older than the sources). Nothing else is needed in the
 *   image: no Node, no Python, no network.
 *
 * Either way the helper is checked (`helper version`, one process) and then
 * one long-lived `helper --serve` session is opened over `exec -i` (a pipe
 * for `local`) and used for every request of the run.
 *
 * @module
 */

import { shellQuote } from "../env/shell_quote.ts";
import { buildBundle } from "../../tools/bundle.ts";
import { dirname, fileURLToPath as fromFileUrl, join } from "../../engine/base/node_builtins.ts";
import type { Environment, EnvironmentConfig, MainSession } from "../env/mod.ts";
import { type DenoSeed, denoSeed } from "./deno_seed.ts";
import { HelperError, serveArgv, SessionHelper } from "./helper.ts";

/** Where the helper's files go inside a container. */
export const CONTAINER_HELPER_DIR = "/tmp/graphplan-helper";

/** Where they are bind-mounted read-only instead, at the container's creation. */
export const MOUNTED_HELPER_DIR = "/tmp/graphplan-helper-ro";

/** Deno's cache for a mounted helper: a directory of its own the container's user can create. */
const MOUNTED_DENO_DIR = "/tmp/graphplan-helper-deno";

/** The checkout root (this file is agent/common/deploy.ts), when running from sources. */
const SOURCE_ROOT = (() => {
  try {
    const url = new URL("../../", import.meta.url);
    return url.protocol === "file:" ? fromFileUrl(url).replace(/\/$/, "") : null;
  } catch {
    return null;
  }
})();

/** Directories and files whose changes make `dist/graphplan.js` stale. */
const BUNDLE_SOURCES = ["main.ts", "version.ts", "deno.json", "cli", "engine", "grammars", "agent", "config"];

/** How the helper is started. */
export interface HelperLaunch {
  /** `compiled` (this binary), `bundle` (deno + dist/graphplan.js) or `source` (deno + main.ts). */
  mode: "compiled" | "bundle" | "source";
  /** The command before `helper`'s own arguments: `[..., "helper"]`. */
  argv: string[];
  /** Environment variables for the helper (deno's cache in a writable place). */
  env: Record<string, string>;
  /** Host files to copy in first: host path → path in the environment. */
  copies: { from: string; to: string }[];
  /** Host files bind-mounted read-only at the container's creation (then nothing is copied). */
  mounts?: { from: string; to: string }[];
  /** The launch that copies the files, for when the mounted one does not answer. */
  fallback?: HelperLaunch;
}

/**
 * The `bash -c` script that starts a mounted helper with a warm Deno cache:
 * `$1` is the seed (read-only), `$2` the `DENO_DIR` (exported), copied from
 * the seed unless it is there (a restarted session keeps the cache it has);
 * without `cp` Deno starts with an empty cache. Then the helper replaces bash.
 */
export const SEEDED_START =
  'export DENO_DIR="$2"; [ -e "$2" ] || cp -R "$1" "$2" 2>/dev/null; shift 2; exec "$@"';

/**
 * The launch that finds the helper's files bind-mounted read-only in the
 * container, and the `run` arguments that mount them (`-v HOST:PATH:ro`);
 * `launch` itself (it copies) is kept as its fallback. A launch that copies
 * nothing is returned as it is. With a `seed` (agent/common/deno_seed.ts)
 * the bundle is its copy, mounted at the same path as on the host, and the
 * warm cache is mounted beside it and copied to `DENO_DIR` at the start.
 */
export function mountedLaunch(
  launch: HelperLaunch,
  seed?: DenoSeed | null,
): { launch: HelperLaunch; runArgs: string[] } {
  if (launch.copies.length === 0) return { launch, runArgs: [] };
  const moved = new Map(
    launch.copies.map((copy) => [copy.to, `${MOUNTED_HELPER_DIR}/${copy.to.split("/").at(-1)}`]),
  );
  const mounts = launch.copies.map((copy) => ({ from: copy.from, to: moved.get(copy.to)! }));
  const denoDir: Record<string, string> = "DENO_DIR" in launch.env ? { DENO_DIR: MOUNTED_DENO_DIR } : {};
  let argv = launch.argv.map((arg) => moved.get(arg) ?? arg);
  const bundle = mounts.findIndex((mount) => mount.to.endsWith(".js"));
  if (seed && launch.mode === "bundle" && denoDir.DENO_DIR && bundle >= 0) {
    argv = argv.map((arg) => arg === mounts[bundle].to ? seed.bundle : arg);
    mounts[bundle] = { from: seed.bundle, to: seed.bundle };
    mounts.push({ from: seed.denoDir, to: seed.denoDir });
    argv = ["bash", "-c", SEEDED_START, "bash", seed.denoDir, denoDir.DENO_DIR, ...argv];
  }
  return {
    launch: {
      mode: launch.mode,
      argv,
      env: { ...launch.env, ...denoDir },
      copies: [],
      mounts,
      fallback: launch,
    },
    runArgs: mounts.flatMap((mount) => ["-v", `${mount.from}:${mount.to}:ro`]),
  };
}

/**
 * True when this process is a `deno compile`d executable. `Deno.build.standalone`
 * says so directly (Deno 2.1+); older runtimes are recognised by the main
 * module's virtual path (`.../deno-compile-NAME/...`).
 */
export function isCompiled(): boolean {
  const standalone = (Deno.build as { standalone?: boolean }).standalone;
  if (typeof standalone === "boolean") return standalone;
  return /\/deno-compile-[^/]+\//.test(Deno.mainModule);
}

/** The bundle this process runs from (`deno run dist/graphplan.js ...`), if it does. */
function runningBundle(): string | null {
  const main = Deno.mainModule;
  if (!main.startsWith("file:") || !main.endsWith(".js")) return null;
  return fromFileUrl(main);
}

/** How to start the helper in an environment of type `type` (`local`, `docker`, `podman`). */
export async function helperLaunch(
  type: string,
  options: { bundle?: string; dir?: string; compiled?: boolean } = {},
): Promise<HelperLaunch> {
  const exe = Deno.execPath();
  const compiled = options.compiled ?? isCompiled();
  if (type === "local") {
    if (compiled) return { mode: "compiled", argv: [exe, "helper"], env: {}, copies: [] };
    const bundle = options.bundle ?? runningBundle();
    if (bundle) return { mode: "bundle", argv: [exe, "run", "-A", bundle, "helper"], env: {}, copies: [] };
    if (!SOURCE_ROOT) throw new HelperError("Cannot find main.ts to start the helper from");
    return {
      mode: "source",
      argv: [
        exe,
        "run",
        "-A",
        "--config",
        join(SOURCE_ROOT, "deno.json"),
        join(SOURCE_ROOT, "main.ts"),
        "helper",
      ],
      env: {},
      copies: [],
    };
  }
  const dir = options.dir ?? CONTAINER_HELPER_DIR;
  const env = { DENO_DIR: `${dir}/deno_dir`, DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" };
  if (compiled) {
    return {
      mode: "compiled",
      argv: [`${dir}/graphplan`, "helper"],
      env,
      copies: [{ from: exe, to: `${dir}/graphplan` }],
    };
  }
  const bundle = options.bundle ?? runningBundle() ?? await ensureBundle();
  return {
    mode: "bundle",
    argv: [`${dir}/deno`, "run", "-A", "--no-config", `${dir}/graphplan.js`, "helper"],
    env,
    copies: [{ from: exe, to: `${dir}/deno` }, { from: bundle, to: `${dir}/graphplan.js` }],
  };
}

let building: Promise<string> | undefined;

/**
 * `dist/graphplan.js`, built (`tools/bundle.ts`) when it is missing or older
 * than any source file; the build renames a finished file into place, so
 * parallel runs never see half a bundle.
 */
export function ensureBundle(): Promise<string> {
  building ??= (async () => {
    if (!SOURCE_ROOT) throw new HelperError("Cannot build the helper bundle: no source checkout");
    const target = join(SOURCE_ROOT, "dist", "graphplan.js");
    let built = 0;
    try {
      built = (await Deno.stat(target)).mtime?.getTime() ?? 0;
    } catch {
      built = 0;
    }
    let newest = 0;
    for (const name of BUNDLE_SOURCES) newest = Math.max(newest, await newestMtime(join(SOURCE_ROOT, name)));
    if (built > 0 && built >= newest) return target;
    try {
      await buildBundle(target);
    } catch (err) {
      throw new HelperError(`Cannot build the helper bundle: ${(err as Error).message}`);
    }
    return target;
  })();
  building.catch(() => building = undefined);
  return building;
}

async function newestMtime(path: string): Promise<number> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(path);
  } catch {
    return 0;
  }
  if (!info.isDirectory) return info.mtime?.getTime() ?? 0;
  let newest = 0;
  for await (const entry of Deno.readDir(path)) {
    newest = Math.max(newest, await newestMtime(join(path, entry.name)));
  }
  return newest;
}

/**
 * How a run will start its helper, worked out before its container exists so
 * the files can be mounted at creation: `environment.helper_command` when
 * set; for a container, the files this process would copy, mounted
 * ({@linkcode mountedLaunch}, the bundle with its warm Deno cache from
 * {@linkcode launchSeed}) unless `helper_mount` is false; for `local`,
 * nothing (deployHelper works it out).
 */
export async function plannedLaunch(
  config: Pick<EnvironmentConfig, "type" | "helper_mount"> & { helper_command?: string[] | null },
): Promise<{ launch?: HelperLaunch; runArgs: string[] }> {
  if (config.helper_command) {
    return { launch: { mode: "compiled", argv: config.helper_command, env: {}, copies: [] }, runArgs: [] };
  }
  if (config.type === "local") return { runArgs: [] };
  const launch = await helperLaunch(config.type);
  if (config.helper_mount === false) return { launch, runArgs: [] };
  return mountedLaunch(launch, await launchSeed(launch));
}

/**
 * The helper's session as the container's main process (agent/env/main_session.ts)
 * for a mounted launch: what `deployHelper` will ask `startSession` for, so
 * the container hands it the session its main process runs. Null for a
 * launch that copies (its files are not there when the container starts).
 */
export function mainSession(
  launch: HelperLaunch | undefined,
  repo: string,
  serveArgs: string[] = [],
): MainSession | undefined {
  if (!launch?.mounts || launch.copies.length > 0) return undefined;
  return { argv: serveArgv(launch.argv, repo, serveArgs), env: launch.env };
}

/** The warm-cache seed of a bundle launch (made on first use); null for other launches or when it cannot be made. */
export function launchSeed(launch: HelperLaunch): Promise<DenoSeed | null> {
  const [deno, bundle] = launch.copies.map((copy) => copy.from);
  if (launch.mode !== "bundle" || !deno || !bundle) return Promise.resolve(null);
  return denoSeed(deno, bundle, launch.env);
}

/** What deployment did, for the trajectory. */
export interface DeployInfo {
  mode: HelperLaunch["mode"];
  version: string;
  argv: string[];
  seconds: number;
  /** True when the helper's files were bind-mounted, not copied. */
  mounted?: boolean;
  /** True when its session is the container's main process (opened without `exec`). */
  main?: boolean;
}

/** Options of {@linkcode deployHelper}. */
export interface DeployOptions {
  /** Seconds one helper request may take (default 300). */
  timeout?: number;
  /** Use this launch instead of working one out (tests, `environment.helper_command`). */
  launch?: HelperLaunch;
  /** More arguments for `helper --serve` (the helper's `--limit`s, from `environment.helper_limits`). */
  serveArgs?: string[];
  /**
   * The container was started with this launch's session as its main process
   * ({@linkcode mainSession}): the first `startSession` gets it; if it does not
   * answer, the launch is opened once more with `exec -i` before its fallback.
   */
  main?: boolean;
}

/** `--limit KEY=N` arguments for the helper (`--timeout N` for the work budget). */
export function limitArgs(limits: Partial<Record<string, number>>): string[] {
  const args: string[] = [];
  for (const [key, value] of Object.entries(limits)) {
    if (value === undefined) continue;
    if (key === "timeout") args.push("--timeout", String(value));
    else args.push("--limit", `${key}=${value}`);
  }
  return args;
}

/**
 * Copy the helper into `env` if needed (a mounted one is tried first), open
 * its `--serve` session on the repository at `env.cwd` and check that it
 * answers `version`.
 */
export async function deployHelper(
  env: Environment,
  options: DeployOptions = {},
): Promise<{ helper: SessionHelper; info: DeployInfo }> {
  const started = performance.now();
  const launch = options.launch ?? await helperLaunch(env.type);
  // The main process's session, then the same launch over `exec -i`, then the copy.
  const attempts = [
    ...(options.main ? [launch] : []),
    launch,
    ...(launch.fallback ? [launch.fallback] : []),
  ];
  let opened: { helper: SessionHelper; version: string; launch: HelperLaunch } | undefined;
  let main = false;
  for (const [i, attempt] of attempts.entries()) {
    try {
      opened = await openHelper(env, attempt, options);
      main = options.main === true && i === 0;
      break;
    } catch (err) {
      if (i === attempts.length - 1) throw err;
    }
  }
  const info: DeployInfo = {
    mode: opened!.launch.mode,
    version: opened!.version,
    argv: opened!.launch.argv,
    seconds: (performance.now() - started) / 1000,
    ...(opened!.launch.mounts ? { mounted: true } : {}),
    ...(main ? { main: true } : {}),
  };
  return { helper: opened!.helper, info };
}

/** Copy `launch`'s files, start its session and ask `version`; on failure, the error says why. */
async function openHelper(
  env: Environment,
  launch: HelperLaunch,
  options: DeployOptions,
): Promise<{ helper: SessionHelper; version: string; launch: HelperLaunch }> {
  if (launch.copies.length > 0) await copyHelper(env, launch);
  const helper = SessionHelper.start(env, launch.argv, {
    timeout: options.timeout,
    env: launch.env,
    args: options.serveArgs,
  });
  try {
    const answer = await helper.send("version", {}, 120) as { version?: unknown };
    if (typeof answer?.version === "string" && answer.version) {
      return { helper, version: answer.version, launch };
    }
  } catch {
    // the one-process check below says why
  }
  await helper.close().catch(() => {});
  throw await whyNotRunning(env, launch);
}

/** `mkdir`, `cp` and `chmod +x` of the launch's files. */
async function copyHelper(env: Environment, launch: HelperLaunch): Promise<void> {
  const dirs = [...new Set(launch.copies.map((copy) => dirname(copy.to)))];
  const made = await env.execute(`mkdir -p ${dirs.map(shellQuote).join(" ")}`, { timeout: 60 });
  if (made.returncode !== 0) {
    throw new HelperError(`Cannot create ${dirs.join(", ")} for the helper: ${made.output.trim()}`);
  }
  for (const copy of launch.copies) await env.copyIn(copy.from, copy.to);
  const chmod = await env.execute(`chmod +x ${shellQuote(launch.copies[0].to)}`, { timeout: 60 });
  if (chmod.returncode !== 0) {
    throw new HelperError(`Cannot make the helper executable: ${chmod.output.trim()}`);
  }
}

/** The helper's `version` run as one process: its exit status and output, as an error. */
async function whyNotRunning(env: Environment, launch: HelperLaunch): Promise<HelperError> {
  const check = await env.execute(`${launch.argv.map(shellQuote).join(" ")} version < /dev/null`, {
    timeout: 120,
    env: launch.env,
  });
  return new HelperError(
    `The helper does not run in the ${env.type} environment (exit ${check.returncode}${
      check.timedOut ? ", timed out" : ""
    }): ${check.output.trim().slice(-800) || "it gave no version on its session"}`,
  );
}
