/**
 * The skip registry: a test file whose tests skip because something is
 * missing (the corpus at `../shared/corpus`, python3, git, node, podman)
 * records why, so the end of `deno task test` can say in one line per
 * group how many tests were skipped and why (`tools/test.ts`).
 *
 * Test files run in separate workers, so the record is a shared log file:
 * `tools/test.ts` names it in `GRAPHPLAN_SKIP_LOG`, and each reason is
 * appended as one JSON line `{file, module, reason}`: the URL of the test
 * file that is running (`Deno.mainModule`) and the URL of the module that recorded the
 * reason (the first caller outside this file and `quick.ts`, from the stack). The quick
 * tier loads many test files into one isolate, where `file` is the shard
 * and a support module records its reason once for all its importers, so
 * the runner reads `module` there. Without the variable (a plain `deno
 * test`), the reason is printed once instead.
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
  if (!reason) return reason;
  const module = callerModule();
  if (recorded.has(`${module}\n${reason}`)) return reason;
  recorded.add(`${module}\n${reason}`);
  const log = Deno.env.get(SKIP_LOG_ENV);
  const file = testFile();
  if (!log) {
    console.error(`${file}: tests skip: ${reason}`);
    return reason;
  }
  try {
    Deno.writeTextFileSync(log, JSON.stringify({ file: Deno.mainModule, module, reason }) + "\n", {
      append: true,
    });
  } catch (err) {
    console.error(`${file}: tests skip: ${reason} (not recorded: ${(err as Error).message})`);
  }
  return reason;
}

const ROOT = new URL("../../", import.meta.url).href;

/** A module URL relative to the repository root as the test runner names it (`./tests/...`). */
function relative(url: string): string {
  return url.startsWith(ROOT) ? `./${decodeURI(url.slice(ROOT.length))}` : url;
}

/** The running test file (the shard, in the quick tier's shared isolates). */
function testFile(): string {
  return relative(Deno.mainModule);
}

/** The URL of the module that asked to record a reason: the first frame outside the skip helpers. */
function callerModule(): string {
  for (const [, url] of (new Error().stack ?? "").matchAll(/(file:\/\/[^\s()]+?):\d+:\d+/g)) {
    if (!url.endsWith("/_support/skips.ts") && !url.endsWith("/_support/quick.ts")) return url;
  }
  return Deno.mainModule;
}
