/**
 * The strategic layer (seed 004's MetaPlanner): which kind of proposal comes
 * next, from the phase, the state and what the last step brought back.
 *
 * ```
 * REPRODUCE → LOCALIZE → PATCH → VERIFY → EXPAND → done
 *      ↑          ↑         ↓        ↓        ↓
 *      └──────────┴─────────┴────────┴────────┘   (failures loop back; STUCK ends the run)
 * ```
 *
 * - REPRODUCE runs the tests; a failure confirms the reproduction, its
 *   evidence is recorded and the traceback's project frames become suspects.
 *   A test command that cannot run (feedback `not_run`, in any phase) is
 *   STUCK at once, naming `rfsn.test_command`: nothing is confirmed.
 * - LOCALIZE reads the best unread suspect (or searches for the failure's
 *   words when there is none), then PATCH.
 * - PATCH asks for candidates (the caller's models); an applied edit goes to
 *   VERIFY, a rolled-back one stays in PATCH.
 * - VERIFY runs the failing tests: a pass goes to EXPAND; a failure records
 *   the hypothesis as failed and goes back to PATCH, or to LOCALIZE after
 *   two failures with the same symptom (`shouldPivotToLocalization`).
 * - EXPAND runs the failing tests' files: a pass ends the run with success,
 *   a regression goes back to PATCH.
 * - STUCK when the state says so (budget, a failure pattern that returns
 *   after pivots), when a phase makes no progress in `max_phase_attempts`,
 *   or when the gate keeps refusing in safe mode; it emits one
 *   `explain_stuck` proposal and ends.
 *
 * Rejections: `SCHEMA_VIOLATION` → compliance mode, `ORDERING_VIOLATION` →
 * the phase the gate names, `BOUNDS_VIOLATION` → half the scope (one file,
 * half the lines), `INVARIANT_VIOLATION` → safe mode; three refusals in a
 * row → safe mode too. Compliance and safe mode propose only analysis (read
 * the top suspect) until one is carried out, then planning resumes.
 *
 * @module
 */

import type { PreparedEdit } from "./edit.ts";
import type { Evidence } from "./evidence.ts";
import { firstProjectFrame, isProjectFile } from "./evidence.ts";
import type { Phase, RejectionType } from "./phases.ts";
import * as planner from "./planner.ts";
import type { Proposal } from "./proposal.ts";
import { failureSignature, PIVOT_AFTER, type StateTracker } from "./state.ts";
import type { GateBounds } from "./gate.ts";
import { DEFAULT_TEST_FILES, type TestFileRule } from "../../engine/gate/mod.ts";

/** Refusals in a row before safe mode (and, once in safe mode, before STUCK). */
export const SAFE_MODE_AFTER = 3;

/** What the controller brought back from an executed proposal. */
export interface Feedback {
  proposal: Proposal;
  /** The step was carried out (an edit applied, a file read, tests ran). */
  success: boolean;
  /** Failed tests (null when no tests ran). */
  tests_failed: number | null;
  /** Why the test command could not run at all (not a test result: nothing is reproduced or verified). */
  not_run?: string;
  /** An excerpt of the output. */
  output: string;
  evidence?: Evidence;
  /** Files a search found. */
  found_files?: string[];
  /** An applied edit: the plan that ran (lifted from a diff or the proposal's own) and its tiers. */
  edit?: PreparedEdit;
}

/** A gate refusal as the planner hears it. */
export interface Rejection {
  type: RejectionType;
  reason: string;
  proposal_id: string | null;
  required_phase?: Phase;
}

/** What to do next. */
export type Next =
  | { kind: "proposal"; phase: Phase; proposal: Proposal }
  | { kind: "patch"; phase: "PATCH"; scope: GateBounds }
  | { kind: "done"; outcome: "success" | "stuck"; reason: string };

/** Options of the meta-planner. */
export interface MetaPlannerOptions {
  /** Proposals in one phase without leaving it before STUCK (default 3). */
  max_phase_attempts?: number;
  /** The scope of patches before any bounds refusal. */
  bounds: GateBounds;
  /** Tests to reproduce with (e.g. a task's failing tests); empty = the whole suite. */
  tests?: string[];
  /**
   * Which files are test modules (the repository's rule, read once per run
   * by `readTestFileRule`): their frames are not suspects. Default: the
   * default test names.
   */
  test_files?: TestFileRule;
}

/** The phase machine. */
export class MetaPlanner {
  readonly state: StateTracker;
  phase: Phase = "REPRODUCE";
  mode: "normal" | "compliance" | "safe" = "normal";
  scope: GateBounds;
  readonly maxPhaseAttempts: number;
  #attempts = 0;
  #rejectionsInSafeMode = 0;
  #read = new Set<string>();
  #tests: string[];
  #testRule: TestFileRule;
  #stuckReason: string | null = null;
  #explained = false;
  #success = false;
  /** Every phase change with its reason, for the trajectory. */
  readonly transitions: { from: Phase; to: Phase; reason: string }[] = [];

  constructor(state: StateTracker, options: MetaPlannerOptions) {
    this.state = state;
    this.scope = { ...options.bounds };
    this.maxPhaseAttempts = options.max_phase_attempts ?? 3;
    this.#tests = options.tests ?? [];
    this.#testRule = options.test_files ?? DEFAULT_TEST_FILES;
  }

  #go(to: Phase, reason: string): void {
    if (to !== this.phase) {
      this.transitions.push({ from: this.phase, to, reason });
      this.phase = to;
      this.#attempts = 0;
    }
  }

  #stuck(reason: string): void {
    this.#stuckReason ??= reason;
    this.#go("STUCK", reason);
  }

  /** The next step. */
  next(): Next {
    if (this.#success) {
      return { kind: "done", outcome: "success", reason: "targeted and expanded tests pass" };
    }
    const stuck = this.state.stuckReason();
    if (stuck && this.phase !== "STUCK") this.#stuck(stuck);
    if (this.phase !== "STUCK" && this.#attempts >= this.maxPhaseAttempts) {
      this.#stuck(`No progress in phase ${this.phase} after ${this.#attempts} attempts`);
    }
    if (this.phase === "STUCK") {
      if (this.#explained) return { kind: "done", outcome: "stuck", reason: this.#stuckReason ?? "stuck" };
      this.#explained = true;
      const tried = this.state.hypotheses_tried.map((h) => `${h.hypothesis} (${h.outcome})`);
      return this.#propose(planner.explainStuck({ reason: this.#stuckReason ?? "stuck", tried }));
    }
    this.#attempts++;
    if (this.mode !== "normal") return this.#propose(this.#analyze());
    switch (this.phase) {
      case "REPRODUCE":
        return this.#propose(planner.reproduce({ tests: this.#tests }));
      case "LOCALIZE":
        return this.#propose(this.#analyze());
      case "PATCH":
        return { kind: "patch", phase: "PATCH", scope: { ...this.scope } };
      case "VERIFY":
        return this.#propose(
          planner.verifyTargeted({ tests: this.#targets(), after_fix: this.#lastHypothesis() }),
        );
      case "EXPAND":
        return this.#propose(planner.expandVerification({ test_paths: this.#testFiles() }));
    }
  }

  #propose(proposal: Proposal): Next {
    this.state.tick();
    return { kind: "proposal", phase: this.phase, proposal };
  }

  #targets(): string[] {
    return this.#tests.length > 0 ? this.#tests : this.state.failing_tests;
  }

  #testFiles(): string[] {
    return [...new Set(this.#targets().map((t) => t.split("::")[0]).filter((p) => p.endsWith(".py")))];
  }

  #lastHypothesis(): string {
    return this.state.hypotheses_tried.at(-1)?.hypothesis ?? "the fix";
  }

  /** Read the best unread suspect, or search for the failure. */
  #analyze(): Proposal {
    const suspect = this.state.suspect_files.find((s) => !this.#read.has(s.name)) ??
      this.state.suspect_files[0];
    if (suspect) return planner.localizeFile({ path: suspect.name, reason: suspect.reason });
    const pattern = this.state.exception_types[0] ?? this.state.test_narrative ?? "def ";
    return planner.searchRepo({ pattern, reason: "the failure names no project file" });
  }

  /** Take in what the controller did with the last accepted proposal. */
  observe(feedback: Feedback): void {
    this.state.recordAcceptance();
    this.#rejectionsInSafeMode = 0;
    const { proposal } = feedback;
    const action = proposal.action;
    if (this.mode !== "normal" && (action.type === "read_file" || action.type === "search_repo")) {
      this.mode = "normal";
    }
    switch (action.type) {
      case "run_tests":
        return this.#observeTests(feedback, action.scope);
      case "read_file":
        if (feedback.success) {
          this.#read.add(action.path);
          this.#go("PATCH", `read suspect "${action.path}"`);
        } else {
          this.state.suspect_files = this.state.suspect_files.filter((s) => s.name !== action.path);
        }
        return;
      case "search_repo":
        for (const file of feedback.found_files ?? []) {
          this.state.addSuspectFile(file, 0.5, `matches "${action.pattern}"`);
        }
        if (this.state.localized) this.#go("LOCALIZE", "the search found suspects");
        return;
      case "edit_file":
        if (feedback.success) {
          this.state.recordHypothesis({
            hypothesis: proposal.hypothesis,
            proposal_id: proposal.proposal_id,
            outcome: "done",
            signature: null,
          });
          this.#go("VERIFY", "the edit was applied");
        } else {
          this.#patchFailed(proposal, `edit-failed:${feedback.output.split("\n")[0]}`, "rolled_back");
        }
        return;
      case "explain_stuck":
        return;
    }
  }

  #observeTests(feedback: Feedback, scope: "reproduce" | "targeted" | "expanded"): void {
    if (feedback.not_run) {
      // Patching against a command that cannot run would be patching blind.
      this.#stuck(
        `The test command cannot run: ${feedback.not_run}; set rfsn.test_command to a command that runs the tests in this environment`,
      );
      return;
    }
    const failed = (feedback.tests_failed ?? 0) > 0 || !feedback.success;
    if (feedback.evidence && failed) this.#takeEvidence(feedback.evidence);
    if (scope === "reproduce") {
      if (failed) {
        this.state.reproduction_confirmed = true;
        this.#go("LOCALIZE", "the failure is reproduced");
      }
      return;
    }
    if (!failed) {
      if (scope === "targeted") {
        this.state.targeted_passed = true;
        this.#go("EXPAND", "the targeted tests pass");
      } else this.#success = true;
      const last = this.state.hypotheses_tried.at(-1);
      if (last && last.outcome === "done") last.outcome = "passed";
      return;
    }
    this.state.targeted_passed = false;
    const signature = feedback.evidence
      ? failureSignature(feedback.evidence, { testFiles: this.#testRule })
      : `exit:${feedback.output.slice(0, 80)}`;
    const last = this.state.hypotheses_tried.at(-1);
    this.#patchFailed(
      feedback.proposal,
      signature,
      "failed",
      last?.outcome === "done" ? last : undefined,
    );
  }

  #patchFailed(
    proposal: Proposal,
    signature: string,
    outcome: "failed" | "rolled_back",
    pending?: { hypothesis: string; proposal_id: string },
  ): void {
    if (pending) this.state.hypotheses_tried.pop();
    this.state.recordHypothesis({
      hypothesis: pending?.hypothesis ?? proposal.hypothesis,
      proposal_id: pending?.proposal_id ?? proposal.proposal_id,
      outcome,
      signature,
    });
    if (this.state.shouldPivotToLocalization()) {
      this.state.notePivot();
      this.#read.clear();
      this.#go("LOCALIZE", `${PIVOT_AFTER} patch failures with the same symptom`);
    } else this.#go("PATCH", "the patch did not fix the failure");
  }

  #takeEvidence(evidence: Evidence): void {
    this.state.recordEvidence(evidence);
    const first = firstProjectFrame(evidence.frames, { testFiles: this.#testRule });
    if (first) {
      this.state.addSuspectFile(first.file, 0.9, `the failure is raised in ${first.file}:${first.line}`);
      if (first.func) this.state.addSuspectSymbol(`${first.file}::${first.func}`, 0.9, "the raising frame");
    }
    for (const frame of evidence.frames) {
      if (isProjectFile(frame.file) && !this.#testRule.matches(frame.file) && frame !== first) {
        this.state.addSuspectFile(frame.file, 0.6, `on the traceback at ${frame.file}:${frame.line}`);
      }
    }
  }

  /** Take in a gate refusal. */
  reject(rejection: Rejection): void {
    this.state.recordRejection({
      proposal_id: rejection.proposal_id,
      type: rejection.type,
      reason: rejection.reason,
    });
    if (this.mode === "safe") this.#rejectionsInSafeMode++;
    if (this.#rejectionsInSafeMode >= SAFE_MODE_AFTER) {
      this.#stuck(`The gate refused ${this.#rejectionsInSafeMode} proposals in a row in safe mode`);
      return;
    }
    switch (rejection.type) {
      case "SCHEMA_VIOLATION":
        this.mode = "compliance";
        break;
      case "ORDERING_VIOLATION":
        this.#go(
          rejection.required_phase ?? "LOCALIZE",
          `the gate requires phase ${rejection.required_phase}`,
        );
        break;
      case "BOUNDS_VIOLATION":
        this.scope = { max_files: 1, max_lines: Math.max(1, Math.floor(this.scope.max_lines / 2)) };
        break;
      case "INVARIANT_VIOLATION":
        this.mode = "safe";
        break;
    }
    if (this.state.consecutive_rejections >= SAFE_MODE_AFTER) this.mode = "safe";
  }
}
