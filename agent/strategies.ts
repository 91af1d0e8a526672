/**
 * Strategies, registered by short name like models (`model/mod.ts`) and
 * environments (`env/mod.ts`): `graphplan` (the phase machine) and `rfsn`
 * (the proposal planner). A strategy is its folder's `strategy.ts` (the
 * hooks of `common/strategy.ts`); adding one is adding its folder, a line
 * here and its name (with the config section it owns, if any) in
 * `config/strategy_sections.ts`, which the type checker holds to this map.
 * `config.ts` reads the names and sections from that table, `run.ts` runs
 * the one `agent.strategy` names, the CLI lists the names; none of them
 * names a strategy.
 *
 * @module
 */

import type { Strategy } from "./common/strategy.ts";
import type { StrategyName } from "./config/strategy_sections.ts";
import { unknownStrategyMessage } from "./config/strategy_sections.ts";
import type { OwnSection } from "./trajectory/inspect/trajectory_page.ts";
import { GRAPHPLAN_STRATEGY } from "./graphplan/strategy.ts";
import { RFSN_STRATEGY } from "./rfsn/strategy.ts";

/** Strategies by `agent.strategy`: exactly the names `config/strategy_sections.ts` lists. */
export const STRATEGIES = {
  graphplan: GRAPHPLAN_STRATEGY,
  rfsn: RFSN_STRATEGY,
} satisfies Record<StrategyName, Strategy>;

/** The strategy registered as `name`, or undefined. */
export function findStrategy(name: string): Strategy | undefined {
  return Object.hasOwn(STRATEGIES, name) ? (STRATEGIES as Record<string, Strategy>)[name] : undefined;
}

/** The part of a trajectory page the strategy `name` draws itself (its `inspectSection`), if any. */
export function inspectSectionOf(name: string): OwnSection | undefined {
  return findStrategy(name)?.inspectSection;
}

/** The strategy registered as `name`; an unknown name throws {@linkcode unknownStrategyMessage}. */
export function strategyNamed(name: string): Strategy {
  const strategy = findStrategy(name);
  if (!strategy) throw new Error(unknownStrategyMessage(name));
  return strategy;
}
