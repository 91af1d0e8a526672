/**
 * A warm Deno cache for the helper bundle, made once on the host and handed
 * to every container, so the helper's first start there does not redo Deno's
 * work on the 4 MB bundle.
 *
 * What Deno does on a first start of `deno run graphplan.js` with an empty
 * `DENO_DIR`, measured on this project's bundle (Deno 2.9): it parses the
 * whole file to find its imports (the `dep_analysis_cache_v2` SQLite file
 * keeps the result, keyed by the module's URL and a hash of its text),
 * compiles it (`v8_code_cache_v2` keeps V8's code cache, same key) and opens
 * `node_analysis_cache_v2` (empty: the bundle has no CommonJS). There is no
 * npm resolution and no type checking. The parse is most of it: with only
 * the dependency cache warm a start takes about a quarter of the empty
 * start's time, with both caches about a sixth.
 *
 * Three facts shape how the cache reaches the container:
 *
 * - The key is the module's URL, so the bundle must have the same path on
 *   the host (where the cache is made) and in the container. It lives in
 *   `/tmp/graphplan-helper-KEY/` on both sides, KEY a hash of the bundle's
 *   text and Deno's version; the bundle is a copy there, so a rebuilt
 *   `dist/graphplan.js` never changes what a running container sees.
 * - Deno does not use a cache it cannot write to: a read-only `DENO_DIR`
 *   started as slowly as an empty one (also after the write-ahead logs were
 *   folded in). So the mounted cache is a seed: the helper's start command
 *   copies it to a writable `DENO_DIR` in the container's `/tmp` first
 *   (`cp -R`, ~0.6 MB, a few ms; a container without `cp` starts with an
 *   empty cache, as before). A podman overlay mount (`:O`) did as well but
 *   exists only in podman and fails the container's start where the runtime
 *   lacks it.
 * - Deno writes the code cache entry after the module ran, and a process
 *   that exits at once sometimes ends first: the seed is made by running
 *   `helper version` until Deno's debug log reports a code cache hit for the
 *   bundle (two runs, sometimes three).
 * - Deno leaves its SQLite files in write-ahead-log mode, the log beside
 *   them, when it exits. A copy taken while Deno runs can be inconsistent; a
 *   copy of a finished process's files is what SQLite sees after any crash
 *   and replays at the next open (on a writable copy). So the seed is made
 *   in a directory of its own by a helper that runs `version` and exits,
 *   and only then renamed into place: a container never copies half a cache.
 *
 * Several runs on one host may want the same seed at once: the first to
 * create the directory makes the seed; the others find it made, or start
 * their helpers without it (nothing waits for a seed).
 *
 * @module
 */

/** The cache file whose presence says a seed is made (the one that matters most). */
const DEPENDENCY_CACHE = "dep_analysis_cache_v2";

/** What Deno's debug log says when a module's V8 code cache was found (the module's URL follows). */
export const CODE_CACHE_HIT = "V8 code cache hit for ES module: ";

/** Runs of the helper that may be needed to fill the seed. */
const SEED_RUNS = 4;

/** A seed directory left unfinished this long (its maker was killed) is made anew (ms). */
const ABANDONED_MS = 5 * 60_000;

/** A prepared seed: paths that are the same on the host and in the container. */
export interface DenoSeed {
  /** The bundle's copy, to mount at the same path. */
  bundle: string;
  /** The warm `DENO_DIR`, to mount read-only at the same path and copy from. */
  denoDir: string;
}

const seeds = new Map<string, Promise<DenoSeed | null>>();

/**
 * The seed for `bundle` run by the `deno` at `denoPath` with `env`, made if
 * needed (once per process and host); null when it cannot be made (`/tmp`
 * not writable, the helper failing) or another process is making it.
 */
export function denoSeed(
  denoPath: string,
  bundle: string,
  env: Record<string, string> = {},
): Promise<DenoSeed | null> {
  const key = `${denoPath}\0${bundle}`;
  let seed = seeds.get(key);
  if (!seed) {
    seed = makeSeed(denoPath, bundle, env).catch(() => null);
    seeds.set(key, seed);
  }
  return seed;
}

async function makeSeed(
  denoPath: string,
  bundle: string,
  env: Record<string, string>,
): Promise<DenoSeed | null> {
  const text = await Deno.readFile(bundle);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", text));
  const hash = [...digest.slice(0, 8)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  const root = `/tmp/graphplan-helper-${hash}-${Deno.version.deno}`;
  const seed = { bundle: `${root}/graphplan.js`, denoDir: `${root}/deno_dir` };
  if (await exists(`${seed.denoDir}/${DEPENDENCY_CACHE}`)) return seed;
  await removeAbandoned(root);
  try {
    await Deno.mkdir(root);
  } catch {
    return null; // another process is making it: start without a seed
  }
  try {
    return await fill(root, seed, denoPath, text, env) ? seed : null;
  } finally {
    if (!(await exists(seed.denoDir))) await Deno.remove(root, { recursive: true }).catch(() => {});
  }
}

/**
 * Write the bundle's copy and run its `helper version` with a cache of its
 * own until Deno reports a hit in it for the bundle's code cache (at most
 * {@linkcode SEED_RUNS} runs): Deno writes that entry after the module ran,
 * and a process that exits at once sometimes ends before it does.
 */
async function fill(
  root: string,
  seed: DenoSeed,
  denoPath: string,
  text: Uint8Array,
  env: Record<string, string>,
): Promise<boolean> {
  const making = `${root}/deno_dir.making`;
  await Deno.writeFile(`${seed.bundle}.part`, text);
  await Deno.rename(`${seed.bundle}.part`, seed.bundle);
  const hit = `${CODE_CACHE_HIT}${new URL(`file://${seed.bundle}`).href}`;
  for (let run = 0; run < SEED_RUNS; run++) {
    const result = await new Deno.Command(denoPath, {
      args: ["run", "--log-level=debug", "-A", "--no-config", seed.bundle, "helper", "version"],
      env: { ...env, DENO_DIR: making, DENO_NO_UPDATE_CHECK: "1" },
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).output();
    if (!result.success) return false;
    if (new TextDecoder().decode(result.stderr).includes(hit)) {
      await Deno.rename(making, seed.denoDir);
      return true;
    }
  }
  return false;
}

/** Remove `root` when it has no seed and nobody touched it for {@linkcode ABANDONED_MS}. */
async function removeAbandoned(root: string): Promise<void> {
  try {
    const info = await Deno.stat(root);
    if (Date.now() - (info.mtime?.getTime() ?? 0) > ABANDONED_MS) {
      await Deno.remove(root, { recursive: true });
    }
  } catch {
    // not there, or removed by another process
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}
