/**
 * Issue objects: the one shape every problem takes, everywhere (CLI, helper
 * protocol, verification reports, the agent's prompts).
 *
 * @module
 */

import type { IssueCode } from "./issue_codes.ts";

/** A problem found in a plan, a file or a request. */
export interface Issue {
  /** Stable kebab-case identifier, e.g. `locator-ambiguous`. */
  code: IssueCode;
  severity: "error" | "warning";
  /** Sentence case, no trailing period, values quoted. */
  message: string;
  /** 0-based plan step. */
  step?: number;
  /** JSON path into the plan, e.g. `[2, "params", "locator"]`. */
  path?: (string | number)[];
  /** Repository-relative source file. */
  file?: string;
  /** 1-based line in `file`. */
  line?: number;
  /** Plan-level verification layer: "0", "0b", "1".."6". */
  layer?: string;
  /** Per-edit verification level: "L0".."L6". */
  level?: string;
  /** What to do about it. */
  hint?: string;
  /** Possible matches, for ambiguous or missing targets. */
  candidates?: Candidate[];
}

/** One node a locator could have meant. */
export interface Candidate {
  file?: string;
  line: number;
  kind: string;
  text: string;
  /** The innermost named definition around the node (`class HTTPBasicAuth`): what a locator's `parent` names. */
  parent?: string;
}

/** Fields of an issue besides its code and message. */
export type IssueDetails = Omit<Issue, "code" | "message" | "severity">;

/** An error-severity issue. */
export function error(code: IssueCode, message: string, details: IssueDetails = {}): Issue {
  return { code, severity: "error", message, ...details };
}

/** A warning-severity issue. */
export function warning(code: IssueCode, message: string, details: IssueDetails = {}): Issue {
  return { code, severity: "warning", message, ...details };
}

/**
 * An exception that carries issues: thrown where a request cannot go on
 * (bad input, unreadable file) and turned into issue objects at the edge.
 * Anything else thrown is a bug (exit 3).
 */
export class IssueError extends Error {
  readonly issues: Issue[];

  constructor(issues: Issue | Issue[]) {
    const list = Array.isArray(issues) ? issues : [issues];
    super(list.map((issue) => issue.message).join("; "));
    this.name = "IssueError";
    this.issues = list;
  }
}

/** Throw a single error issue. */
export function fail(code: IssueCode, message: string, details: IssueDetails = {}): never {
  throw new IssueError(error(code, message, details));
}

/** Add `details` (step, path prefix, ...) to every issue that lacks them. */
export function withContext(issues: Issue[], details: IssueDetails): Issue[] {
  return issues.map((issue) => ({ ...details, ...issue }));
}

/** Most characters of a message: one quoting a hostile plan's 10 MB string must stay readable. */
export const MAX_MESSAGE = 1000;

/** `issue` with its message cut to `MAX_MESSAGE` characters. */
export function clipMessage(issue: Issue): Issue {
  if (issue.message.length <= MAX_MESSAGE) return issue;
  return { ...issue, message: `${issue.message.slice(0, MAX_MESSAGE - 3)}...` };
}

/** Split issues into errors and warnings. */
export function partition(issues: Issue[]): { errors: Issue[]; warnings: Issue[] } {
  return {
    errors: issues.filter((issue) => issue.severity === "error"),
    warnings: issues.filter((issue) => issue.severity === "warning"),
  };
}

/** One line for a person: `error[code] file:line: message (step 2)`. */
export function formatIssue(issue: Issue): string {
  const where = issue.file ? ` ${issue.file}${issue.line ? `:${issue.line}` : ""}:` : "";
  // Plan errors often open with "Step N (op): ...": name the step once.
  const said = issue.step !== undefined && new RegExp(`^Step ${issue.step}\\b`).test(issue.message);
  const step = issue.step !== undefined && !said ? ` (step ${issue.step})` : "";
  const tag = issue.level ?? (issue.layer !== undefined ? `layer ${issue.layer}` : undefined);
  let text = `${issue.severity}[${issue.code}]${tag ? `[${tag}]` : ""}${where} ${issue.message}${step}`;
  if (issue.hint) text += `\n  hint: ${issue.hint}`;
  for (const candidate of issue.candidates ?? []) {
    text += `\n  - ${
      candidate.file ? `${candidate.file}:` : ""
    }${candidate.line} ${candidate.kind}: ${candidate.text}${
      candidate.parent ? ` (in ${candidate.parent})` : ""
    }`;
  }
  return text;
}

/**
 * At most `perCode` issues of each code and severity, in their order; for
 * each code over the cap, one more issue of that code and severity saying
 * how many were left out (a plan that warns 100,000 times reports 100 of
 * them and the count).
 */
export function capIssues(issues: readonly Issue[], perCode: number): Issue[] {
  const counts = new Map<string, number>();
  const out: Issue[] = [];
  for (const issue of issues) {
    const key = `${issue.severity}\u0000${issue.code}`;
    const seen = (counts.get(key) ?? 0) + 1;
    counts.set(key, seen);
    if (seen <= perCode) out.push(issue);
  }
  for (const [key, seen] of counts) {
    if (seen <= perCode) continue;
    const [severity, code] = key.split("\u0000") as [Issue["severity"], IssueCode];
    out.push({
      code,
      severity,
      message: `${seen - perCode} more "${code}" ${severity}s not shown (${seen} in all)`,
      hint: "the first ones are listed above; raise the cap with --limit max_issues_per_code=N",
    });
  }
  return out;
}
