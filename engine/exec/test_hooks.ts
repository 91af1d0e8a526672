/**
 * Test-only fault injection for the crash tests: makes the executor stop
 * dead at a chosen point of its N-th file write so a test can `kill -9` it
 * there and check that `rollback` restores every byte. Never set these in
 * real use.
 *
 * - `GRAPHPLAN_TEST_PAUSE_AFTER_WRITE=N`: pause at the N-th file write
 *   (1-based, counted per process).
 * - `GRAPHPLAN_TEST_PAUSE_STAGE=journal|temp|rename` (default `rename`):
 *   pause after the write's journal record is durable (the file untouched),
 *   after the temporary file is complete (the file untouched, a temporary file
 *   beside it), or after the rename (the file replaced).
 *
 * - `GRAPHPLAN_TEST_PAUSE_MS=MS`: pause that long instead of an hour, then go
 *   on (a test interrupts the orchestrator while its helper is mid-plan).
 * - `GRAPHPLAN_TEST_PAUSE_MARKER=FILE`: create FILE when the pause starts (a
 *   helper's stderr is not the test's to read).
 *
 * When pausing, the process prints `graphplan-test: paused at write N (STAGE)`
 * on stderr and sleeps for an hour (or `GRAPHPLAN_TEST_PAUSE_MS`).
 *
 * @module
 */

/** Points of a file write where a test can pause the executor. */
export type PauseStage = "journal" | "temp" | "rename";

let writes = 0;

function env(name: string): string | undefined {
  try {
    return Deno.env.get(name);
  } catch {
    return undefined;
  }
}

/** Count one more file write; returns its 1-based number. */
export function countWrite(): number {
  return ++writes;
}

/**
 * Pause forever-ish if the test hook asks for `stage` of write `n`. The
 * pause blocks the whole process (no other code runs meanwhile), as a
 * process stopped at that instruction would be.
 */
export function maybePause(n: number, stage: PauseStage): void {
  const target = Number(env("GRAPHPLAN_TEST_PAUSE_AFTER_WRITE"));
  if (!Number.isInteger(target) || target !== n) return;
  if ((env("GRAPHPLAN_TEST_PAUSE_STAGE") || "rename") !== stage) return;
  Deno.stderr.writeSync(new TextEncoder().encode(`graphplan-test: paused at write ${n} (${stage})\n`));
  const marker = env("GRAPHPLAN_TEST_PAUSE_MARKER");
  if (marker) Deno.writeTextFileSync(marker, `${Deno.pid}\n`);
  const ms = Number(env("GRAPHPLAN_TEST_PAUSE_MS") || 3_600_000);
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

let throwAfterStep: number | undefined;

/**
 * Make the executor throw a `RangeError` (as a step that overflows the
 * stack or an array would) once step `step` (0-based) has written its
 * files; `undefined` turns it off. Subprocesses read
 * `GRAPHPLAN_TEST_THROW_AFTER_STEP` instead.
 */
export function setThrowAfterStep(step: number | undefined): void {
  throwAfterStep = step;
}

/** Throw if the test hook asks for it after step `step`. */
export function maybeThrow(step: number): void {
  const fromEnv = env("GRAPHPLAN_TEST_THROW_AFTER_STEP");
  const target = throwAfterStep ?? (fromEnv ? Number(fromEnv) : undefined);
  if (target === step) throw new RangeError(`graphplan-test: injected failure after step ${step}`);
}
