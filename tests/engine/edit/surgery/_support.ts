/**
 * Helpers for the surgery tests: run one surgery operator on files written
 * to a temporary repository and read the results back.
 *
 * @module
 */

import { OPERATORS } from "../../../../engine/ops/registry.ts";
import type { StepContext } from "../../../../engine/edit/operator.ts";
import { IssueError } from "../../../../engine/base/issue.ts";
import { checkContainment, checkKinds, checkSyntax } from "../../../../engine/verify/levels/mod.ts";
import { contextWith, textOf } from "../_edit_support.ts";

/** The outcome of one operator run. */
export interface Run {
  ctx: StepContext;
  output: unknown;
  /** The text of `file` after the step. */
  text: string;
}

/** Run surgery op `op` with `params` over `files`; `file` is the one whose text is returned. */
export async function run(
  op: string,
  params: Record<string, unknown>,
  files: Record<string, string>,
  file = Object.keys(files)[0],
): Promise<Run> {
  const { ctx } = await contextWith(files);
  const output = await OPERATORS.get(op)!.run(params, ctx);
  return { ctx, output, text: await textOf(ctx, file) };
}

/** Run an op expected to fail: the thrown issue codes, and the text of `file` afterwards (unchanged). */
export async function failing(
  op: string,
  params: Record<string, unknown>,
  files: Record<string, string>,
  file = Object.keys(files)[0],
): Promise<{ codes: string[]; messages: string[]; text: string; issues: IssueError["issues"] }> {
  const { ctx } = await contextWith(files);
  try {
    await OPERATORS.get(op)!.run(params, ctx);
  } catch (err) {
    if (!(err instanceof IssueError)) throw err;
    return {
      codes: err.issues.map((issue) => issue.code),
      messages: err.issues.map((issue) => issue.message),
      issues: err.issues,
      text: await textOf(ctx, file),
    };
  }
  throw new Error(`${op} did not fail`);
}

/** Dedent a template literal: drop the first newline and the common indentation. */
export function code(strings: TemplateStringsArray, ...values: unknown[]): string {
  const raw = String.raw({ raw: strings }, ...values).replace(/^\n/, "");
  const lines = raw.split("\n");
  const indents = lines.filter((line) => line.trim() !== "").map((line) => /^ */.exec(line)![0].length);
  const common = Math.min(...indents);
  return lines.map((line) => line.slice(Math.min(common, line.length))).join("\n").replace(/[ ]+$/, "");
}

/**
 * The blocking edit checks (L0 syntax, L1 kinds, L2 containment) on every
 * file the step changed: the codes of their errors (empty when they pass).
 */
export async function blockingErrors(ctx: StepContext): Promise<string[]> {
  const codes: string[] = [];
  for (const change of await ctx.changedFiles()) {
    const fileChange = { ...change, records: ctx.records };
    const env = { step: 0, store: ctx.store };
    for (const check of [checkSyntax, checkKinds, checkContainment]) {
      for (const issue of await check(fileChange, env)) {
        if (issue.severity === "error") codes.push(`${issue.code}: ${issue.message}`);
      }
    }
  }
  return codes;
}

/** Assert that `text` contains `snippet`, showing both when it does not. */
export function assertIncludes(text: string, snippet: string): void {
  if (!text.includes(snippet)) {
    throw new Error(`Expected the text to include:\n${snippet}\n--- text:\n${text}`);
  }
}
