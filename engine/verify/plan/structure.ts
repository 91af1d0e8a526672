/**
 * Layer 0 (seed 002), the checks that need the files: every file a step
 * names exists, the classes and functions it names are in the file's graph,
 * and its line numbers are in range. Run on the simulated state before the
 * step, so a class added by an earlier step counts. Schema problems (valid
 * operator, required parameters) come from `parsePlan`; a locator's file
 * that does not exist is layer 0b.
 *
 * | check | message |
 * |---|---|
 * | file exists | `Step {i}: File '{path}' does not exist` |
 * | symbol in graph | `Step {i} ({op}): Class '{name}' not found in "{file}"` |
 * | line range | `Step {i} ({op}): anchor_line {n} out of range` / `start_line > end_line` |
 *
 * @module
 */

import { error, type Issue } from "../../base/issue.ts";
import type { NormalizedStep } from "../../plan/mod.ts";
import type { DocumentStore } from "../../parse/documents.ts";
import type { GraphSymbol } from "../../graph/mod.ts";
import { countLines, lineBreaks } from "../../parse/line_index.ts";
import { graphOf, tryGet } from "./graphs.ts";
import { numberParam, param } from "./steps.ts";

const CLASS_KINDS = new Set(["class", "struct", "interface", "enum", "trait", "impl"]);
const FUNCTION_KINDS = new Set(["function", "method"]);

/** Layer 0 for one step against the documents of `store`. */
export async function structuralChecks(step: NormalizedStep, store: DocumentStore): Promise<Issue[]> {
  const i = step.index;
  const at = { step: i, layer: "0" };
  const issues: Issue[] = [];
  const file = param(step, "file");
  // A whole-file step checks its own file (create_file wants it absent).
  if (file !== undefined && step.kind !== "primitive" && step.kind !== "file") {
    const got = await tryGet(store, file);
    if (!got.doc) {
      return got.issues.map((issue) =>
        issue.code === "file-not-found"
          ? error("file-not-found", `Step ${i}: File '${file}' does not exist`, {
            ...at,
            path: [...step.path, "params", "file"],
            ...(issue.hint ? { hint: issue.hint } : {}),
          })
          : { ...issue, ...at, path: [...step.path, "params", "file"] }
      );
    }
    const doc = got.doc;
    const symbols = () => graphOf(doc).symbols;
    const className = param(step, "class_name", "class");
    if ((step.op === "add_method" || step.op === "add_class_attribute") && className !== undefined) {
      const name = lastSegment(className);
      if (!symbols().some((s) => CLASS_KINDS.has(s.kind) && s.name === name)) {
        issues.push(
          notFound(
            step,
            "Class",
            className,
            doc.file.path,
            symbols().filter((s) => CLASS_KINDS.has(s.kind)),
            [
              "params",
              step.params.class_name !== undefined ? "class_name" : "class",
            ],
          ),
        );
      }
    }
    const funcName = param(step, "func_name");
    if ((step.op === "modify_function_signature" || step.op === "replace_function_body") && funcName) {
      // The last name must be a function of the file; how a qualified name narrows it down is
      // the operator's to check (its `function-not-found` / `function-ambiguous`).
      const name = lastSegment(funcName);
      const found = symbols().some((s) => FUNCTION_KINDS.has(s.kind) && s.name === name);
      if (!found) {
        issues.push(
          notFound(
            step,
            "Function",
            funcName,
            doc.file.path,
            symbols().filter((s) => FUNCTION_KINDS.has(s.kind)),
            [
              "params",
              "func_name",
            ],
          ),
        );
      }
    }
    issues.push(...lineChecks(step, countLines(lineBreaks(doc), doc.file.text.length), doc.file.path));
  }
  return issues;
}

function notFound(
  step: NormalizedStep,
  what: "Class" | "Function",
  name: string,
  file: string,
  known: GraphSymbol[],
  path: string[],
): Issue {
  const names = [
    ...new Set(known.map((s) => (s.parent && what === "Function" ? `${s.parent}.${s.name}` : s.name))),
  ];
  return error(
    what === "Class" ? "class-not-found" : "function-not-found",
    `Step ${step.index} (${step.op}): ${what} '${name}' not found in "${file}"`,
    {
      step: step.index,
      layer: "0",
      file,
      path: [...step.path, ...path],
      hint: names.length > 0
        ? `the ${what === "Class" ? "classes" : "functions"} of the file are: ${
          names.slice(0, 15).join(", ")
        }${names.length > 15 ? ", ..." : ""}`
        : `"${file}" defines no ${what === "Class" ? "class" : "function"}`,
    },
  );
}

/** Line parameters of the line-number operators against a file of `count` lines. */
function lineChecks(step: NormalizedStep, count: number, file: string): Issue[] {
  const i = step.index;
  const details = (name: string, line?: number) => ({
    step: i,
    layer: "0",
    file,
    line,
    path: [...step.path, "params", name],
  });
  if (step.op === "insert_code") {
    const anchor = numberParam(step, "anchor_line");
    if (anchor !== undefined && (anchor < 1 || anchor > count)) {
      return [
        error(
          "line-out-of-range",
          `Step ${i} (insert_code): anchor_line ${anchor} out of range: "${file}" has ${count} lines`,
          details("anchor_line"),
        ),
      ];
    }
  }
  if (step.op === "delete_lines" || step.op === "wrap_block") {
    const start = numberParam(step, "start_line");
    const end = numberParam(step, "end_line");
    if (start === undefined || end === undefined) return [];
    if (start > end) {
      return [
        error("line-range-invalid", `Step ${i} (${step.op}): start_line > end_line: ${start} > ${end}`, {
          ...details("start_line", start),
          hint: "give the first line, then the last line of the range (1-based, inclusive)",
        }),
      ];
    }
    if (start < 1 || end > count) {
      return [
        error(
          "line-out-of-range",
          `Step ${i} (${step.op}): lines ${start}-${end} out of range: "${file}" has ${count} lines`,
          details(end > count ? "end_line" : "start_line"),
        ),
      ];
    }
  }
  return [];
}

function lastSegment(name: string): string {
  const parts = name.split(/\.|::/);
  return parts[parts.length - 1];
}
