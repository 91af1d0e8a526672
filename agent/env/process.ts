/**
 * Host processes for the environments: the engine's
 * {@linkcode engineRunProcess} (own process group, killed as a whole on
 * timeout) with the group also killed on Ctrl-C, since a detached group does
 * not get the terminal's SIGINT.
 *
 * @module
 */

import { onInterrupt } from "./cleanup.ts";
import { killGroup, type RunOptions, runProcess as engineRunProcess } from "../../engine/helper/process.ts";
import type { ExecResult } from "./types.ts";

export { killGroup, type RunOptions };

/** Run `argv` and collect its interleaved stdout and stderr; Ctrl-C kills its group. */
export function runProcess(argv: string[], options: RunOptions = {}): Promise<ExecResult> {
  return engineRunProcess(argv, {
    ...options,
    onSpawn: (pgid) => onInterrupt(() => Promise.resolve(killGroup(pgid))),
  });
}
