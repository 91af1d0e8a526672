/**
 * The first gate of plan validation: is the input plain JSON data at all?
 *
 * `parsePlan` accepts `unknown`, so it may be handed anything a JavaScript
 * caller has: functions, cycles, class instances, getters that throw,
 * `__proto__` keys that would re-prototype an object when copied. This walk
 * (iterative, so deep nesting cannot overflow the stack) refuses all of
 * that with issues and returns a fresh copy made only of plain objects,
 * arrays, strings, numbers, booleans and null, which the rest of the engine
 * can read without surprises.
 *
 * @module
 */

import { error, type Issue } from "../base/issue.ts";
import type { IssueCode } from "../base/issue_codes.ts";

/** Deepest nesting accepted (a locator's `parent` chain, fragment children...). */
export const MAX_DEPTH = 64;
/** Most values (objects, arrays and scalars) a plan may contain. */
export const MAX_VALUES = 2_000_000;
/** Keys refused anywhere in a plan (prototype pollution). */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

type Path = (string | number)[];

/** The plain-data copy of `input`, or the issues that prevent one. */
export function sanitize(input: unknown): { value?: unknown; issues: Issue[] } {
  const issues: Issue[] = [];
  try {
    const value = copy(input, issues);
    return issues.length > 0 ? { issues } : { value, issues };
  } catch (err) {
    return {
      issues: [
        error(
          "plan-not-json",
          `The plan cannot be read as JSON data: ${(err as Error)?.message ?? String(err)}`,
          {
            path: [],
          },
        ),
      ],
    };
  }
}

interface Frame {
  source: unknown;
  target: Record<string, unknown> | unknown[];
  keys: (string | number)[];
  next: number;
  path: Path;
}

function copy(input: unknown, issues: Issue[]): unknown {
  const stack: Frame[] = [];
  const onPath = new Set<object>();
  let count = 0;
  const report = (code: IssueCode, message: string, path: Path) => {
    if (issues.length < 20) issues.push(error(code, message, { path }));
  };

  /** Copy a scalar, or open a frame for a container; returns the copy (containers filled later). */
  const enter = (value: unknown, path: Path): unknown => {
    if (++count > MAX_VALUES) {
      throw new Error(`it has more than ${MAX_VALUES} values`);
    }
    if (
      value === null || typeof value === "string" || typeof value === "boolean" || typeof value === "number"
    ) {
      return value;
    }
    if (value === undefined) return undefined;
    if (typeof value !== "object") {
      report(
        "plan-not-json",
        `The plan contains a ${typeof value} at ${where(path)}: a plan is plain JSON data`,
        path,
      );
      return undefined;
    }
    if (onPath.has(value)) {
      report("plan-not-json", `The plan contains a reference cycle at ${where(path)}`, path);
      return undefined;
    }
    const isArray = Array.isArray(value);
    const proto = Object.getPrototypeOf(value);
    if (!isArray && proto !== Object.prototype && proto !== null) {
      const name = (value as { constructor?: { name?: string } }).constructor?.name ?? "object";
      report(
        "plan-not-json",
        `The plan contains a ${name} at ${where(path)}: a plan is plain JSON data`,
        path,
      );
      return undefined;
    }
    if (stack.length >= MAX_DEPTH) {
      report(
        "plan-too-deep",
        `The plan is nested more than ${MAX_DEPTH} levels deep at ${where(path)}`,
        path,
      );
      return undefined;
    }
    const keys: (string | number)[] = isArray
      ? Array.from({ length: (value as unknown[]).length }, (_, i) => i)
      : Object.keys(value);
    const target = isArray ? [] : {};
    onPath.add(value);
    stack.push({ source: value, target, keys, next: 0, path });
    return target;
  };

  const root = enter(input, []);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1];
    if (frame.next >= frame.keys.length) {
      onPath.delete(frame.source as object);
      stack.pop();
      continue;
    }
    const key = frame.keys[frame.next++];
    const path = [...frame.path, key];
    if (typeof key === "string" && FORBIDDEN_KEYS.has(key)) {
      report(
        "forbidden-key",
        `The plan contains the key "${key}" at ${where(frame.path)}: it is not allowed in a plan`,
        path,
      );
      continue;
    }
    const child = enter((frame.source as Record<string | number, unknown>)[key], path);
    if (Array.isArray(frame.target)) frame.target.push(child === undefined ? null : child);
    else if (child !== undefined) frame.target[key as string] = child;
  }
  return root;
}

/** A JSON path for messages: `[2, "params", "locator"]`, or `the top level`. */
function where(path: Path): string {
  return path.length === 0 ? "the top level" : JSON.stringify(path);
}
