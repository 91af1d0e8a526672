/**
 * GRAPH → PLAN → VERIFY → EXECUTE, with the revision loop: the helper builds
 * the graph of the chosen files; the model writes a plan to `plan_path`
 * (nudged up to `max_plan_nudges` times, its message text searched for JSON
 * as a fallback); the helper verifies it and, when it passes, executes it
 * (all steps or none). A failed verification or execution is fed back and
 * the model writes the plan again, `max_plan_revisions` plans in all.
 *
 * Strictness (`verification` in the config): with `strict`, the warning
 * codes of `strict_codes` are errors (the helper's `strict` parameter) and
 * go through the revision loop. Otherwise a verified plan that has warnings
 * of those codes is shown to the model once before it runs (template
 * `confirm_warnings`): a new plan in `plan_path` is verified in its place
 * (without using up a revision), `CONFIRM` (or no new plan) runs it as it
 * is.
 *
 * Every way this can fail ends in a {@linkcode PlanOutcome} with a reason,
 * and the agent falls back to the plain step loop.
 *
 * @module
 */

import { join } from "../../engine/base/node_builtins.ts";
import { formatIssue, type Issue } from "../../engine/base/issue.ts";
import { detectTier } from "../../engine/plan/tiers.ts";
import type { CodeGraph } from "../../engine/graph/mod.ts";
import { renderGraphView } from "../../engine/graph/view.ts";
import type { Environment } from "../env/mod.ts";
import { shellQuote } from "../env/shell_quote.ts";
import { findPlanInMessages, findPlanInText, isValidPlan, parsePlanText } from "./extract.ts";
import { findChangeInText, liftedSteps, liftInputKind } from "./lift_input.ts";
import type { LiftInput, LiftReport } from "../common/lift_report.ts";

/** How many of the attempt's latest messages (answers and tool outputs) are searched for a plan. */
const PLAN_LOOKBACK = 6;
import { type Helper, HelperError } from "../common/helper.ts";
import { helperIssues, rollBack } from "../common/rollback.ts";
import type { StepLoop } from "./loop.ts";

/** How the plan phases ended. */
export type PlanOutcome =
  | { ok: true; plan: unknown; filesChanged: string[]; warnings: Issue[] }
  | { ok: false; reason: string; point: FallbackPoint };

/** Where the structured path gave up (seed 002, "Graceful Degradation"). */
export type FallbackPoint = "explore" | "graph" | "plan" | "verify" | "execute";

interface VerifyReport {
  passed: boolean;
  errors: Issue[];
  warnings: Issue[];
}

interface ExecuteReport {
  success: boolean;
  rolled_back?: boolean;
  failed_step?: number;
  errors: Issue[];
  warnings: Issue[];
  files_changed?: string[];
}

/** Build the graph, get a plan verified and executed, or say why not. */
export async function planAndExecute(
  loop: StepLoop,
  helper: Helper,
  options: { files: string[]; operatorCatalog: string },
): Promise<PlanOutcome> {
  const graph = await graphPhase(loop, helper, options.files);
  if ("ok" in graph) return graph;
  askForPlan(loop, graph.view, options);
  return await reviseUntilExecuted(loop, helper, options.files);
}

/** GRAPH: the helper's graph of `files` rendered for the model, or why there is none. */
async function graphPhase(
  loop: StepLoop,
  helper: Helper,
  files: string[],
): Promise<{ view: string } | PlanOutcome> {
  const graphPhase = loop.trajectory.startPhase("graph", { files });
  let graph: CodeGraph;
  try {
    graph = await helper.call("build_graph", { files }) as CodeGraph;
  } catch (err) {
    loop.trajectory.endPhase(graphPhase, "failed", { error: (err as Error).message });
    return {
      ok: false,
      point: "graph",
      reason: `the code graph could not be built: ${(err as Error).message}`,
    };
  }
  const readable = files.filter((file) =>
    !graph.errors.some((issue) => issue.file === file && !graph.line_kinds[file])
  );
  if (graph.symbols.length === 0 && readable.length === 0) {
    loop.trajectory.endPhase(graphPhase, "empty", { errors: graph.errors });
    return { ok: false, point: "graph", reason: `the code graph of ${JSON.stringify(files)} is empty` };
  }
  const view = renderGraphView(graph);
  loop.trajectory.endPhase(graphPhase, "done", { symbols: graph.symbols.length, view });
  return { view };
}

/** The model's first plan request: the graph view and the `plan` template with the operator catalog. */
function askForPlan(
  loop: StepLoop,
  view: string,
  options: { files: string[]; operatorCatalog: string },
): void {
  loop.add(
    "user",
    loop.render("graph_view", { graph_view: view }) + "\n" +
      loop.render("plan", {
        operator_catalog: options.operatorCatalog,
        plan_path: loop.config.agent.plan_path,
        files: options.files,
        accept_diff: loop.config.agent.plan_input !== "plan",
      }),
    "plan",
  );
}

/** What one attempt came to: the outcome to return, or the reason it failed and the model tries again. */
type AttemptEnd = { outcome: PlanOutcome } | { retry: string; point: FallbackPoint };

/** The revision loop: PLAN → VERIFY → (CONFIRM) → EXECUTE, `max_plan_revisions` plans in all. */
async function reviseUntilExecuted(loop: StepLoop, helper: Helper, files: string[]): Promise<PlanOutcome> {
  const attempts = Math.max(1, loop.config.agent.max_plan_revisions);
  const { verification } = loop.config;
  const strict = verification.strict ? verification.strict_codes : [];
  let reason = "";
  let point: FallbackPoint = "verify";
  let confirmAsked = false;
  let revised: unknown;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    // a plan revised when its warnings were shown (confirm_warnings) is taken as written
    const obtained = revised !== undefined ? { plan: revised } : await obtainPlan(loop, attempt);
    revised = undefined;
    if (obtained === undefined) return notWritten(loop.config.agent.max_plan_nudges);
    const plan = await planOfAttempt(loop, helper, obtained, files, attempt);
    if (plan === undefined) {
      reason = `the diff could not be lifted into a plan ${attempt} time${attempt === 1 ? "" : "s"}`;
      point = "plan";
      continue;
    }
    const verify = await verifyPhase(loop, helper, plan, { strict, attempt, attempts });
    if (!verify.passed) {
      reason = `the plan failed verification ${attempt} time${attempt === 1 ? "" : "s"}`;
      point = "verify";
      continue;
    }
    const flagged = verify.warnings.filter((issue) => verification.strict_codes.includes(issue.code));
    if (!verification.strict && verification.confirm_warnings && !confirmAsked && flagged.length > 0) {
      confirmAsked = true;
      revised = await confirmWarnings(loop, plan, flagged);
      if (revised !== undefined) {
        attempt--; // the revision the confirmation asked for does not use up one of the model's
        continue;
      }
    }
    const end = await executePhase(loop, helper, plan, {
      strict,
      attempt,
      attempts,
      warnings: verify.warnings,
    });
    if ("outcome" in end) return end.outcome;
    ({ retry: reason, point } = end);
  }
  return { ok: false, reason, point };
}

/** The outcome when the model wrote no plan after every nudge. */
function notWritten(nudges: number): PlanOutcome {
  return {
    ok: false,
    point: "plan",
    reason: `no plan was written after ${nudges} reminder${nudges === 1 ? "" : "s"}`,
  };
}

/** PLAN: the attempt's plan, as written (recorded in the trajectory) or lifted from a change; undefined when the change could not be lifted. */
async function planOfAttempt(
  loop: StepLoop,
  helper: Helper,
  obtained: Obtained,
  files: string[],
  attempt: number,
): Promise<unknown> {
  if (obtained.change) return await liftChange(loop, helper, obtained.change, attempt);
  const steps = planSteps(obtained.plan);
  loop.trajectory.info.plan = {
    plan_files: files,
    plan_steps: steps,
    source: "written",
    tiers: steps.map((step) => detectTier(step)),
  };
  return obtained.plan;
}

/** Where an attempt stands: the strict codes, its number and the number allowed. */
interface AttemptContext {
  strict: readonly string[];
  attempt: number;
  attempts: number;
}

/** VERIFY: the helper's verdict on `plan`, recorded; a failure is fed back when another attempt follows. */
async function verifyPhase(
  loop: StepLoop,
  helper: Helper,
  plan: unknown,
  { strict, attempt, attempts }: AttemptContext,
): Promise<VerifyReport> {
  const verify = await verifyPlan(helper, plan, strict);
  loop.trajectory.endPhase(
    loop.trajectory.startPhase("verify", { attempt }),
    verify.passed ? "passed" : "failed",
    {
      method: verify.method,
      errors: verify.errors,
      warnings: verify.warnings,
    },
  );
  await loop.trajectory.save();
  if (!verify.passed && attempt < attempts) {
    loop.add(
      "user",
      loop.render("verify_feedback", {
        errors: issueLines(verify.errors),
        warnings: issueLines(verify.warnings),
        attempt: attempt + 1,
        max_attempts: attempts,
        plan_path: loop.config.agent.plan_path,
      }),
      "verify",
    );
  }
  return verify;
}

/**
 * EXECUTE: run the verified plan (all steps or none) and record it; a failure
 * whose files are restored is fed back when another attempt follows.
 */
async function executePhase(
  loop: StepLoop,
  helper: Helper,
  plan: unknown,
  { strict, attempt, attempts, warnings }: AttemptContext & { warnings: Issue[] },
): Promise<AttemptEnd> {
  const executed = await executePlan(helper, plan, strict);
  // The model is told "every file was rolled back" only when it is true:
  // said by the helper, or by a rollback asked for now (the helper died
  // mid-plan, or its own rollback met a problem).
  const recovery = executed.success || executed.rolled_back === true ? null : await rollBack(helper);
  const restored = executed.success || executed.rolled_back === true || recovery?.success === true;
  loop.trajectory.endPhase(
    loop.trajectory.startPhase("execute", { attempt }),
    executed.success ? "done" : restored ? "rolled_back" : "not_restored",
    {
      failed_step: executed.failed_step,
      errors: executed.errors,
      warnings: executed.warnings,
      files_changed: executed.files_changed ?? [],
      ...(recovery ? { recovery } : {}),
    },
  );
  await loop.trajectory.save();
  if (!restored) {
    const why = [...executed.errors, ...(recovery?.errors ?? [])].map((issue) => issue.message).join("; ");
    return {
      outcome: {
        ok: false,
        point: "execute",
        reason:
          `the plan failed and its files could not be restored (${why}): the repository may hold part of it`,
      },
    };
  }
  if (executed.success) {
    return {
      outcome: {
        ok: true,
        plan,
        filesChanged: executed.files_changed ?? [],
        warnings: [...warnings, ...executed.warnings],
      },
    };
  }
  if (attempt < attempts) {
    loop.add(
      "user",
      loop.render("execute_failure", {
        failed_step: executed.failed_step ?? "?",
        errors: issueLines(executed.errors),
        attempt: attempt + 1,
        max_attempts: attempts,
        plan_path: loop.config.agent.plan_path,
      }),
      "execute",
    );
  }
  return { retry: `the plan failed to execute (attempt ${attempt})`, point: "execute" };
}

/** What the model answers to confirm a plan. */
const CONFIRM = "CONFIRM";

/**
 * Show the plan's warnings once and let the model answer: the revised plan
 * it wrote to `plan_path`, or undefined to run the plan as it is (it
 * answered CONFIRM, or wrote no new plan).
 */
async function confirmWarnings(loop: StepLoop, plan: unknown, warnings: Issue[]): Promise<unknown> {
  const { plan_path } = loop.config.agent;
  const phase = loop.trajectory.startPhase("confirm", { warnings });
  loop.add(
    "user",
    loop.render("confirm_warnings", { warnings: issueLines(warnings), plan_path, confirm: CONFIRM }),
    "confirm",
  );
  const result = await loop.step("confirm");
  const text = await readEnvFile(loop.env, plan_path);
  const written = text === null ? undefined : parsePlanText(text);
  if (written !== undefined && JSON.stringify(written) !== JSON.stringify(plan)) {
    loop.trajectory.endPhase(phase, "revised", { plan: written });
    await loop.trajectory.save();
    return written;
  }
  const confirmed = [result.content, ...result.outputs].some((text) =>
    new RegExp(`\\b${CONFIRM}\\b`).test(text)
  );
  loop.trajectory.endPhase(phase, confirmed ? "confirmed" : "unanswered");
  await loop.trajectory.save();
  return undefined;
}

/**
 * Lift a diff or SEARCH/REPLACE blocks with the helper: the lifted plan (the
 * model is shown it, step by step with tiers, so it learns the structural
 * form), or undefined after telling the model why it could not be lifted.
 */
async function liftChange(
  loop: StepLoop,
  helper: Helper,
  change: LiftInput,
  attempt: number,
): Promise<unknown[] | undefined> {
  const phase = loop.trajectory.startPhase("lift", {
    attempt,
    input: liftInputKind(change),
  });
  let report: LiftReport;
  try {
    report = await helper.call("lift", change) as LiftReport;
  } catch (err) {
    report = { success: false, plan: [], hunks: [], exact: false, errors: helperIssues(err), warnings: [] };
  }
  const tiers = report.hunks.flatMap((hunk) => hunk.tiers);
  loop.trajectory.endPhase(phase, report.success ? "done" : "failed", {
    exact: report.exact,
    hunks: report.hunks,
    errors: report.errors,
    warnings: report.warnings,
  });
  const { plan_path, max_plan_revisions } = loop.config.agent;
  if (!report.success) {
    loop.add(
      "user",
      loop.render("lift_feedback", {
        errors: issueLines(report.errors as Issue[]),
        attempt: attempt + 1,
        max_attempts: Math.max(1, max_plan_revisions),
        plan_path,
      }),
      "plan",
    );
    return undefined;
  }
  loop.trajectory.info.plan = {
    plan_files: [...new Set(report.hunks.map((hunk) => hunk.file))],
    plan_steps: report.plan,
    source: "lifted",
    tiers,
  };
  loop.add(
    "user",
    loop.render("lifted", { steps: liftedSteps(report), plan: JSON.stringify(report.plan, null, 2) }),
    "plan",
  );
  return report.plan;
}

/** A plan the model wrote, or a change to lift (`agent.plan_input` allowing). */
interface Obtained {
  plan?: unknown;
  change?: LiftInput;
}

/**
 * Steps until a valid plan (or, when `agent.plan_input` allows, a diff or
 * SEARCH/REPLACE blocks) is in `plan_path` or in the model's text; undefined
 * after the nudges run out.
 */
async function obtainPlan(loop: StepLoop, attempt: number): Promise<Obtained | undefined> {
  const { plan_path, max_plan_nudges } = loop.config.agent;
  const phase = loop.trajectory.startPhase("plan", { attempt });
  await loop.env.execute(`rm -f ${shellQuote(plan_path)}`);
  // Only what this attempt produced: an earlier attempt's plan was already refused.
  const since = loop.messages.length;
  for (let nudge = 0;; nudge++) {
    const result = await loop.step("plan");
    const text = await readEnvFile(loop.env, plan_path);
    const input = loop.config.agent.plan_input;
    const accepts = (kind: "plan" | "diff") => input === "any" || input === kind;
    let plan = text === null || !accepts("plan") ? undefined : parsePlanText(text);
    let source = "file";
    if (plan === undefined && accepts("plan")) {
      plan = findPlanInText(result.content);
      source = "message";
    }
    if (plan === undefined) {
      const recent = loop.messages.slice(since);
      plan = findPlanInMessages(recent, PLAN_LOOKBACK);
      source = "recent messages";
    }
    if (plan !== undefined) {
      loop.trajectory.endPhase(phase, "done", { source, nudges: nudge, plan });
      return { plan };
    }
    const change = accepts("diff")
      ? (text === null ? undefined : findChangeInText(text)) ?? findChangeInText(result.content)
      : undefined;
    if (change) {
      loop.trajectory.endPhase(phase, "done", {
        source: liftInputKind(change),
        nudges: nudge,
      });
      return { change };
    }
    if (nudge >= max_plan_nudges) {
      loop.trajectory.endPhase(phase, "failed", { nudges: nudge });
      return undefined;
    }
    const reason = text === null
      ? `the file does not exist`
      : `its content is not a JSON list of steps: ${JSON.stringify(text.slice(0, 120))}`;
    loop.add(
      "user",
      loop.render("nudge", { plan_path, attempt: nudge + 1, max_attempts: max_plan_nudges, reason }),
      "plan",
    );
  }
}

/** Helpers without `verify_plan`: their plans are verified by a dry run of `execute_plan`. */
const NO_VERIFY = new WeakSet<Helper>();

/**
 * `verify_plan`; a helper that does not have it yet (`method-unknown`)
 * verifies by `execute_plan` with `dry_run` instead:
 * the plan is validated, every locator resolved and every step run in
 * memory with its post-checks, and nothing is written.
 */
async function verifyPlan(
  helper: Helper,
  plan: unknown,
  strict: readonly string[],
): Promise<VerifyReport & { method: string }> {
  const strictParam = strict.length > 0 ? { strict } : {};
  if (!NO_VERIFY.has(helper)) {
    try {
      const report = await helper.call("verify_plan", { plan, ...strictParam }) as VerifyReport;
      return {
        passed: report.passed === true,
        errors: report.errors ?? [],
        warnings: report.warnings ?? [],
        method: "verify_plan",
      };
    } catch (err) {
      const missing = err instanceof HelperError &&
        err.issues.some((issue) => issue.code === "method-unknown");
      if (!missing) return { passed: false, errors: helperIssues(err), warnings: [], method: "verify_plan" };
      NO_VERIFY.add(helper);
    }
  }
  try {
    const report = await helper.call("execute_plan", {
      plan,
      dry_run: true,
      ...strictParam,
    }) as ExecuteReport;
    return {
      passed: report.success === true,
      errors: report.errors ?? [],
      warnings: report.warnings ?? [],
      method: "execute_plan dry_run",
    };
  } catch (err) {
    return { passed: false, errors: helperIssues(err), warnings: [], method: "execute_plan dry_run" };
  }
}

async function executePlan(helper: Helper, plan: unknown, strict: readonly string[]): Promise<ExecuteReport> {
  try {
    const report = await helper.call("execute_plan", {
      plan,
      ...(strict.length > 0 ? { strict } : {}),
    }) as ExecuteReport;
    return {
      ...report,
      success: report.success === true,
      errors: report.errors ?? [],
      warnings: report.warnings ?? [],
    };
  } catch (err) {
    return { success: false, errors: helperIssues(err), warnings: [] };
  }
}

/** Issues as lines for a prompt. */
export function issueLines(issues: Issue[]): string {
  return issues.map((issue) => `- ${formatIssue(issue).replace(/\n/g, "\n  ")}`).join("\n");
}

function planSteps(plan: unknown): unknown[] {
  if (Array.isArray(plan)) return plan;
  if (isValidPlan(plan)) return (plan as { plan: unknown[] }).plan;
  return [];
}

/** A file from the environment, read whole (not through the output limit); null when absent. */
async function readEnvFile(env: Environment, path: string): Promise<string | null> {
  const dir = await Deno.makeTempDir({ prefix: "graphplan_plan_" });
  try {
    const local = join(dir, "plan.json");
    await env.copyOut(path, local);
    return await Deno.readTextFile(local);
  } catch {
    return null;
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}
