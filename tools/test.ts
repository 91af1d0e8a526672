/**
 * `deno task test`: `deno test -A --parallel` (arguments passed on), then
 * one line per group of skipped tests saying how many and why, as the very
 * last output: `skipped 163 tests: ../shared/corpus not found (...)`.
 *
 * Deno's test runner has no hook that runs after the last test file, so
 * this wrapper runs it as a child process and reads two records afterwards:
 * the JUnit report (`--junit-path`), which says how many tests of each file
 * were skipped, and the skip log the test files' skip helpers append their
 * reasons to (`tests/_support/skips.ts`, named by `GRAPHPLAN_SKIP_LOG`).
 * Files with skipped tests and the same reasons form one group; a file that
 * skipped tests without recording why forms the group "no reason recorded".
 * A run that skipped nothing ends with "no tests were skipped".
 * The exit code is the test run's.
 *
 * `deno task test:quick` (`--quick`) is the fast tier: the unit tests
 * without the slow outside world. It runs only the folders in
 * `QUICK_FOLDERS` (not `tests/e2e`, which starts podman and Slurm, nor
 * `tests/bundle`, which builds the bundle) unless paths are given, and sets
 * `GRAPHPLAN_QUICK=1`, which makes the corpus sweeps, the Chromium tests
 * and the tests marked slow (they start the CLI, a helper, pytest, podman,
 * the bundle or a compiler) skip with the reason "quick tier"
 * (`tests/_support/quick.ts`, the rule in `tests/README.md`).
 *
 * **Shared isolates.** Most of a quick test file's cost was not its tests
 * but its start: every file ran in a fresh isolate that loaded the engine
 * again (about 0.3 s of CPU each, 240 files). So the quick tier loads its
 * test files into a few shard modules ({@link shardModules}, two per core),
 * each one isolate that imports its files in turn, as Vitest's
 * `--no-isolate` does: the engine is loaded once per shard. The shards are
 * written outside the repository (`$TMPDIR/graphplan-quick-*`, see
 * {@link writeShards}), where a plain `deno test` does not find them. Deno still
 * names every test by the file that registered it (failures, the JUnit
 * report). What a file changes at module level is seen by the files after
 * it in the same shard, so a test must not depend on a fresh module state;
 * `--isolate` runs the quick tier one isolate per file as before, to tell
 * whether a failure is such a leak. The full run keeps one isolate per file.
 *
 * In a shard, `Deno.mainModule` is the shard, and a support module that
 * records a skip reason when it is first evaluated (`_support/python.ts`)
 * does so once for all its importers. So each log line also names the
 * module that recorded it, and the reasons of a test file are those
 * recorded by the modules it imports, directly or not, read from
 * `deno info --json` ({@link reasonsByImports}): the same reasons a file
 * gets in an isolate of its own, where every module it imports is evaluated
 * for it.
 *
 * @module
 */

const SKIP_LOG_ENV = "GRAPHPLAN_SKIP_LOG";
const QUICK_ENV = "GRAPHPLAN_QUICK";

/** The test folders of the quick tier: everything but `tests/e2e` (podman, Slurm) and `tests/bundle`. */
export const QUICK_FOLDERS = ["tests/engine", "tests/agent", "tests/cli", "tests/tools", "tests/grammars"];

/** How `deno test` is run for the runner's arguments. */
export interface TestInvocation {
  /** `deno test` flags: every argument that is not an existing path nor the runner's own. */
  flags: string[];
  /** The files and folders to test; empty leaves the choice to `deno test` (the whole project). */
  paths: string[];
  /** Extra environment of the run. */
  env: Record<string, string>;
  /** How many shard isolates the test files share; 0 runs each file in its own (the full run). */
  shards: number;
}

/**
 * The invocation for the runner's arguments: `--quick` picks the quick
 * folders (unless a path is given), sets `GRAPHPLAN_QUICK=1` and loads the
 * files into two shards per core (`--shards=N` sets how many, `--isolate`
 * gives every file its own isolate); anything else passes to `deno test`
 * unchanged. An argument is a path when it names an existing file or
 * folder, so `--filter name` stays a flag with its value.
 */
export function testInvocation(
  args: readonly string[],
  cores = navigator.hardwareConcurrency,
): TestInvocation {
  const quick = args[0] === "--quick";
  let shards = quick ? 2 * cores : 0;
  const rest: string[] = [];
  for (const arg of quick ? args.slice(1) : args) {
    const count = quick ? /^--shards=(\d+)$/.exec(arg) : null;
    if (quick && arg === "--isolate") shards = 0;
    else if (count) shards = Number(count[1]);
    else rest.push(arg);
  }
  const paths = rest.filter((arg) => !arg.startsWith("-") && exists(arg));
  return {
    flags: rest.filter((arg) => !paths.includes(arg)),
    paths: quick && paths.length === 0 ? [...QUICK_FOLDERS] : paths,
    env: quick ? { [QUICK_ENV]: "1" } : {},
    shards,
  };
}

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Deno's test-file names: `test.ts`, `*_test.ts`, `*.test.ts` (and the other script extensions). */
const TEST_FILE = /^(?:.*[._])?test\.(?:ts|tsx|mts|js|mjs|jsx)$/;

/**
 * The test files `deno test` would find under `paths`, sorted: a file named
 * explicitly is taken whatever its name; folders are walked for test-file
 * names, leaving out hidden folders, `node_modules` and the `excluded` path
 * prefixes (deno.json's `exclude`, relative like the paths).
 */
export function testFiles(paths: readonly string[], excluded: readonly string[] = []): string[] {
  const out = new Set<string>();
  const skip = (path: string) =>
    excluded.some((prefix) => `${path}/`.startsWith(prefix.endsWith("/") ? prefix : `${prefix}/`));
  const walk = (dir: string) => {
    for (const entry of Deno.readDirSync(dir)) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory) {
        if (!entry.name.startsWith(".") && entry.name !== "node_modules" && !skip(path)) walk(path);
      } else if (TEST_FILE.test(entry.name) && !skip(path)) out.add(path);
    }
  };
  for (const path of paths) {
    const clean = path.replace(/\/+$/, "");
    if (Deno.statSync(clean).isDirectory) walk(clean);
    else out.add(clean);
  }
  return [...out].sort();
}

/**
 * The shard modules for `files`: at most `count` module texts, each
 * importing its share of the files (dealt in turn, so neighbouring files,
 * often alike in cost, land in different shards) by absolute URL, so the
 * module can live anywhere.
 */
export function shardModules(files: readonly string[], count: number): string[] {
  const shards: string[][] = Array.from({ length: Math.max(1, Math.min(count, files.length)) }, () => []);
  files.forEach((file, k) => shards[k % shards.length].push(file));
  return shards.map((share) =>
    "// The quick tier's shard (tools/test.ts): these test files share one isolate.\n" +
    share.map((file) => `import ${JSON.stringify(toFileUrl(file))};\n`).join("")
  );
}

function toFileUrl(path: string, cwd = Deno.cwd()): string {
  const absolute = path.startsWith("/") ? path : `${cwd}/${path}`;
  return new URL(`file://${absolute.split("/").map(encodeURIComponent).join("/")}`).href;
}

/** Skipped tests per test file, from a JUnit report of `deno test`. */
export function skippedByFile(junit: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const suite of junit.matchAll(/<testsuite\s+name="([^"]*)"[^>]*>([\s\S]*?)<\/testsuite>/g)) {
    const skipped = (suite[2].match(/<skipped\s*\/>|<skipped>/g) ?? []).length;
    if (skipped > 0) out.set(unescapeXml(suite[1]), (out.get(unescapeXml(suite[1])) ?? 0) + skipped);
  }
  return out;
}

/**
 * Reasons per test file, from the skip log (one JSON line `{file, module,
 * reason}` each), keyed by `key`: the running test file, or the module that
 * recorded the reason. A file URL is named as `deno test` names the module
 * (relative to `cwd`).
 */
export function reasonsByFile(
  log: string,
  key: "file" | "module" = "file",
  cwd = Deno.cwd(),
): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const line of log.split("\n")) {
    if (line.trim() === "") continue;
    try {
      const { [key]: logged, reason } = JSON.parse(line);
      if (typeof logged !== "string" || typeof reason !== "string") continue;
      const file = key === "file" && logged.startsWith("file://") ? displayName(logged, cwd) : logged;
      if (!out.has(file)) out.set(file, new Set());
      out.get(file)!.add(reason);
    } catch { /* a torn line: the group falls back to "no reason recorded" */ }
  }
  return out;
}

/** What `deno info --json` says of a module graph, as far as the runner reads it. */
export interface ModuleGraph {
  modules: { specifier: string; dependencies?: { code?: { specifier: string } }[] }[];
}

/**
 * Reasons per test file when test files share isolates: a log line's
 * reason belongs to every test file among `files` that imports the module
 * that recorded it (`module`, a URL), directly or through others, or is
 * that module. The files are keyed as `deno test` names them. Only code imports count (a type-only import
 * evaluates nothing).
 */
export function reasonsByImports(
  log: string,
  graph: ModuleGraph,
  files: readonly string[],
  cwd = Deno.cwd(),
): Map<string, Set<string>> {
  const byModule = reasonsByFile(log, "module");
  const deps = new Map<string, string[]>();
  for (const module of graph.modules) {
    deps.set(
      module.specifier,
      (module.dependencies ?? []).flatMap((dep) => dep.code ? [dep.code.specifier] : []),
    );
  }
  const out = new Map<string, Set<string>>();
  for (const file of files) {
    const reasons = new Set<string>();
    const seen = new Set<string>();
    const stack = [toFileUrl(file, cwd)];
    while (stack.length > 0) {
      const url = stack.pop()!;
      if (seen.has(url)) continue;
      seen.add(url);
      for (const reason of byModule.get(url) ?? []) reasons.add(reason);
      stack.push(...(deps.get(url) ?? []));
    }
    if (reasons.size > 0) out.set(displayName(toFileUrl(file, cwd), cwd), reasons);
  }
  return out;
}

/** A file URL as `deno test` names its module: the path from the working directory, `./` inside it. */
function displayName(url: string, cwd: string): string {
  const from = cwd.split("/").filter(Boolean);
  const to = decodeURIComponent(new URL(url).pathname).split("/").filter(Boolean);
  let common = 0;
  while (common < from.length && common < to.length - 1 && from[common] === to[common]) common++;
  const up = from.length - common;
  return (up === 0 ? "./" : "../".repeat(up)) + to.slice(common).join("/");
}

/** One summary line per group of files with the same reasons, most skipped tests first. */
export function skipSummary(skipped: Map<string, number>, reasons: Map<string, Set<string>>): string[] {
  const groups = new Map<string, { tests: number; files: number }>();
  for (const [file, count] of skipped) {
    const why = [...(reasons.get(file) ?? [])].sort().join("; ") ||
      "no reason recorded (ignored in the file)";
    const group = groups.get(why) ?? { tests: 0, files: 0 };
    group.tests += count;
    group.files += 1;
    groups.set(why, group);
  }
  return [...groups].sort((a, b) => b[1].tests - a[1].tests || (a[0] < b[0] ? -1 : 1)).map(([why, group]) =>
    `skipped ${group.tests} test${group.tests === 1 ? "" : "s"}: ${why} (${group.files} file${
      group.files === 1 ? "" : "s"
    })`
  );
}

function unescapeXml(text: string): string {
  return text.replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

async function readOr(path: string, fallback: string): Promise<string> {
  try {
    return await Deno.readTextFile(path);
  } catch {
    return fallback;
  }
}

/** Run the tests with `args`, print the skip summary, return the test run's exit code. */
export async function runTests(args: string[]): Promise<number> {
  const dir = await Deno.makeTempDir({ prefix: "graphplan-test-run-" });
  const log = `${dir}/skips.jsonl`;
  const invocation = testInvocation(args);
  const ownJunit = invocation.flags.find((flag) => flag.startsWith("--junit-path="));
  const junit = ownJunit?.slice("--junit-path=".length) ?? `${dir}/junit.xml`;
  try {
    const shared = invocation.shards > 0;
    const files = shared ? testFiles(invocation.paths, configExcludes()) : [];
    const shards = shared ? await writeShards(shardModules(files, invocation.shards)) : [];
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "test",
        "-A",
        "--parallel",
        ...(ownJunit ? [] : [`--junit-path=${junit}`]),
        ...invocation.flags,
        ...(shared ? shards : invocation.paths),
      ],
      env: { [SKIP_LOG_ENV]: log, ...invocation.env },
      stdin: "inherit",
      stdout: "inherit",
      stderr: "inherit",
    }).spawn();
    const { code } = await child.status;
    const logText = await readOr(log, "");
    const reasons = shared
      ? reasonsByImports(logText, await moduleGraph(shards, dir), files)
      : reasonsByFile(logText);
    const lines = skipSummary(skippedByFile(await readOr(junit, "")), reasons);
    console.log(lines.length > 0 ? lines.join("\n") : "no tests were skipped");
    return code;
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

/**
 * Write the shard modules where the next run with the same files finds them
 * again: `deno test` type-checks its roots anew when their paths are new
 * (12 s here, against 0.1 s when the check is cached), so the folder is
 * fixed per checkout and a shard's name carries a hash of its text. The
 * files stay as the check's cache; ones unused for a week are removed. A
 * write goes through a temporary file and a rename, so a run beside this
 * one never reads half a shard.
 */
async function writeShards(modules: readonly string[]): Promise<string[]> {
  const dir = `${Deno.env.get("TMPDIR") || "/tmp"}/graphplan-quick-${fnv1a(Deno.cwd())}`;
  await Deno.mkdir(dir, { recursive: true });
  const paths = modules.map((text, k) => `${dir}/quick_${k + 1}_${fnv1a(text)}_test.ts`);
  const weekAgo = Date.now() - 7 * 24 * 3600 * 1000;
  for (const entry of Deno.readDirSync(dir)) {
    const path = `${dir}/${entry.name}`;
    if (!paths.includes(path) && (Deno.statSync(path).mtime?.getTime() ?? 0) < weekAgo) {
      await Deno.remove(path).catch(() => {});
    }
  }
  for (const [k, path] of paths.entries()) {
    try {
      await Deno.utime(path, new Date(), new Date());
    } catch {
      const temporary = `${path}.${crypto.randomUUID()}.tmp`;
      await Deno.writeTextFile(temporary, modules[k]);
      await Deno.rename(temporary, path);
    }
  }
  return paths;
}

/** The 32-bit FNV-1a hash of `text`, as 8 hex digits: a short stable name, not a security measure. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash.toString(16).padStart(8, "0");
}

/** deno.json's `exclude`, read from the working directory (where `deno task` runs). */
function configExcludes(): string[] {
  try {
    const config = JSON.parse(Deno.readTextFileSync("deno.json"));
    return Array.isArray(config.exclude) ? config.exclude.filter((e: unknown) => typeof e === "string") : [];
  } catch {
    return [];
  }
}

/**
 * The module graph of `roots` from `deno info --json`, which reads one root,
 * through a module in `dir` importing them all (empty when it cannot be
 * read: no reasons then).
 */
async function moduleGraph(roots: readonly string[], dir: string): Promise<ModuleGraph> {
  if (roots.length === 0) return { modules: [] };
  const all = `${dir}/all_shards.ts`;
  await Deno.writeTextFile(all, roots.map((root) => `import ${JSON.stringify(toFileUrl(root))};\n`).join(""));
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", all],
    stdout: "piped",
    stderr: "null",
  }).output();
  try {
    return out.success ? JSON.parse(new TextDecoder().decode(out.stdout)) : { modules: [] };
  } catch {
    return { modules: [] };
  }
}

if (import.meta.main) Deno.exit(await runTests(Deno.args));
