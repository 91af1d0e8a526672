/**
 * The proposal planner (seed 004): proposals, state, scoring, generators,
 * the meta-planner, the gate and the controller, and the strategy that runs
 * them (`graphplan run --strategy rfsn`).
 *
 * @module
 */

export { RfsnAgent, type RfsnAgentOptions, type RfsnResult } from "./agent.ts";
export { Controller } from "./controller.ts";
export { type GateVerdict, validateProposal } from "./gate.ts";
export { MetaPlanner } from "./meta_planner.ts";
export { parseProposal, type Proposal } from "./proposal.ts";
export { ScoringEngine } from "./scoring.ts";
export { StateTracker } from "./state.ts";
