/**
 * The skip registry: a test file whose tests skip because something is
 * missing (the corpus at `../shared/corpus`, python3, git, node, podman)
 * records why, so the end of `deno task test` can say in one line per
 * group how many tests were skipped and why (`tools/test.ts`).
 *
 * Test files run in separate workers, so the record is a shared log file:
 * `tools/test.ts` names it in `GRAPHPLAN_SKIP_LOG`, and each reason is
 * appended as one JSON line `{file, reason}` for the test file that is
 * running (`Deno.mainModule`). Without the variable (a plain `deno test`),
 * the reason is printed once instead.
 *
 * The skip helpers call `skipReason` when they compute their reason, so a
 * test file only imports them as before.
 *
 * @module
 */

/** The environment variable naming the log file. */
export const SKIP_LOG_ENV = "GRAPHPLAN_SKIP_LOG";

const recorded = new Set<string>();

/**
 * Record that tests of the running test file may skip for `reason` (when it
 * is defined and not empty); returns `reason` unchanged.
 */
export function skipReason<T extends string | undefined>(reason: T): T {
  if (!reason || recorded.has(reason)) return reason;
  recorded.add(reason);
  const log = Deno.env.get(SKIP_LOG_ENV);
  const file = testFile();
  if (!log) {
    console.error(`${file}: tests skip: ${reason}`);
    return reason;
  }
  try {
    Deno.writeTextFileSync(log, JSON.stringify({ file, reason }) + "\n", { append: true });
  } catch (err) {
    console.error(`${file}: tests skip: ${reason} (not recorded: ${(err as Error).message})`);
  }
  return reason;
}

/** The running test file, relative to the repository root as the test runner names it (`./tests/...`). */
function testFile(): string {
  const root = new URL("../../", import.meta.url).href;
  const main = Deno.mainModule;
  return main.startsWith(root) ? `./${main.slice(root.length)}` : main;
}
