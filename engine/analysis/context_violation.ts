/**
 * A statement-context violation: the shape every rule of
 * `statement_context.ts` and `script_context.ts` reports.
 *
 * @module
 */

import type { Node } from "../parse/mod.ts";

/** Stable codes of the violations (issue codes of the L0 check). */
export type ContextCode =
  | "break-outside-loop"
  | "continue-outside-loop"
  | "return-outside-function"
  | "yield-outside-function"
  | "await-outside-async"
  | "nonlocal-without-binding"
  | "duplicate-parameter"
  | "parameter-order"
  | "argument-order"
  | "duplicate-keyword-argument"
  | "invalid-target"
  | "python2-syntax"
  | "empty-block";

/** One place the compiler would refuse. */
export interface ContextViolation {
  code: ContextCode;
  /** What is wrong, in CPython's words where it has them (`'break' outside loop`). */
  detail: string;
  /** The offending node's text, first line, for matching and messages. */
  text: string;
  startIndex: number;
  endIndex: number;
  /** 1-based line. */
  line: number;
}

/** A violation of `code` at `node`, its text clipped to the first line. */
export function violation(code: ContextCode, detail: string, node: Node): ContextViolation {
  const text = node.text.split("\n", 1)[0].trim().slice(0, 80);
  return {
    code,
    detail,
    text,
    startIndex: node.startIndex,
    endIndex: node.endIndex,
    line: node.startPosition.row + 1,
  };
}
