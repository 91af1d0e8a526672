/**
 * The options that bound the engine's work, shared by the commands that run
 * it (`graph`, `locate`, `verify`, `apply`, `helper`): `--timeout SECONDS`
 * (the work budget) and `--limit KEY=VALUE` (any key of engine/base/limits.ts).
 *
 * @module
 */

import type { OptionSpec, ParsedArgs } from "./command.ts";
import { UsageError } from "./command.ts";
import { withBudget } from "../engine/base/budget.ts";
import { configureLimits, DEFAULT_LIMITS, parseLimitOverrides } from "../engine/base/limits.ts";

/** The option declarations. */
export const BOUND_OPTIONS: OptionSpec = {
  timeout: { type: "string" },
  limit: { type: "string", multiple: true },
};

/** The lines of `--help` that describe them. */
export const BOUND_HELP =
  `  --timeout SECONDS  work budget of the command (default ${DEFAULT_LIMITS.timeout}; 0: none); when it
                     runs out the command ends with "budget-exceeded" and writes nothing
  --limit KEY=N      change a limit (repeatable): max_expanded_steps (${DEFAULT_LIMITS.max_expanded_steps}),
                     max_nesting_depth (${DEFAULT_LIMITS.max_nesting_depth}), max_param_bytes (${DEFAULT_LIMITS.max_param_bytes}),
                     max_file_bytes (${DEFAULT_LIMITS.max_file_bytes}), max_request_bytes (${DEFAULT_LIMITS.max_request_bytes}),
                     query_match_limit (${DEFAULT_LIMITS.query_match_limit}), max_captures (${DEFAULT_LIMITS.max_captures}),
                     max_issues_per_code (${DEFAULT_LIMITS.max_issues_per_code})`;

/**
 * Set the process's limits from `--limit` and `--timeout` (a usage error
 * when one is malformed).
 */
export function configureBounds(args: ParsedArgs): void {
  const given = args.values.limit;
  const entries = Array.isArray(given) ? given.map(String) : typeof given === "string" ? [given] : [];
  const overrides = (() => {
    try {
      return parseLimitOverrides(entries);
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
  })();
  const timeout = args.values.timeout;
  if (typeof timeout === "string") {
    const seconds = Number(timeout);
    if (timeout.trim() === "" || !Number.isFinite(seconds) || seconds < 0) {
      throw new UsageError(`Invalid --timeout "${timeout}": give a number of seconds (0: no budget)`);
    }
    overrides.timeout = seconds;
  }
  configureLimits(overrides);
}

/** Configure the bounds from `args`, then run `body` within the work budget. */
export async function withBounds<T>(args: ParsedArgs, body: () => Promise<T>): Promise<T> {
  configureBounds(args);
  return await withBudget(undefined, body);
}
