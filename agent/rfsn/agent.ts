/**
 * The proposal planner as a run strategy (`graphplan run --strategy rfsn`):
 * the seed's main loop. The meta-planner says what comes next; every
 * proposal passes the gate; the controller carries out what the gate
 * accepts; feedback and refusals go back to the meta-planner.
 *
 * In PATCH every candidate model (`rfsn.candidate_models`, or the run's
 * model) is asked once with the `rfsn.templates.patch` prompt and answers
 * with one JSON proposal. Each candidate's edit is made into the verified
 * plan it would run as soon as it arrives (a diff lifted by the helper, then
 * the dry run, which also gives a plan's diff); one that cannot be (a diff
 * that creates a file or does not lift exactly, a plan that fails strict
 * verification) is inadmissible, with the reasons recorded. All candidates
 * are scored and gated; the best-scored one that the gate accepts and that
 * was prepared is executed, as prepared (no second lift or dry run). Only
 * when none is admissible does the best one's reason go back to the
 * meta-planner: the gate's refusal, or why its edit cannot run (as a failed
 * edit). The trajectory's `info.rfsn` records every
 * step, every candidate with its score breakdown and gate verdict, the phase
 * transitions and the state.
 *
 * Ends `Submitted` (targeted, then expanded tests pass), `Stuck` (an
 * `explain_stuck` proposal says why), `BudgetExhausted` (the iteration
 * budget) or `LimitsExceeded`: the run's `agent.step_limit`,
 * `agent.cost_limit` and `agent.wall_time_limit` hold as in the GraphPlan
 * strategy, checked before every model call, with the calls and dollars of
 * all candidate models counted together. Edits are reverted on every end
 * but success.
 *
 * @module
 */

import type { Config } from "../config.ts";
import type { Environment } from "../env/mod.ts";
import { shellQuote } from "../env/shell_quote.ts";
import type { Helper } from "../common/helper.ts";
import type { StepProgress } from "../common/strategy.ts";
import { exceededLimit, Interrupted, LimitsExceeded } from "../common/run_end.ts";
import { type Model, type ModelStats, totalStats } from "../model/mod.ts";
import { renderTemplate } from "../template.ts";
import type { Trajectory } from "../trajectory/mod.ts";
import type { RfsnConfig } from "../config/rfsn.ts";
import { Controller } from "./controller.ts";
import { diffFacts } from "./diff_facts.ts";
import type { PreparedEdit } from "./edit.ts";
import { type GateVerdict, validateProposal } from "./gate.ts";
import { readTestFileRule } from "../../engine/gate/mod.ts";
import { MetaPlanner, type Next } from "./meta_planner.ts";
import { parseProposal, type Proposal } from "./proposal.ts";
import { type Candidate, ScoringEngine } from "./scoring.ts";
import { StateTracker } from "./state.ts";

/** What the strategy needs. */
export interface RfsnAgentOptions {
  /** The candidate models, in order. */
  models: Model[];
  env: Environment;
  config: Config;
  trajectory: Trajectory;
  helper: () => Helper | Promise<Helper>;
  /**
   * Aborted when the run must stop (SIGINT, SIGTERM): the strategy throws
   * {@linkcode Interrupted} before its next step or after the model call in
   * flight, never in the middle of an edit the controller is applying.
   */
  stop?: AbortSignal;
  /** Called after every model call, with the calls and cost of all the models so far. */
  onStep?: (progress: StepProgress) => void;
  /** Milliseconds now (tests may fake it; for `agent.wall_time_limit`). */
  now?: () => number;
  /** The git tree of the working tree when the run started: the submission is diffed from it (default `HEAD`). */
  baseline?: string;
}

/** How a run ended. */
export interface RfsnResult {
  exitStatus: "Submitted" | "Stuck" | "BudgetExhausted" | "LimitsExceeded";
  submission: string;
}

interface CandidateRecord {
  model: string;
  proposal: Proposal | null;
  score: unknown;
  verdict: { accepted: boolean; rejection_type: string | null; reason: string; issues: unknown[] } | null;
  /** The verified plan its edit became (lifted or its own), or null when it could not be made. */
  edit: { source: PreparedEdit["source"]; tiers: number[]; files: string[] } | null;
  /** Why its edit cannot run as a verified plan (the lift's or the dry run's), one sentence each. */
  problems: string[];
  /** Accepted by the gate and prepared: it may be chosen. */
  admissible: boolean;
}

function verdictRecord(verdict: GateVerdict): CandidateRecord["verdict"] {
  return {
    accepted: verdict.accepted,
    rejection_type: verdict.rejection_type,
    reason: verdict.reason,
    issues: verdict.issues,
  };
}

/** Read the JSON object a model answered with (bare, or in a fenced block). */
export function readCandidateJson(content: string): Record<string, unknown> | null {
  const fenced = /```(?:json)?\s*\n([\s\S]*?)```/.exec(content);
  const text = fenced ? fenced[1] : content.slice(content.indexOf("{"), content.lastIndexOf("}") + 1);
  try {
    const value = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

/** The proposal a candidate's JSON describes (the gate judges it; it may be invalid). */
export function candidateProposal(json: Record<string, unknown>, failingTests: string[]): unknown {
  return {
    proposal_id: crypto.randomUUID(),
    intent: "repair",
    hypothesis: json.hypothesis,
    action_type: "edit_file",
    target: json.target,
    change_summary: json.change_summary,
    expected_effect: { tests: failingTests, behavior: json.change_summary },
    risk_level: json.risk_level ?? "low",
    rollback_plan:
      "Roll the transaction back: the helper's journal restores every touched file byte for byte",
    action: { type: "edit_file", plan: json.plan ?? null, diff: json.diff ?? null },
  };
}

/** Why an edit was not applied, from a hypothesis' failure signature (`edit-failed:...`), for the prompt. */
function editFailure(signature: string | null): string {
  return signature?.startsWith("edit-failed:") ? ` (${signature.slice("edit-failed:".length)})` : "";
}

/** What one run of the loop carries from step to step. */
interface RunState {
  state: StateTracker;
  meta: MetaPlanner;
  /** A file of the repository, or null when it cannot be read. */
  readFile: (path: string) => Promise<string | null>;
  /** Throws {@linkcode LimitsExceeded} when a run limit is reached (before every model call). */
  checkLimits: () => void;
  /** The trajectory's `info.rfsn.steps`. */
  steps: Record<string, unknown>[];
  /** The last file read (the PATCH prompt's suspect) and its text. */
  lastSource: string;
  lastSuspect: string;
}

/** One PATCH round's candidates: their records, the usable ones, their diffs and prepared edits. */
interface PatchRound {
  records: CandidateRecord[];
  candidates: Candidate[];
  diffs: Map<Candidate, string>;
  prepared: Map<Candidate, PreparedEdit>;
}

/** The best-scored candidate of a round, its verdict and why its edit cannot run (if it cannot). */
interface BestCandidate {
  verdict: GateVerdict;
  candidate: Candidate;
  problems: string[];
}

/** The strategy. */
export class RfsnAgent {
  readonly #options: RfsnAgentOptions;
  readonly #rfsn: RfsnConfig;

  constructor(options: RfsnAgentOptions) {
    if (!options.config.rfsn) throw new Error("The rfsn strategy needs the rfsn section (config/rfsn.yaml)");
    this.#options = options;
    this.#rfsn = options.config.rfsn;
  }

  #checkStop(): void {
    const stop = this.#options.stop;
    if (stop?.aborted) throw new Interrupted(`interrupted by ${String(stop.reason ?? "a signal")}`);
  }

  /** The calls and cost of every model of the run so far. */
  get stats(): ModelStats {
    return totalStats(this.#options.models);
  }

  /** Run on `task` until success, STUCK, the budget or a limit. */
  async run(task: string): Promise<RfsnResult> {
    const { env, trajectory, config } = this.#options;
    const controller = new Controller(env, {
      testCommand: this.#rfsn.test_command,
      readLimit: this.#rfsn.read_limit,
      helper: async () => await this.#options.helper(),
      strict: config.verification.strict ? config.verification.strict_codes : [],
      baseline: this.#options.baseline,
    });
    try {
      return await this.#loop(task, controller);
    } catch (err) {
      if (!(err instanceof LimitsExceeded)) throw err;
      await controller.revertEdits();
      trajectory.info.error = err.message;
      return { exitStatus: "LimitsExceeded", submission: "" };
    }
  }

  async #loop(task: string, controller: Controller): Promise<RfsnResult> {
    const run = await this.#startRun();
    for (;;) {
      this.#checkStop();
      const next = run.meta.next();
      if (next.kind === "done") return await this.#end(next, controller);
      if (next.kind === "proposal") await this.#proposalStep(run, next, controller);
      else await this.#patchRound(run, task, controller);
      await this.#options.trajectory.save();
    }
  }

  /** The run's state, meta-planner, file reader and trajectory record, made before the first step. */
  async #startRun(): Promise<RunState> {
    const { env, trajectory, config } = this.#options;
    const now = this.#options.now ?? Date.now;
    const started = now();
    const checkLimits = () => {
      const reason = exceededLimit(config.agent, this.stats, (now() - started) / 1000);
      if (reason) throw new LimitsExceeded(reason);
    };
    const rfsn = this.#rfsn;
    const state = new StateTracker({
      risk_budget: rfsn.risk_budget,
      iteration_budget: rfsn.iteration_budget,
      stuck_threshold: rfsn.stuck_threshold,
    });
    const readFile = async (path: string) => {
      const shown = await env.execute(`cat -- ${shellQuote(path)}`, { outputLimit: 64 * 1024 * 1024 });
      return shown.returncode === 0 ? shown.output : null;
    };
    // Test modules as the repository's pytest configuration names them, read once: the evidence's rule.
    const testFiles = await readTestFileRule(readFile);
    const meta = new MetaPlanner(state, {
      bounds: rfsn.bounds,
      max_phase_attempts: rfsn.max_phase_attempts,
      tests: rfsn.tests,
      test_files: testFiles,
    });
    const steps: Record<string, unknown>[] = [];
    trajectory.info.rfsn = {
      steps,
      transitions: meta.transitions,
      state,
      test_files: { source: testFiles.source, patterns: testFiles.patterns },
    };
    return { state, meta, readFile, checkLimits, steps, lastSource: "", lastSuspect: "" };
  }

  /** The run's end as the meta-planner decided it: the submission on success, the edits reverted otherwise. */
  async #end(next: Extract<Next, { kind: "done" }>, controller: Controller): Promise<RfsnResult> {
    if (next.outcome === "success") {
      const submission = await controller.submission();
      return { exitStatus: "Submitted", submission };
    }
    await controller.revertEdits();
    return {
      exitStatus: /^Iteration budget/.test(next.reason) ? "BudgetExhausted" : "Stuck",
      submission: "",
    };
  }

  /** A proposal of the meta-planner's own: gated, then carried out (or refused) and its feedback observed. */
  async #proposalStep(
    run: RunState,
    next: Extract<Next, { kind: "proposal" }>,
    controller: Controller,
  ): Promise<void> {
    const { state, meta, readFile, steps } = run;
    const verdict = await validateProposal(next.proposal, {
      state,
      bounds: meta.scope,
      readFile,
      policy: this.#options.config.gate,
    });
    const step: Record<string, unknown> = {
      phase: next.phase,
      proposal: next.proposal,
      verdict: verdictRecord(verdict),
    };
    steps.push(step);
    if (!verdict.accepted) {
      meta.reject({
        type: verdict.rejection_type!,
        reason: verdict.reason,
        proposal_id: next.proposal.proposal_id,
        required_phase: verdict.required_phase,
      });
      return;
    }
    state.spendRisk(next.proposal.risk_level);
    const feedback = await controller.execute(next.proposal);
    step.feedback = {
      success: feedback.success,
      tests_failed: feedback.tests_failed,
      ...(feedback.not_run ? { not_run: feedback.not_run } : {}),
      output: feedback.output,
      ...(feedback.edit ? { edit: feedback.edit } : {}),
    };
    const action = next.proposal.action;
    if (action.type === "read_file" && feedback.success) {
      run.lastSource = feedback.output;
      run.lastSuspect = action.path;
    }
    const failedCheck = action.type === "run_tests" && action.scope !== "reproduce" &&
      (feedback.tests_failed ?? 1) > 0;
    if (failedCheck) await controller.revertEdits();
    meta.observe(feedback);
  }

  /** PATCH: ask every candidate model, score all, gate best first, run the best admissible one. */
  async #patchRound(run: RunState, task: string, controller: Controller): Promise<void> {
    const records: CandidateRecord[] = [];
    // Recorded before the models are asked, so a round a limit cuts short is in the trajectory too.
    const step: Record<string, unknown> = { phase: "PATCH", candidates: records };
    run.steps.push(step);
    const round: PatchRound = { records, candidates: [], diffs: new Map(), prepared: new Map() };
    const prompt = this.#patchPrompt(run, task);
    for (const model of this.#options.models) await this.#askCandidate(run, model, prompt, round, controller);
    const { chosen, best } = await this.#gateCandidates(run, round);
    await this.#applyChoice(run, step, round, chosen, best, controller);
  }

  /** The PATCH prompt: the task, the failure, the suspect's source, the bounds and what was tried. */
  #patchPrompt(run: RunState, task: string): string {
    const { state, meta } = run;
    const history =
      state.hypotheses_tried.map((h) => `- ${h.hypothesis}: ${h.outcome}${editFailure(h.signature)}`)
        .concat(state.gate_rejections.map((r) => `- refused (${r.type}): ${r.reason}`)).join("\n") ||
      "nothing yet";
    return renderTemplate(this.#rfsn.templates.patch, {
      task,
      failure: state.test_narrative ?? "(no exception line)",
      failing_tests: state.failing_tests.join(" ") || "(none named)",
      suspect: run.lastSuspect,
      source: run.lastSource,
      max_files: meta.scope.max_files,
      max_lines: meta.scope.max_lines,
      history,
    }, { name: "rfsn.templates.patch" });
  }

  /** One candidate model's answer, recorded; a usable proposal's edit is prepared (lifted, dry-run) at once. */
  async #askCandidate(
    run: RunState,
    model: Model,
    prompt: string,
    round: PatchRound,
    controller: Controller,
  ): Promise<void> {
    const { state, readFile } = run;
    const { trajectory } = this.#options;
    const messages = [{ role: "user" as const, content: prompt }];
    this.#checkStop();
    run.checkLimits();
    let response;
    try {
      response = await model.query(messages, { signal: this.#options.stop });
    } catch (err) {
      this.#checkStop();
      throw err;
    }
    trajectory.add({ ...messages[0], extra: { phase: "PATCH", model: model.name } }, {
      ...response.message,
      extra: { phase: "PATCH", model: model.name, cost: response.cost },
    });
    const stats = this.stats;
    this.#options.onStep?.({ phase: "PATCH", step: stats.calls, cost: stats.cost, commands: [] });
    state.tick();
    const json = readCandidateJson(response.content);
    const value = json ? candidateProposal(json, state.failing_tests) : null;
    const parsed = value ? parseProposal(value) : null;
    if (!parsed || "issues" in parsed) {
      const verdict = await validateProposal(value ?? response.content, { state, readFile });
      round.records.push({
        model: model.name,
        proposal: null,
        score: null,
        verdict: verdictRecord(verdict),
        edit: null,
        problems: [],
        admissible: false,
      });
      return;
    }
    // Lifted (a diff) and dry-run now, so that a candidate that cannot run is never chosen.
    const action = parsed.proposal.action;
    const ready = action.type === "edit_file" ? await controller.prepare(action) : null;
    const edit = ready && "edit" in ready ? ready.edit : undefined;
    const diff = action.type === "edit_file" ? (action.diff ?? edit?.diff ?? "") : "";
    const candidate: Candidate = { proposal: parsed.proposal, facts: diffFacts(diff), model: model.name };
    round.candidates.push(candidate);
    round.diffs.set(candidate, diff);
    if (edit) round.prepared.set(candidate, edit);
    round.records.push({
      model: model.name,
      proposal: parsed.proposal,
      score: null,
      verdict: null,
      edit: edit ? { source: edit.source, tiers: edit.tiers, files: edit.files } : null,
      problems: ready && "problems" in ready ? ready.problems : [],
      admissible: false,
    });
  }

  /** Every candidate scored and gated, best first: the best admissible one, and the best one whatever it is. */
  async #gateCandidates(
    run: RunState,
    round: PatchRound,
  ): Promise<{ chosen?: Candidate; best?: BestCandidate }> {
    const { state, meta, readFile } = run;
    const scorer = new ScoringEngine({
      failing_tests: state.failing_tests,
      traceback_frames: state.traceback_frames,
      test_narrative: state.test_narrative,
    });
    let chosen: Candidate | undefined;
    let best: BestCandidate | undefined;
    for (const { candidate, score } of scorer.rank(round.candidates)) {
      const entry = round.records.find((r) => r.proposal === candidate.proposal)!;
      entry.score = score;
      // Every candidate is gated (the trajectory shows each verdict); the best admissible one runs.
      const verdict = await validateProposal(candidate.proposal, {
        state,
        bounds: meta.scope,
        readFile,
        policy: this.#options.config.gate,
        diff: round.diffs.get(candidate),
      });
      entry.verdict = verdictRecord(verdict);
      entry.admissible = verdict.accepted && round.prepared.has(candidate);
      best ??= { verdict, candidate, problems: entry.problems };
      if (entry.admissible) chosen ??= candidate;
    }
    return { chosen, best };
  }

  /** The chosen candidate runs as prepared; with none, the planner hears the best one's refusal or problems. */
  async #applyChoice(
    run: RunState,
    step: Record<string, unknown>,
    round: PatchRound,
    chosen: Candidate | undefined,
    best: BestCandidate | undefined,
    controller: Controller,
  ): Promise<void> {
    const { state, meta, readFile } = run;
    if (!chosen && best?.verdict.accepted) {
      // The best was accepted but its edit cannot run: the planner hears why, as from a failed edit.
      const output = best.problems.join("\n");
      step.feedback = { success: false, output };
      meta.observe({ proposal: best.candidate.proposal, success: false, tests_failed: null, output });
    } else if (!chosen) {
      // Only the best candidate's refusal teaches the planner (or, with no usable candidate, the schema's).
      const refusal = best?.verdict ?? await validateProposal(null, { state, readFile });
      meta.reject({
        type: refusal.rejection_type!,
        reason: refusal.reason,
        proposal_id: refusal.proposal?.proposal_id ?? null,
        required_phase: refusal.required_phase,
      });
    } else {
      state.recordAcceptance();
      state.spendRisk(chosen.proposal.risk_level);
      step.chosen = chosen.model;
      // The plan prepared above runs: it is not lifted or dry-run again.
      const feedback = await controller.execute(chosen.proposal, { edit: round.prepared.get(chosen) });
      step.feedback = {
        success: feedback.success,
        output: feedback.output,
        ...(feedback.edit ? { edit: feedback.edit } : {}),
      };
      meta.observe(feedback);
    }
  }
}
