/**
 * Work limits: how much one request may ask of the engine. A plan, a query
 * or a request line over a limit is refused with an issue that names the
 * limit and the key that raises it, before the work starts where that can
 * be known in advance (expansion, sizes), or when the work budget runs out
 * (time).
 *
 * The limits are process-wide: the entry point (a CLI command, `helper
 * --serve`) sets them once from its options with `configureLimits`, and the
 * engine reads them with `limits()`. One helper process serves one request
 * at a time, so a process-wide value is what every request sees.
 *
 * Keys (`--limit KEY=VALUE` on the commands that run the engine, and
 * `environment.helper_limits` in config/graphplan.yaml, which the
 * orchestrator passes to the helper the same way):
 *
 * | key                   | default    | what it bounds                                          |
 * |-----------------------|------------|---------------------------------------------------------|
 * | `max_expanded_steps`  | 10,000     | primitive steps of a plan, composed operators expanded  |
 * | `max_nesting_depth`   | 16         | composed operators calling composed operators           |
 * | `max_param_bytes`     | 250,000    | characters of one step's parameters after substitution  |
 * | `max_file_bytes`      | 10,000,000 | bytes of a source file the engine parses                |
 * | `max_request_bytes`   | 16,777,216 | bytes of one helper request (line or stdin)             |
 * | `query_match_limit`   | 10,000     | tree-sitter in-progress matches of one query            |
 * | `max_captures`        | 100,000    | captures one query may return                           |
 * | `max_issues_per_code` | 100        | issues of one code in a report (the rest summarised)    |
 * | `timeout`             | 60         | seconds of work per request or CLI command (0: none)    |
 *
 * @module
 */

import { error, type Issue, IssueError } from "./issue.ts";
import type { IssueCode } from "./issue_codes.ts";

/** Every limit, by its key. */
export interface Limits {
  max_expanded_steps: number;
  max_nesting_depth: number;
  max_param_bytes: number;
  max_file_bytes: number;
  max_request_bytes: number;
  query_match_limit: number;
  max_captures: number;
  max_issues_per_code: number;
  /** Seconds; 0 means no time budget. */
  timeout: number;
}

/** The defaults (see the module notes). */
export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({
  max_expanded_steps: 10_000,
  max_nesting_depth: 16,
  max_param_bytes: 250_000,
  max_file_bytes: 10_000_000,
  max_request_bytes: 16 * 1024 * 1024,
  query_match_limit: 10_000,
  max_captures: 100_000,
  max_issues_per_code: 100,
  timeout: 60,
});

let current: Limits = { ...DEFAULT_LIMITS };

/** The limits in force. */
export function limits(): Readonly<Limits> {
  return current;
}

/** Replace the limits in force by the defaults with `overrides` applied; returns the previous ones. */
export function configureLimits(overrides: Partial<Limits> = {}): Limits {
  const previous = current;
  current = { ...DEFAULT_LIMITS, ...overrides };
  return previous;
}

/** Restore limits returned by `configureLimits` (tests). */
export function restoreLimits(saved: Limits): void {
  current = saved;
}

/** How a limit is raised: `--limit KEY=N` on the CLI, `environment.helper_limits.KEY` in the config. */
export function limitKeyHint(key: keyof Limits): string {
  return key === "timeout"
    ? "raise it with --timeout SECONDS (CLI), params.timeout (helper) or environment.helper_limits.timeout in the configuration"
    : `raise it with --limit ${key}=N (CLI), or environment.helper_limits.${key} in the configuration`;
}

/**
 * Parse `KEY=VALUE` overrides (the `--limit` option). Throws an
 * `IssueError` (`limit-invalid`) naming the bad entry.
 */
export function parseLimitOverrides(entries: readonly string[]): Partial<Limits> {
  const out: Partial<Limits> = {};
  for (const entry of entries) {
    const eq = entry.indexOf("=");
    const key = (eq === -1 ? entry : entry.slice(0, eq)).trim();
    const value = Number(eq === -1 ? "" : entry.slice(eq + 1).trim());
    if (!Object.hasOwn(DEFAULT_LIMITS, key)) {
      throw new IssueError(error("limit-invalid", `Unknown limit "${key}"`, {
        hint: `limits: ${Object.keys(DEFAULT_LIMITS).join(", ")}`,
      }));
    }
    if (
      eq === -1 || !Number.isFinite(value) || value < 0 || (key !== "timeout" && !Number.isInteger(value))
    ) {
      throw new IssueError(
        error("limit-invalid", `Invalid value for limit "${key}": "${entry.slice(eq + 1)}"`, {
          hint: `give a non-negative ${key === "timeout" ? "number of seconds" : "integer"}, e.g. ${key}=${
            DEFAULT_LIMITS[key as keyof Limits]
          }`,
        }),
      );
    }
    out[key as keyof Limits] = value;
  }
  return out;
}

/** The issue for a limit a request went over. */
export function overLimit(
  code: IssueCode,
  key: keyof Limits,
  message: string,
  details: Omit<Issue, "code" | "severity" | "message" | "hint"> & { hint?: string } = {},
): Issue {
  const raise = limitKeyHint(key);
  return error(code, message, { ...details, hint: details.hint ? `${details.hint}; ${raise}` : raise });
}
