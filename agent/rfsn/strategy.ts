/**
 * The `rfsn` strategy as the registry (`agent/strategies.ts`) holds it:
 * the proposal planner over its candidate models (`rfsn.candidate_models`,
 * each merged over `model`; the run's own model when there are none), with
 * its `rfsn:` section (`agent/config/rfsn.ts`) and config/rfsn.yaml. Its
 * errors end the run the way the phase machine's do: a model error with its
 * exit status, a stop as `Interrupted`, a bug with its stack in the
 * trajectory.
 *
 * @module
 */

import type { Strategy, StrategyOutcome, StrategyRun } from "../common/strategy.ts";
import { Interrupted } from "../common/run_end.ts";
import { ModelError } from "../model/mod.ts";
import { RfsnAgent } from "./agent.ts";
import { rfsnSection } from "./inspect_page.ts";
import { dict } from "../trajectory/inspect/trajectory_view.ts";

/** The proposal planner, registered as `rfsn`. */
export const RFSN_STRATEGY: Strategy = {
  summary: "the proposal planner, every proposal gated (config/rfsn.yaml)",
  candidateModels: (config) =>
    (config.rfsn?.candidate_models ?? []).map((extra) => ({ ...config.model, ...extra })),
  run: runRfsn,
  // A run that ended in setup recorded no steps: its page shows the setup phase.
  inspectSection: (info, exitStatus) => info.rfsn ? rfsnSection(dict(info.rfsn), exitStatus) : undefined,
};

/** One rfsn run, its errors recorded like the phase machine's. */
async function runRfsn(run: StrategyRun): Promise<StrategyOutcome> {
  const { trajectory } = run;
  const agent = new RfsnAgent({
    models: run.models,
    env: run.env,
    config: run.config,
    trajectory,
    helper: run.helper,
    stop: run.stop,
    onStep: run.onStep,
    baseline: run.baseline,
  });
  try {
    const result = await agent.run(run.task);
    trajectory.finish(result.exitStatus, result.submission);
    return result;
  } catch (err) {
    const status = err instanceof ModelError
      ? err.exitStatus
      : err instanceof Error
      ? err.name
      : "InternalError";
    // An outcome (stopped, a model that cannot go on) is a sentence; only a bug keeps its stack.
    trajectory.info.error = err instanceof Interrupted || err instanceof ModelError
      ? err.message
      : err instanceof Error
      ? (err.stack ?? err.message)
      : String(err);
    trajectory.finish(status);
    return { exitStatus: status, submission: "" };
  } finally {
    await trajectory.save();
  }
}
