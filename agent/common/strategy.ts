/**
 * What a strategy is to the code that runs it: a short name in the
 * registry (`agent/strategies.ts`), a one-line summary for `--help`, the
 * models it asks besides the run's own, how it runs one task, and the part
 * of a trajectory's inspect page it draws itself. `run`, `batch`, `slurm`,
 * `k8s` and `inspect` read these hooks and never a strategy's name.
 *
 * @module
 */

import type { Config } from "../config.ts";
import type { Environment } from "../env/mod.ts";
import type { Model } from "../model/mod.ts";
import type { Trajectory } from "../trajectory/mod.ts";
import type { OwnSection } from "../trajectory/inspect/trajectory_page.ts";
import type { Helper } from "./helper.ts";

/** A progress report after each step (for `graphplan run`'s stderr lines). */
export interface StepProgress {
  phase: string;
  /** Model calls so far in the run. */
  step: number;
  /** Dollars spent so far. */
  cost: number;
  /** The commands this step ran. */
  commands: string[];
}

/** Everything a strategy gets to solve one task. */
export interface StrategyRun {
  task: string;
  config: Config;
  /** The models to ask: the run's own, or the strategy's candidates ({@linkcode Strategy.candidateModels}). */
  models: Model[];
  env: Environment;
  trajectory: Trajectory;
  /** The helper in the environment; throws when it was not deployed. */
  helper: () => Helper;
  /** Aborted to stop the run at its next safe point (exit status `Interrupted`). */
  stop: AbortSignal;
  onStep: (progress: StepProgress) => void;
  /** The git tree of the working tree when the run started (the patch is diffed from it). */
  baseline?: string;
}

/** How a strategy's run ended (the trajectory is finished and saved). */
export interface StrategyOutcome {
  exitStatus: string;
  submission: string;
  /** Where a structured path fell back to a plainer one, and why. */
  fallback?: { point: string; reason: string };
}

/** A strategy, as the registry holds it. */
export interface Strategy {
  /** One line for `--help`: what it does. */
  summary: string;
  /** The model configs the run asks instead of `config.model` alone (empty: the run's own model). */
  candidateModels?: (config: Config) => Config["model"][];
  /** Solve `run.task`, recording the trajectory; a model error or a stop is an outcome, not an exception. */
  run: (run: StrategyRun) => Promise<StrategyOutcome>;
  /**
   * Its own part of a trajectory's inspect page, from what it recorded in
   * `info`, drawn instead of the phases and plans (absent, or undefined for a
   * run that recorded nothing of its own: the phases and plans).
   */
  inspectSection?: OwnSection;
}
