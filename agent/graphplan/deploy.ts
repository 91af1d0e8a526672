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

import { buildBundle } from "../../tools/bundle.ts";
import { dirname, fileURLToPath as fromFileUrl, join } from "../../engine/node_builtins.ts";
import type { Environment } from "../env/mod.ts";
import { HelperError, SessionHelper } from "./helper.ts";

/** Where the helper's files go inside a container. */
export const CONTAINER_HELPER_DIR = "/tmp/graphplan-helper";

/** The checkout root (this file is agent/graphplan/deploy.ts), when running from sources. */
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

/** What deployment did, for the trajectory. */
export interface DeployInfo {
  mode: HelperLaunch["mode"];
  version: string;
  argv: string[];
  seconds: number;
}

/** Options of {@linkcode deployHelper}. */
export interface DeployOptions {
  /** Seconds one helper request may take (default 300). */
  timeout?: number;
  /** Use this launch instead of working one out (tests, `environment.helper_command`). */
  launch?: HelperLaunch;
  /** More arguments for `helper --serve` (the helper's `--limit`s, from `environment.helper_limits`). */
  serveArgs?: string[];
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
 * Copy the helper into `env` if needed, check it answers `version`, and open
 * its `--serve` session on the repository at `env.cwd`.
 */
export async function deployHelper(
  env: Environment,
  options: DeployOptions = {},
): Promise<{ helper: SessionHelper; info: DeployInfo }> {
  const started = performance.now();
  const launch = options.launch ?? await helperLaunch(env.type);
  if (launch.copies.length > 0) {
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
  const check = await env.execute(`${launch.argv.map(shellQuote).join(" ")} version < /dev/null`, {
    timeout: 120,
    env: launch.env,
  });
  let version = "";
  try {
    version = JSON.parse(check.output.trim().split("\n").at(-1) ?? "").result.version;
  } catch {
    version = "";
  }
  if (check.returncode !== 0 || !version) {
    throw new HelperError(
      `The helper does not run in the ${env.type} environment (exit ${check.returncode}${
        check.timedOut ? ", timed out" : ""
      }): ${check.output.trim().slice(-800)}`,
    );
  }
  const helper = SessionHelper.start(env, launch.argv, {
    timeout: options.timeout,
    env: launch.env,
    args: options.serveArgs,
  });
  return {
    helper,
    info: { mode: launch.mode, version, argv: launch.argv, seconds: (performance.now() - started) / 1000 },
  };
}

/** `text` quoted for bash. */
export function shellQuote(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
