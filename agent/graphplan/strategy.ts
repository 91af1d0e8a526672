/**
 * The `graphplan` strategy as the registry (`agent/strategies.ts`) holds
 * it: the phase machine over the run's model, with the operator catalog
 * generated from the engine's registries. Its settings are the base
 * configuration's (`agent:`, `templates:`), so it owns no section.
 *
 * @module
 */

import type { Strategy } from "../common/strategy.ts";
import { operatorCatalog } from "./catalog.ts";
import { GraphPlanAgent } from "./mod.ts";

/** The phase machine, registered as `graphplan`. */
export const GRAPHPLAN_STRATEGY: Strategy = {
  summary: "the phase machine: explore, graph, plan, verify, execute, submit",
  run: (run) =>
    new GraphPlanAgent({
      model: run.models[0],
      env: run.env,
      config: run.config,
      trajectory: run.trajectory,
      helper: run.helper,
      operatorCatalog: operatorCatalog(),
      stop: run.stop,
      onStep: run.onStep,
      baseline: run.baseline,
    }).run(run.task),
};
