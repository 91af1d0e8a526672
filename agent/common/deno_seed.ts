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
 * the dependency cache warm a start took about a third of the empty
 * start's time on the host at load 16 (0.7 s against 2.1 s), with both
 * caches about a sixth (0.35 s).
 *
 * Four facts shape how the cache reaches the container:
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
 *   (`cp -R` of ~0.4 MB, a few ms; a container without `cp` starts with an
 *   empty cache, as before). A podman overlay mount (`:O`) did as well but
 *   exists only in podman and fails the container's start where the runtime
 *   lacks it.
 * - Deno writes a module's code cache after the module was evaluated, and
 *   the bundle as the main module calls `Deno.exit` from its top level: it
 *   wrote the entry in some runs only, and never in others. So the seed is
 *   made by a module beside it that imports the bundle (evaluated to the
 *   end, since `import.meta.main` is false there), then checked: the
 *   helper's `version`, started as in the container, must find it (Deno's
 *   debug log says "V8 code cache hit" for the bundle).
 * - Deno leaves its SQLite files in write-ahead-log mode, the log beside
 *   them, when it exits. A copy taken while Deno runs can be inconsistent; a
 *   copy of a finished process's files is what SQLite sees after any crash
 *   and replays at the next open (on a writable copy). So the seed is made
 *   in a directory of its own by a helper that runs `version` and exits,
 *   and only then renamed into place: a container never copies half a cache.
 *
 * A compiled helper (`deno compile`, which cannot be built on the reference
 * machine) takes none of this: its module graph is analysed when it is built,
 * so the dependency parse, the larger part, is not paid at start at all, and
 * only V8's compile would remain; unmeasured here.
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

/** Tries at making the seed before the helper starts without one. */
const SEED_RUNS = 3;

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
 * needed (once per host; a process asks again after a null); null when it
 * cannot be made (`/tmp` not writable, the helper failing) or another
 * process is making it.
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
    // Only a made seed is kept: another process may finish one the next run can use.
    seed.then((made) => made ?? seeds.delete(key));
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
 * Write the bundle's copy, load it once as an import of a module beside it
 * (so it is evaluated to the end: as the main module it calls `Deno.exit`
 * from its top level, before Deno writes the code cache), and check with
 * its `helper version`, run as the container runs it, that Deno reports the
 * hit. Both steps with the cache being made; at most
 * {@linkcode SEED_RUNS} tries.
 */
async function fill(
  root: string,
  seed: DenoSeed,
  denoPath: string,
  text: Uint8Array,
  env: Record<string, string>,
): Promise<boolean> {
  const making = `${root}/deno_dir.making`;
  const loader = `${root}/load.js`;
  await Deno.writeFile(`${seed.bundle}.part`, text);
  await Deno.rename(`${seed.bundle}.part`, seed.bundle);
  await Deno.writeTextFile(
    loader,
    `await import(${JSON.stringify(new URL(`file://${seed.bundle}`).href)});\n`,
  );
  const hit = `${CODE_CACHE_HIT}${new URL(`file://${seed.bundle}`).href}`;
  const deno = (args: string[]) =>
    new Deno.Command(denoPath, {
      args: ["run", "--log-level=debug", "-A", "--no-config", ...args],
      env: { ...env, DENO_DIR: making, DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" },
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).output();
  for (let run = 0; run < SEED_RUNS; run++) {
    if (!(await deno([loader])).success) return false;
    const check = await deno([seed.bundle, "helper", "version"]);
    if (!check.success) return false;
    if (new TextDecoder().decode(check.stderr).includes(hit)) {
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
