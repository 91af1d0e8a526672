/**
 * The quick tier (`deno task test:quick`, `tools/test.ts --quick`): with
 * `GRAPHPLAN_QUICK=1` the tests that sweep the corpus, drive Chromium or
 * start slow processes skip, each file saying so once through the skip
 * registry, so the unit tests run in about a minute.
 *
 * The rule for a test author: a test in `tests/engine`, `tests/agent`,
 * `tests/cli`, `tests/tools` or `tests/grammars` that starts podman, pytest,
 * the `graphplan` CLI (`runCli`, `spawnCli`, `deno run main.ts`), another
 * `deno` or the bundle, or runs a compiler (javac, gcc, go, tsc), is marked
 * slow:
 *
 * ```ts
 * const SLOW = slow("tests that start processes (the CLI, a helper, pytest, podman, the bundle)");
 * Deno.test("cli: ...", SLOW, async () => { ... });
 * Deno.test({ name: "...", ignore: PYTEST_SKIP !== undefined || SLOW.ignore, fn });
 * ```
 *
 * A test that waits on real timers for seconds (a TERM then KILL 5 s
 * later, a stall watch's probes) is marked the same way with its own
 * reason, unless the wait can be injected. A full run (`deno task test`)
 * runs it as before. Short oracles (CPython's
 * `ast`, `node --check`, `git`) stay in the quick tier. The corpus and
 * Chromium helpers (`corpus.ts`, `chromium.ts`) apply the same tier through
 * `quickSkip`. `tests/tools/quick_tier_test.ts` reads the quick folders'
 * sources and fails on a file that starts podman, pytest, the CLI, `deno`
 * or the bundle without using `slow` (compilers, started by the engine,
 * are marked by hand).
 *
 * @module
 */

import { skipReason } from "./skips.ts";

/** Whether this run is the quick tier. */
export const QUICK = Deno.env.get("GRAPHPLAN_QUICK") === "1";

/** The skip reason for `what` in the quick tier, or undefined in a full run. */
export function quickSkip(what: string): string | undefined {
  return QUICK ? `quick tier (GRAPHPLAN_QUICK=1): ${what} not run; "deno task test" runs them` : undefined;
}

/**
 * The slow marker: test options that skip, in the quick tier, the tests
 * that start slow processes (`what` names them, e.g. "CLI subprocesses"),
 * with the reason recorded for the run's skip summary; in a full run the
 * test runs. Pass it as `Deno.test(name, SLOW, fn)`, or use its `ignore` in
 * an options object that has one already.
 */
export function slow(what: string): { ignore: boolean } {
  return { ignore: skipReason(quickSkip(what)) !== undefined };
}
