/**
 * The helper's methods: name → handler. A handler gets the request's params
 * (an object) and the session and returns the `result`; it throws an
 * `IssueError` when the request cannot be carried out. A check that ran and
 * failed (a plan rolled back) is a result, not an error. To add a method
 * (as `lift` was), add an entry here and a section in docs/helper.md.
 *
 * @module
 */

import { capIssues, fail, type Issue, IssueError, partition } from "../base/issue.ts";
import { limits } from "../base/limits.ts";
import { buildGraph, emptyFileGraph, extractFileGraph, type FileGraph } from "../graph/mod.ts";
import { LANGUAGES, PLAIN_TEXT } from "../parse/mod.ts";
import { VERSION } from "../../version.ts";
import { executePlan, type PlanResult } from "../exec/execute.ts";
import { rollbackRepository } from "../exec/journal.ts";
import type { ParsedSteps } from "../exec/wiring.ts";
import type { Session } from "./session.ts";
import { strictCodes } from "../verify/strict.ts";
import { shellMethod } from "./shell.ts";

/** A helper method: params in, result out (throws `IssueError` for an error response). */
export type MethodFn = (params: Record<string, unknown>, session: Session) => Promise<unknown>;

/** Every method the helper answers, by name. */
export const METHODS: Record<string, MethodFn> = {
  version: () => Promise.resolve({ version: VERSION, languages: [...LANGUAGES] }),

  build_graph: async (params, session) => {
    requireField(params, "files", "array");
    const files = params.files as unknown[];
    if (!files.every((file) => typeof file === "string")) missing("files", "array of paths");
    // Through the session's store: trees parsed once are reused by later requests.
    return await buildGraph(session.workspace, files as string[], {
      mapFiles: async (paths) => {
        const out = [];
        for (const path of paths) out.push(await storedFileGraph(session, path));
        return out;
      },
    });
  },

  locate: async (params, session) => {
    requireField(params, "locator", "object");
    const { locateResult, parseLocator, resolveDetailed } = await import("../locate/mod.ts");
    const locator = parseLocator(params.locator, ["params", "locator"]);
    const { doc, nodes, failure } = await resolveDetailed(session.store, locator, {
      path: ["params", "locator"],
    });
    return { ...locateResult(doc, nodes), errors: nodes.length === 0 && failure ? [failure] : [] };
  },

  execute_step: async (params, session) => {
    requireField(params, "step", "object");
    const parsed = await session.parsePlan([params.step]);
    if (hasErrors(parsed.issues)) return rejected(parsed.issues);
    const result = await run(session, parsed, {
      dryRun: params.dry_run === true,
      strict: strictParam(params),
    });
    const { outputs, ...rest } = result;
    return { ...rest, output: outputs[0] ?? null };
  },

  execute_plan: async (params, session) => {
    if (!("plan" in params)) missing("plan", "array or object");
    const parsed = await session.parsePlan(params.plan);
    if (hasErrors(parsed.issues)) return rejected(parsed.issues);
    const result = await run(session, parsed, {
      dryRun: params.dry_run === true,
      strict: strictParam(params),
    });
    return {
      ...result,
      warnings: capIssues([...parsed.issues, ...result.warnings], limits().max_issues_per_code),
    };
  },

  verify_plan: async (params, session) => {
    if (!("plan" in params)) missing("plan", "array or object");
    const { verifyPlan } = await import("../verify/mod.ts");
    return await verifyPlan(session.store, params.plan, {
      checks: session.checks,
      compilers: session.compilers,
      strict: strictParam(params),
    });
  },

  lift: async (params, session) => {
    const given = ["diff", "search_replace", "apply_patch"].filter((name) => params[name] !== undefined);
    if (given.length !== 1 || typeof params[given[0]] !== "string") {
      fail("params-invalid", 'Give exactly one of "diff", "search_replace" and "apply_patch", as a string', {
        path: ["params"],
        hint:
          '{"diff": "diff --git a/x.py b/x.py ..."}, {"search_replace": "x.py\n```\n<<<<<<< SEARCH ..."} or {"apply_patch": "*** Begin Patch ..."}',
      });
    }
    const { lift } = await import("../lift/mod.ts");
    return await lift(session.store, { [given[0]]: params[given[0]] as string });
  },

  // One of the agent's commands, run by bash where the helper runs (shell.ts).
  shell: (params) => shellMethod(params),

  rollback: async (params, session) => {
    const report = await rollbackRepository(session.workspace, { force: params.force === true });
    for (const path of report.restored) session.store.invalidate(path);
    return report;
  },
};

async function storedFileGraph(session: Session, path: string): Promise<FileGraph> {
  let doc;
  try {
    doc = await session.store.get(path);
    // The store reads any file (as plain text, for the text operators); a graph needs a grammar, and
    // a file without one is reported as `graph` reports it (`unknown-language`), not left out silently.
    if (doc.file.language === PLAIN_TEXT) session.workspace.read(doc.file.path);
  } catch (err) {
    if (!(err instanceof IssueError)) throw err;
    const issues = err.issues.map((issue) => ({ ...issue, file: issue.file ?? path }));
    return emptyFileGraph(issues[0]?.file ?? path, issues);
  }
  return extractFileGraph(doc.file, doc.tree);
}

function hasErrors(issues: Issue[]): boolean {
  return issues.some((issue) => issue.severity === "error");
}

/** The result for a plan that failed validation: nothing executed. */
function rejected(issues: Issue[]): PlanResult {
  const { errors, warnings } = partition(issues);
  return {
    success: false,
    rolled_back: false,
    errors,
    warnings,
    files_changed: [],
    outputs: [],
    compiled: null,
  };
}

async function run(
  session: Session,
  parsed: ParsedSteps,
  options: { dryRun: boolean; strict: readonly string[] },
): Promise<PlanResult> {
  const result = await executePlan(session.store, parsed.steps, {
    runStep: parsed.runStep,
    checks: session.checks,
    dryRun: options.dryRun,
    compilers: session.compilers,
    strict: options.strict,
  });
  const perCode = limits().max_issues_per_code;
  return {
    ...result,
    errors: capIssues(result.errors, perCode),
    warnings: capIssues(result.warnings, perCode),
  };
}

/** The `strict` parameter: true (the default codes), a list of codes, or absent/false. */
function strictParam(params: Record<string, unknown>): readonly string[] {
  const value = params.strict;
  if (value === undefined || value === null || typeof value === "boolean") return strictCodes(value ?? false);
  if (Array.isArray(value) && value.every((code) => typeof code === "string")) return strictCodes(value);
  missing("strict", "boolean or array of warning codes");
}

function requireField(params: Record<string, unknown>, name: string, type: "array" | "object"): void {
  const value = params[name];
  const ok = type === "array" ? Array.isArray(value) : value !== null && typeof value === "object";
  if (!ok) missing(name, type);
}

function missing(name: string, type: string): never {
  fail(
    "params-invalid",
    `Missing or invalid parameter "${name}": expected ${type === "array" ? "an" : "a"} ${type}`,
    {
      path: ["params", name],
    },
  );
}
