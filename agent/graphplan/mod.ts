/**
 * The GraphPlan agent: EXPLORE → GRAPH → PLAN → VERIFY → EXECUTE → SUBMIT,
 * falling back to the plain step loop (free bash commands, like
 * mini-swe-agent's default agent) wherever a phase cannot go on, so it is
 * never worse than the baseline.
 *
 * ```ts
 * const agent = new GraphPlanAgent({ model, env, config, trajectory, helper, operatorCatalog });
 * const { exitStatus, submission } = await agent.run(problemStatement);
 * ```
 *
 * @module
 */

import type { Config } from "../config.ts";
import type { Environment } from "../env/mod.ts";
import { type Model, ModelError } from "../model/mod.ts";
import type { Trajectory } from "../trajectory/mod.ts";
import { explore } from "./explore.ts";
import type { Helper } from "../common/helper.ts";
import { type FallbackPoint, issueLines, planAndExecute } from "./plan.ts";
import { StepLoop } from "./loop.ts";
import type { StepProgress } from "../common/strategy.ts";
import { checkPatch } from "./patch.ts";
import { type FinalGateRecord, gateFinalPatch } from "../common/final_gate.ts";
import { changesSince } from "../common/baseline.ts";
import { FormatErrorLimit, Interrupted, LimitsExceeded, Submitted } from "../common/run_end.ts";

export { StepLoop } from "./loop.ts";
export {
  findPlanInMessages,
  findPlanInText,
  findReadyFiles,
  findSubmission,
  isSubmitCommand,
  isValidPlan,
} from "./extract.ts";
export type { FallbackPoint } from "./plan.ts";
export { checkPatch, checkPatchFormat, type PatchCheck } from "./patch.ts";
export { operatorCatalog } from "./catalog.ts";

/** What the agent is built from. */
export interface AgentDeps {
  model: Model;
  env: Environment;
  config: Config;
  trajectory: Trajectory;
  /** The helper, or how to start it (called when the GRAPH phase begins). */
  helper: Helper | (() => Helper | Promise<Helper>);
  /** The operator catalog for the plan prompt (generated from the engine's registries). */
  operatorCatalog: string;
  /** Milliseconds now (tests may fake it). */
  now?: () => number;
  /** Called after every step. */
  onStep?: (progress: StepProgress) => void;
  /** Check submitted patches (seed 002 "Phase 5"; default true). */
  checkPatches?: boolean;
  /** Aborted to stop the run at its next safe point (exit status `Interrupted`). */
  stop?: AbortSignal;
  /**
   * The git tree of the working tree when the run started (`snapshotTree`):
   * the submission is then the patch from it to the working tree, computed
   * here, not the submit command's output (which is not run when it starts
   * by echoing the marker). Without it the output after the marker is the
   * submission.
   */
  baseline?: string;
}

/** How a run ended. */
export interface RunResult {
  /**
   * `Submitted`, `LimitsExceeded`, `FormatError`, or a model error's status
   * (`AuthenticationError`, `ModelUnavailable`, ...); prefixed with
   * `Fallback` (`FallbackSubmitted`, `FallbackLimitsExceeded`, ...) when the
   * structured path gave up and the plain step loop produced the outcome.
   */
  exitStatus: string;
  submission: string;
  /** Where the structured path fell back to the step loop, if it did. */
  fallback?: { point: FallbackPoint; reason: string };
}

/** The phase machine. */
export class GraphPlanAgent {
  readonly #deps: AgentDeps;
  readonly loop: StepLoop;
  #helper?: Helper;
  #rejections = 0;
  #gateRefusals = 0;
  #fallbackInfo?: { point: FallbackPoint; reason: string };

  constructor(deps: AgentDeps) {
    this.#deps = deps;
    this.loop = new StepLoop({
      ...deps,
      checkSubmission: deps.checkPatches === false ? undefined : (patch) => this.#checkSubmission(patch),
      patch: deps.baseline === undefined ? undefined : () => changesSince(deps.env, deps.baseline!),
    });
  }

  /** Solve `task`; the trajectory is saved after every step and at the end. */
  async run(task: string): Promise<RunResult> {
    const { loop } = this;
    const { config } = this.#deps;
    loop.trajectory.info.task = task;
    try {
      loop.add("system", loop.render("system", {}), "setup");
      loop.add(
        "user",
        loop.render("instance", { task, cwd: loop.env.cwd }) + "\n" +
          loop.render("explore", {
            max_explore_steps: config.agent.max_explore_steps,
            ready_marker: config.agent.ready_marker,
          }),
        "setup",
      );
      await loop.trajectory.save();
      const stop = await this.#structured();
      await this.#fallback(stop.point, stop.reason);
    } catch (err) {
      return await this.#finish(err);
    } finally {
      await this.#helper?.close().catch(() => {});
    }
    return await this.#finish(new Error("The step loop ended without a submission"));
  }

  /** The structured path; returns where and why it stopped when it falls back (a submission throws). */
  async #structured(): Promise<{ point: FallbackPoint; reason: string }> {
    const { loop } = this;
    const files = await explore(loop);
    if (!files) {
      return {
        point: "explore",
        reason: `no READY_TO_PLAN within ${loop.config.agent.max_explore_steps} steps`,
      };
    }
    let helper: Helper;
    try {
      helper = await this.#startHelper();
    } catch (err) {
      const phase = loop.trajectory.startPhase("graph", { files });
      loop.trajectory.endPhase(phase, "failed", { error: (err as Error).message });
      return { point: "graph", reason: `the GraphPlan helper is unavailable: ${(err as Error).message}` };
    }
    const outcome = await planAndExecute(loop, helper, {
      files,
      operatorCatalog: this.#deps.operatorCatalog,
    });
    if (!outcome.ok) return { point: outcome.point, reason: outcome.reason };
    const phase = loop.trajectory.startPhase("submit");
    loop.add(
      "user",
      loop.render("submit", {
        files_changed: outcome.filesChanged,
        warnings: issueLines(outcome.warnings),
        submit_marker: loop.config.agent.submit_marker,
      }),
      "submit",
    );
    try {
      return await loop.untilSubmitted("submit");
    } finally {
      loop.trajectory.endPhase(phase, "ended");
    }
  }

  async #fallback(point: FallbackPoint, reason: string): Promise<never> {
    const { loop } = this;
    this.#fallbackInfo = { point, reason };
    loop.trajectory.info.fallback = this.#fallbackInfo;
    loop.trajectory.startPhase("fallback", { point, reason });
    loop.add(
      "user",
      loop.render("fallback", { reason, submit_marker: loop.config.agent.submit_marker }),
      "fallback",
    );
    await loop.trajectory.save();
    return await loop.untilSubmitted("fallback");
  }

  /**
   * Phase 5: refuse a malformed patch (`max_patch_rejections` times), then
   * accept it as it is; under `gate.mode: refuse`, send a patch that
   * weakens the tests back with the gate's reasons (as many times), after
   * which the run's final gate withdraws it.
   */
  async #checkSubmission(patch: string): Promise<string | null> {
    const { loop } = this;
    const report = await checkPatch(loop.env, patch, { base: this.#deps.baseline });
    loop.trajectory.info.patch_check = report;
    if (!report.ok) {
      this.#rejections++;
      if (this.#rejections > loop.config.agent.max_patch_rejections) return null;
      return loop.render("patch_rejected", {
        problems: report.problems.map((problem) => `- ${problem}`).join("\n"),
        submit_marker: loop.config.agent.submit_marker,
      });
    }
    return await this.#gateSubmission(patch);
  }

  /** The gate's refusal of a submitted patch as a message to the model, or null to accept it. */
  async #gateSubmission(patch: string): Promise<string | null> {
    const { loop } = this;
    const policy = { mode: loop.config.gate.mode, allow: loop.config.gate.allow };
    if (policy.mode !== "refuse" || this.#gateRefusals >= loop.config.agent.max_patch_rejections) return null;
    let record: FinalGateRecord;
    try {
      record = await gateFinalPatch(loop.env, patch, { policy, base: this.#deps.baseline });
    } catch {
      return null; // the run's final gate records why it could not run
    }
    if (!record.refused || "skipped" in record) return null;
    this.#gateRefusals++;
    const refusals = (loop.trajectory.info.gate_refusals ??= []) as unknown[];
    refusals.push({ errors: record.errors, files: record.files });
    return loop.render("gate_refused", {
      problems: record.errors.map((issue) =>
        `- ${
          issue.file ? `${issue.file}${issue.line ? `:${issue.line}` : ""}: ` : ""
        }${issue.message} (${issue.code})`
      ).join("\n"),
      submit_marker: loop.config.agent.submit_marker,
    });
  }

  async #startHelper(): Promise<Helper> {
    const given = this.#deps.helper;
    this.#helper = typeof given === "function" ? await given() : given;
    return this.#helper;
  }

  async #finish(err: unknown): Promise<RunResult> {
    const { loop } = this;
    let result: RunResult;
    if (err instanceof Submitted) {
      result = { exitStatus: "Submitted", submission: err.submission };
    } else if (err instanceof LimitsExceeded) {
      result = { exitStatus: "LimitsExceeded", submission: "" };
      loop.add("user", loop.render("limits_exceeded", { reason: err.message }), "end");
      loop.trajectory.info.error = err.message;
    } else if (err instanceof Interrupted) {
      // Not prefixed with "Fallback": an interruption is the user's, not the path's outcome.
      loop.trajectory.info.error = err.message;
      for (const phase of loop.trajectory.info.phases) {
        if (phase.status === "running") loop.trajectory.endPhase(phase, "Interrupted");
      }
      loop.trajectory.finish("Interrupted", "");
      await loop.trajectory.save();
      return { exitStatus: "Interrupted", submission: "" };
    } else if (err instanceof FormatErrorLimit) {
      result = { exitStatus: "FormatError", submission: "" };
      loop.trajectory.info.error = err.message;
    } else if (err instanceof ModelError) {
      result = { exitStatus: err.exitStatus, submission: "" };
      loop.trajectory.info.error = err.message;
    } else {
      loop.trajectory.finish(err instanceof Error ? err.name : "InternalError");
      loop.trajectory.info.error = err instanceof Error ? (err.stack ?? err.message) : String(err);
      await loop.trajectory.save();
      throw err;
    }
    if (this.#fallbackInfo) {
      result.fallback = this.#fallbackInfo;
      result.exitStatus = `Fallback${result.exitStatus}`;
    }
    for (const phase of loop.trajectory.info.phases) {
      if (phase.status === "running") loop.trajectory.endPhase(phase, result.exitStatus);
    }
    loop.trajectory.finish(result.exitStatus, result.submission);
    await loop.trajectory.save();
    return result;
  }
}
