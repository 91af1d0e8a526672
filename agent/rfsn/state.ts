/**
 * The planner's explicit state across attempts (seed 004's StateTracker):
 * reproduction, failures, localization, history, budgets and convergence.
 * Everything is plain data, so `toJSON()` goes into the trajectory as is.
 *
 * Convergence: each failed patch attempt has a *signature* (exception
 * types, the localizing frame, the failing tests); two failures in a row
 * with the same signature mean "pivot to localization"; a signature that
 * has already caused `stuck_threshold` pivots means the planner repeats
 * itself, and it is stuck.
 *
 * @module
 */

import { type Evidence, firstProjectFrame, type Frame, type TestFilesOption } from "./evidence.ts";

/** Budgets and thresholds (config `rfsn.budgets`). */
export interface StateBudgets {
  /** Medium-risk proposals allowed in the run. */
  risk_budget: number;
  /** Proposals allowed in the run. */
  iteration_budget: number;
  /** Pivots caused by the same failure signature before the planner is stuck. */
  stuck_threshold: number;
}

/** The seed's defaults. */
export const DEFAULT_BUDGETS: StateBudgets = { risk_budget: 5, iteration_budget: 50, stuck_threshold: 2 };

/** Failed patch attempts with the same signature, in a row, that call for a pivot to localization. */
export const PIVOT_AFTER = 2;

/** A suspect file or symbol with the confidence the evidence gives it. */
export interface Suspect {
  name: string;
  confidence: number;
  reason: string;
}

/** One hypothesis tried and what became of it. */
export interface HypothesisRecord {
  hypothesis: string;
  proposal_id: string;
  /** `done`: applied, not verified yet; `passed`/`failed`: after the targeted tests. */
  outcome: "passed" | "failed" | "rejected" | "rolled_back" | "done";
  signature: string | null;
}

/** One refusal by the gate. */
export interface RejectionRecord {
  proposal_id: string | null;
  type: string;
  reason: string;
}

/** The signature of a failure: what failed, how and where (test files as `options.testFiles` says). */
export function failureSignature(evidence: Evidence, options: TestFilesOption = {}): string {
  const frame = firstProjectFrame(evidence.frames, options);
  return [
    evidence.exception_types.join(","),
    frame ? `${frame.file}:${frame.line}` : "",
    [...evidence.failing_tests].sort().join(","),
  ].join("|");
}

/** The planner's state. */
export class StateTracker {
  readonly budgets: StateBudgets;
  repro_command: string | null = null;
  reproduction_confirmed = false;
  failing_tests: string[] = [];
  exception_types: string[] = [];
  traceback_frames: Frame[] = [];
  test_narrative: string | null = null;
  suspect_files: Suspect[] = [];
  suspect_symbols: Suspect[] = [];
  hypotheses_tried: HypothesisRecord[] = [];
  gate_rejections: RejectionRecord[] = [];
  risk_spent = 0;
  iterations = 0;
  consecutive_failures = 0;
  consecutive_rejections = 0;
  last_failure_signature: string | null = null;
  /** Pivots to localization, per failure signature. */
  pivots: Record<string, number> = {};
  targeted_passed = false;

  constructor(budgets: Partial<StateBudgets> = {}) {
    this.budgets = { ...DEFAULT_BUDGETS, ...budgets };
  }

  /** Take in the evidence of a test run. */
  recordEvidence(evidence: Evidence): void {
    this.failing_tests = evidence.failing_tests;
    this.exception_types = evidence.exception_types;
    this.traceback_frames = evidence.frames;
    this.test_narrative = evidence.narrative;
  }

  /** Add or raise a suspect file (kept sorted by confidence, then name). */
  addSuspectFile(path: string, confidence: number, reason: string): void {
    addSuspect(this.suspect_files, { name: path, confidence, reason });
  }

  /** Add or raise a suspect symbol (`file::name`). */
  addSuspectSymbol(symbol: string, confidence: number, reason: string): void {
    addSuspect(this.suspect_symbols, { name: symbol, confidence, reason });
  }

  /** Whether localization has a suspect to patch. */
  get localized(): boolean {
    return this.suspect_files.length > 0;
  }

  /** Count a proposal against the iteration budget. */
  tick(): void {
    this.iterations++;
  }

  /** Whether a proposal of `risk` fits the risk budget (low always does; high never). */
  canAffordRisk(risk: "low" | "medium" | "high"): boolean {
    if (risk === "low") return true;
    if (risk === "high") return false;
    return this.risk_spent < this.budgets.risk_budget;
  }

  /** Spend the risk budget on an accepted medium-risk proposal. */
  spendRisk(risk: "low" | "medium" | "high"): void {
    if (risk === "medium") this.risk_spent++;
  }

  /** Record what became of a hypothesis; a failure with evidence updates convergence. */
  recordHypothesis(record: HypothesisRecord): void {
    this.hypotheses_tried.push(record);
    if (record.outcome === "failed" || record.outcome === "rolled_back") {
      this.consecutive_failures =
        record.signature !== null && record.signature === this.last_failure_signature
          ? this.consecutive_failures + 1
          : 1;
      this.last_failure_signature = record.signature;
    } else if (record.outcome === "passed") {
      this.consecutive_failures = 0;
    }
  }

  /** Record a gate refusal. */
  recordRejection(record: RejectionRecord): void {
    this.gate_rejections.push(record);
    this.consecutive_rejections++;
  }

  /** A proposal passed the gate. */
  recordAcceptance(): void {
    this.consecutive_rejections = 0;
  }

  /** Two patch failures in a row with the same symptom: stop patching and gather evidence. */
  shouldPivotToLocalization(): boolean {
    return this.consecutive_failures >= PIVOT_AFTER;
  }

  /** The pivot happened: count it against its signature and start counting failures afresh. */
  notePivot(): void {
    const signature = this.last_failure_signature ?? "";
    this.pivots[signature] = (this.pivots[signature] ?? 0) + 1;
    this.consecutive_failures = 0;
  }

  /** Why the planner is stuck, or null: the iteration budget, or a failure pattern that keeps coming back. */
  stuckReason(): string | null {
    if (this.iterations >= this.budgets.iteration_budget) {
      return `Iteration budget exhausted: ${this.iterations} of ${this.budgets.iteration_budget} proposals`;
    }
    for (const [signature, count] of Object.entries(this.pivots)) {
      if (count >= this.budgets.stuck_threshold) {
        return `The same failure keeps coming back after ${count} pivots to localization: "${signature}"`;
      }
    }
    return null;
  }

  /** Whether the planner cannot make progress (seed: `is_stuck`). */
  isStuck(): boolean {
    return this.stuckReason() !== null;
  }

  /** Plain data for the trajectory. */
  toJSON(): Record<string, unknown> {
    return {
      budgets: this.budgets,
      reproduction: {
        repro_command: this.repro_command,
        reproduction_confirmed: this.reproduction_confirmed,
      },
      failures: {
        failing_tests: this.failing_tests,
        exception_types: this.exception_types,
        traceback_frames: this.traceback_frames,
        test_narrative: this.test_narrative,
      },
      localization: { suspect_files: this.suspect_files, suspect_symbols: this.suspect_symbols },
      history: { hypotheses_tried: this.hypotheses_tried, gate_rejections: this.gate_rejections },
      spent: { risk: this.risk_spent, iterations: this.iterations },
      convergence: {
        consecutive_failures: this.consecutive_failures,
        consecutive_rejections: this.consecutive_rejections,
        last_failure_signature: this.last_failure_signature,
        pivots: this.pivots,
      },
      targeted_passed: this.targeted_passed,
    };
  }
}

function addSuspect(list: Suspect[], suspect: Suspect): void {
  const existing = list.find((s) => s.name === suspect.name);
  if (existing) {
    if (suspect.confidence > existing.confidence) {
      existing.confidence = suspect.confidence;
      existing.reason = suspect.reason;
    }
  } else list.push(suspect);
  list.sort((a, b) => b.confidence - a.confidence || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
