/**
 * The gate on a run's final patch, of either strategy: the invariant check
 * against the files as the run found them (the run's baseline tree, or
 * `HEAD`) in the task's environment (the working tree already holds the
 * change), recorded as `info.gate`.
 *
 * @module
 */

import type { Environment } from "../env/mod.ts";
import { shellQuote } from "../env/shell_quote.ts";
import { checkInvariants, type GatePolicy, type InvariantReport } from "../../engine/gate/mod.ts";

/** What the trajectory records: the report, or why the check could not run. */
export type FinalGateRecord = InvariantReport | { skipped: string; policy: GatePolicy; refused: false };

/** Most bytes of one original file read back (SWE-bench files are far smaller). */
const MAX_FILE = 64 * 1024 * 1024;

/** Options of {@linkcode gateFinalPatch}. */
export interface FinalGateOptions {
  policy: GatePolicy;
  /** The tree-ish the original files are read from (the run's baseline tree); `HEAD` by default. */
  base?: string;
}

/** Check `patch` against the original files in `env` under `options.policy`. */
export async function gateFinalPatch(
  env: Environment,
  patch: string,
  options: FinalGateOptions,
): Promise<FinalGateRecord> {
  const { policy } = options;
  const base = options.base ?? "HEAD";
  if (patch.trim() === "") return { skipped: "no patch was submitted", policy, refused: false };
  if (base === "HEAD") {
    const head = await env.execute("git rev-parse --verify -q HEAD", { timeout: 60 });
    if (head.returncode !== 0) {
      return {
        skipped: "no git HEAD in the environment to read the original files from",
        policy,
        refused: false,
      };
    }
  }
  return await checkInvariants(patch, {
    policy,
    readFile: async (path) => {
      const shown = await env.execute(`git show ${shellQuote(`${base}:${path}`)}`, {
        timeout: 60,
        outputLimit: MAX_FILE,
      });
      return shown.returncode === 0 ? shown.output : null;
    },
  });
}
