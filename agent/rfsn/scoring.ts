/**
 * Ranking patch candidates without running them (seed 004's ScoringEngine).
 *
 * Six factors, each a raw value in [0, 1] times its weight:
 *
 * | factor               | weight | raw value                                                        |
 * |----------------------|--------|------------------------------------------------------------------|
 * | file_count           | 1      | 1 / files changed                                                |
 * | traceback_relevance  | 3      | 0.5 if it changes a file of a project traceback frame, 1 if its target symbol is that frame's function |
 * | guard_quality        | 2      | 0.5 per added None, boundary (`len`, `< 0`, `not x`) or type (`isinstance`) check, at most 1 |
 * | api_preservation     | 1.5    | 1 − the share of removed `def`/`class` lines not added back unchanged |
 * | refactor_penalty     | −1     | (lines changed − 10) / 50, between 0 and 1                        |
 * | test_narrative_match | 2      | share of the failure's words (exception type, message, test names) in the hypothesis and summary |
 *
 * The same candidates always get the same scores in the same order: ties
 * are broken by a stable key (the candidate's model, then its proposal
 * without its random id).
 *
 * @module
 */

import { type Frame, isProjectFile } from "./evidence.ts";
import type { DiffFacts } from "./diff_facts.ts";
import type { Proposal } from "./proposal.ts";

/** The seed's weights. */
export const WEIGHTS = {
  file_count: 1,
  traceback_relevance: 3,
  guard_quality: 2,
  api_preservation: 1.5,
  refactor_penalty: -1,
  test_narrative_match: 2,
} as const;

/** A factor's contribution, explained. */
export interface FactorScore {
  factor: keyof typeof WEIGHTS;
  weight: number;
  raw: number;
  weighted: number;
  why: string;
}

/** A candidate's total and its factors. */
export interface ScoreBreakdown {
  total: number;
  factors: FactorScore[];
}

/** A patch candidate: the proposal, what its diff changes, and which model made it. */
export interface Candidate {
  proposal: Proposal;
  facts: DiffFacts;
  model: string;
}

/** What the scores are judged against (seed: failing tests, traceback frames, narrative). */
export interface ScoringContext {
  failing_tests: string[];
  traceback_frames: Frame[];
  test_narrative: string | null;
}

const GUARDS = [
  /\bis (not )?None\b/,
  /\bisinstance\(/,
  /\blen\([^)]*\)\s*(==|<=?|>=?)|(==|<=?|>=?)\s*len\(/,
  /[<>]=?\s*0\b|\b0\s*[<>]=?/,
  /^\s*if not\b/,
  /^\s*(if|elif)\b.*:\s*$/,
];

function round(n: number): number {
  return Math.round(n * 1000) / 1000 + 0; // + 0 turns -0 into 0
}

function words(text: string): Set<string> {
  return new Set(
    text.toLowerCase().split(/[^a-z0-9_]+/).flatMap((w) => w.split("_")).filter((w) => w.length >= 3),
  );
}

function stableKey(candidate: Candidate): string {
  const { proposal_id: _id, ...rest } = candidate.proposal;
  return `${candidate.model}\u0000${JSON.stringify(rest)}`;
}

/** Scores patch candidates against the evidence of a failure. */
export class ScoringEngine {
  readonly context: ScoringContext;

  constructor(context: ScoringContext) {
    this.context = context;
  }

  /** The score of one candidate, factor by factor. */
  score(candidate: Candidate): ScoreBreakdown {
    const factors = [
      this.#fileCount(candidate),
      this.#tracebackRelevance(candidate),
      this.#guardQuality(candidate),
      this.#apiPreservation(candidate),
      this.#refactorPenalty(candidate),
      this.#narrativeMatch(candidate),
    ];
    return { total: round(factors.reduce((sum, f) => sum + f.weighted, 0)), factors };
  }

  /** The best `topN` candidates with their scores, best first, ties broken by a stable key. */
  selectBest(candidates: Candidate[], topN = 1): { candidate: Candidate; score: ScoreBreakdown }[] {
    return this.rank(candidates).slice(0, topN);
  }

  /** Every candidate with its score, best first. */
  rank(candidates: Candidate[]): { candidate: Candidate; score: ScoreBreakdown }[] {
    return candidates
      .map((candidate) => ({ candidate, score: this.score(candidate), key: stableKey(candidate) }))
      .sort((a, b) => b.score.total - a.score.total || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
      .map(({ candidate, score }) => ({ candidate, score }));
  }

  #factor(factor: keyof typeof WEIGHTS, raw: number, why: string): FactorScore {
    const weight = WEIGHTS[factor];
    return { factor, weight, raw: round(raw), weighted: round(raw * weight), why };
  }

  #fileCount({ facts }: Candidate): FactorScore {
    const n = facts.files.length;
    return this.#factor("file_count", n === 0 ? 0 : 1 / n, `${n} file(s) changed`);
  }

  #tracebackRelevance({ proposal, facts }: Candidate): FactorScore {
    const frames = this.context.traceback_frames.filter((f) => isProjectFile(f.file));
    const hit = frames.filter((f) => facts.files.includes(f.file));
    if (hit.length === 0) {
      return this.#factor(
        "traceback_relevance",
        0,
        frames.length ? "changes no file of the traceback" : "no traceback",
      );
    }
    const symbol = proposal.target.symbol?.split(".").at(-1);
    const onFrame = hit.find((f) => f.func !== null && f.func === symbol);
    return onFrame
      ? this.#factor(
        "traceback_relevance",
        1,
        `targets "${symbol}", the frame at ${onFrame.file}:${onFrame.line}`,
      )
      : this.#factor("traceback_relevance", 0.5, `changes ${hit[0].file}, a file of the traceback`);
  }

  #guardQuality({ facts }: Candidate): FactorScore {
    const guards = facts.added.filter((line) => GUARDS.some((pattern) => pattern.test(line)));
    return this.#factor(
      "guard_quality",
      Math.min(1, guards.length * 0.5),
      guards.length
        ? `adds ${guards.length} check(s): "${guards[0].trim()}"`
        : "adds no None/boundary/type check",
    );
  }

  #apiPreservation({ facts }: Candidate): FactorScore {
    const definitions = (lines: string[]) => lines.filter((l) => /^\s*(async\s+)?(def|class)\s/.test(l));
    const removed = definitions(facts.removed);
    const kept = new Set(definitions(facts.added).map((l) => l.trim()));
    const broken = removed.filter((l) => !kept.has(l.trim()));
    const raw = removed.length === 0 ? 1 : 1 - broken.length / removed.length;
    return this.#factor(
      "api_preservation",
      raw,
      broken.length ? `changes or removes "${broken[0].trim()}"` : "keeps every signature",
    );
  }

  #refactorPenalty({ facts }: Candidate): FactorScore {
    const raw = Math.min(1, Math.max(0, (facts.lines_changed - 10) / 50));
    return this.#factor("refactor_penalty", raw, `${facts.lines_changed} line(s) changed`);
  }

  #narrativeMatch({ proposal }: Candidate): FactorScore {
    const story = words(
      [this.context.test_narrative ?? "", ...this.context.failing_tests.map((t) => t.split("::").at(-1) ?? t)]
        .join(" "),
    );
    if (story.size === 0) return this.#factor("test_narrative_match", 0, "no failure narrative");
    const said = words(
      `${proposal.hypothesis} ${proposal.change_summary} ${proposal.expected_effect.behavior}`,
    );
    const shared = [...story].filter((w) => said.has(w)).sort();
    return this.#factor(
      "test_narrative_match",
      shared.length / story.size,
      `${shared.length} of ${story.size} failure words: ${shared.slice(0, 5).join(", ") || "none"}`,
    );
  }
}
