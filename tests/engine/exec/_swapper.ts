/**
 * Subprocess for the race trials: swaps a repository directory for a
 * symlink to an outside folder and back, as fast as it can, until killed.
 *
 * Usage: deno run -A _swapper.ts DIR OUTSIDE
 *
 * Prints `graphplan-test: swapping` on stderr when the loop starts. After a
 * kill, `DIR` may be missing or a symlink with the real folder at
 * `DIR.real`: the trial puts it back (see `restoreSwapped`).
 *
 * @module
 */

const [dir, outside] = Deno.args;
await Deno.stderr.write(new TextEncoder().encode("graphplan-test: swapping\n"));
const spin = (n: number) => {
  for (let i = 0; i < n; i++) Math.sqrt(i);
};
const pause = new Int32Array(new SharedArrayBuffer(4));
for (let round = 0;; round++) {
  Deno.renameSync(dir, `${dir}.real`);
  Deno.symlinkSync(outside, dir);
  spin(2_000 + (round % 7) * 500);
  Deno.removeSync(dir);
  Deno.renameSync(`${dir}.real`, dir);
  // Mostly unswapped (1-13 ms), so applies get through and the race is at their edges.
  Atomics.wait(pause, 0, 0, 1 + (round % 13));
}
