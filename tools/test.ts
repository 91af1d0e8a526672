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
 * @module
 */

const SKIP_LOG_ENV = "GRAPHPLAN_SKIP_LOG";
const QUICK_ENV = "GRAPHPLAN_QUICK";

/** The test folders of the quick tier: everything but `tests/e2e` (podman, Slurm) and `tests/bundle`. */
export const QUICK_FOLDERS = ["tests/engine", "tests/agent", "tests/cli", "tests/tools", "tests/grammars"];

/**
 * The `deno test` arguments and extra environment for the runner's own
 * arguments: `--quick` picks the quick folders (unless a path is given) and
 * sets `GRAPHPLAN_QUICK=1`; anything else passes through unchanged.
 */
export function testInvocation(args: readonly string[]): { args: string[]; env: Record<string, string> } {
  if (args[0] !== "--quick") return { args: [...args], env: {} };
  const rest = args.slice(1);
  const hasPath = rest.some((arg) => !arg.startsWith("-"));
  return { args: hasPath ? rest : [...rest, ...QUICK_FOLDERS], env: { [QUICK_ENV]: "1" } };
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

/** Reasons per test file, from the skip log (one JSON line `{file, reason}` each). */
export function reasonsByFile(log: string): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const line of log.split("\n")) {
    if (line.trim() === "") continue;
    try {
      const { file, reason } = JSON.parse(line);
      if (typeof file !== "string" || typeof reason !== "string") continue;
      if (!out.has(file)) out.set(file, new Set());
      out.get(file)!.add(reason);
    } catch { /* a torn line: the group falls back to "no reason recorded" */ }
  }
  return out;
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
  const junit = `${dir}/junit.xml`;
  const log = `${dir}/skips.jsonl`;
  const invocation = testInvocation(args);
  try {
    const child = new Deno.Command(Deno.execPath(), {
      args: ["test", "-A", "--parallel", `--junit-path=${junit}`, ...invocation.args],
      env: { [SKIP_LOG_ENV]: log, ...invocation.env },
      stdin: "inherit",
      stdout: "inherit",
      stderr: "inherit",
    }).spawn();
    const { code } = await child.status;
    const lines = skipSummary(skippedByFile(await readOr(junit, "")), reasonsByFile(await readOr(log, "")));
    console.log(lines.length > 0 ? lines.join("\n") : "no tests were skipped");
    return code;
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) Deno.exit(await runTests(Deno.args));
