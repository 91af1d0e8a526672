/**
 * Parameter reading shared by the surgery operators: locators (`target`,
 * `destination`, `other`), strings, booleans and `position`, each problem an
 * issue with its JSON path (`["params", "destination"]`).
 *
 * @module
 */

import { stringParam } from "../params.ts";
import { fail } from "../../base/issue.ts";
import { parseLocator, resolveOne } from "../../locate/mod.ts";
import type { Document } from "../../parse/documents.ts";
import type { Node } from "../../parse/mod.ts";
import type { StepContext } from "../operator.ts";
import { type Position, POSITIONS } from "./units.ts";

/** A resolved locator parameter. */
export interface Located {
  doc: Document;
  node: Node;
}

/**
 * Resolve the locator parameter `name` to exactly one node. A locator
 * without `file` takes `defaultFile` (the target's file for `destination`
 * and `other`), else the step's `file` parameter.
 */
export async function locatedParam(
  ctx: StepContext,
  params: Record<string, unknown>,
  options: { name: string; defaultFile?: string },
): Promise<Located> {
  const { name } = options;
  const value = params[name];
  if (value === undefined) fail("param-missing", `Missing parameter "${name}"`, { path: ["params", name] });
  const defaultFile = options.defaultFile ?? (typeof params.file === "string" ? params.file : undefined);
  const locator = parseLocator(value, ["params", name], { requireFile: defaultFile === undefined });
  return await resolveOne(ctx.store, locator, {
    path: ["params", name],
    ...(defaultFile !== undefined ? { defaultFile } : {}),
  });
}

/** A required string parameter (shared with the primitives). */
export { stringParam };

/** An optional boolean parameter (default false). */
export function flagParam(params: Record<string, unknown>, name: string): boolean {
  const value = params[name];
  if (value === undefined) return false;
  if (typeof value !== "boolean") {
    fail("param-invalid", `Parameter "${name}" must be true or false`, { path: ["params", name] });
  }
  return value;
}

/** The `position` parameter. */
export function positionParam(params: Record<string, unknown>): Position {
  const value = params.position;
  if (value === undefined) {
    fail("param-missing", `Missing parameter "position"`, { path: ["params", "position"] });
  }
  if (typeof value !== "string" || !(POSITIONS as readonly string[]).includes(value)) {
    fail(
      "param-invalid",
      `Parameter "position" must be one of ${POSITIONS.map((p) => `"${p}"`).join(", ")}, got ${
        JSON.stringify(value)
      }`,
      { path: ["params", "position"] },
    );
  }
  return value as Position;
}

/** Lines of a span for outputs: `{file, start_line, end_line}` (1-based). */
export function span(
  doc: Document,
  start: number,
  end: number,
): { file: string; start_line: number; end_line: number } {
  const text = doc.file.text;
  const lineOf = (offset: number) => {
    let line = 1;
    for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) line++;
    return line;
  };
  return { file: doc.file.path, start_line: lineOf(start), end_line: lineOf(Math.max(start, end - 1)) };
}
