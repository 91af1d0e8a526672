/**
 * Running one template step on in-memory files for the template tests.
 *
 * @module
 */

import assert from "node:assert/strict";
import { TEMPLATES } from "../../../../engine/edit/templates/mod.ts";
import { type Issue, IssueError } from "../../../../engine/base/issue.ts";
import { contextWith, textOf } from "../_edit_support.ts";
import type { StepContext } from "../../../../engine/edit/operator.ts";

/** The outcome of one step: the file's text after it, its output and warnings. */
export interface Applied {
  text: string;
  output: Record<string, unknown>;
  warnings: Issue[];
  ctx: StepContext;
}

/** Apply template `name` with `params` to `file` holding `source`; the step must succeed. */
export async function apply(
  name: string,
  file: string,
  source: string,
  params: Record<string, unknown>,
): Promise<Applied> {
  const { ctx } = await contextWith({ [file]: source });
  const output = await TEMPLATES[name].run(params, ctx) as Record<string, unknown>;
  return { text: await textOf(ctx, file), output, warnings: ctx.warnings, ctx };
}

/** Apply a step that must be rejected; asserts nothing changed and returns the issues. */
export async function reject(
  name: string,
  file: string,
  source: string,
  params: Record<string, unknown>,
): Promise<Issue[]> {
  const { ctx } = await contextWith({ [file]: source });
  try {
    await TEMPLATES[name].run(params, ctx);
  } catch (caught) {
    if (!(caught instanceof IssueError)) throw caught;
    assert.equal(await textOf(ctx, file), source, `${name}: a rejected step changed the file`);
    assert.deepEqual(await ctx.changedFiles(), []);
    return caught.issues;
  }
  assert.fail(`${name} should have been rejected; the file became:\n${await textOf(ctx, file)}`);
}
