/**
 * Strategies, registered by short name like models (`model/mod.ts`) and
 * environments (`env/mod.ts`): `graphplan` (the phase machine) and `rfsn`
 * (the proposal planner). A strategy is its folder's `strategy.ts` (the
 * hooks of `common/strategy.ts`); adding one is adding its folder and a
 * line here. `config.ts` reads the sections they own, `run.ts` runs the
 * one `agent.strategy` names, the CLI lists the names; none of them names
 * a strategy.
 *
 * @module
 */

import { closestNames, didYouMean } from "../engine/base/suggest.ts";
import type { Strategy } from "./common/strategy.ts";
import type { OwnSection } from "./trajectory/inspect/trajectory_page.ts";
import { GRAPHPLAN_STRATEGY } from "./graphplan/strategy.ts";
import { RFSN_STRATEGY } from "./rfsn/strategy.ts";

/** Strategies by `agent.strategy`. */
export const STRATEGIES = {
  graphplan: GRAPHPLAN_STRATEGY,
  rfsn: RFSN_STRATEGY,
} satisfies Record<string, Strategy>;

/**
 * The strategy `agent.strategy` names by default (config/graphplan.yaml, which a test holds to this),
 * known without parsing YAML: help texts are built when their command loads, before any permission
 * the YAML parser needs to read its debug variable.
 */
export const DEFAULT_STRATEGY = "graphplan";

/** The registered names, in registration order. */
export function strategyNames(): string[] {
  return Object.keys(STRATEGIES);
}

/** The names as a choice for messages and help: `graphplan or rfsn`, `(default)` after `defaultName` if given. */
export function strategyChoices(defaultName?: string): string {
  const names = strategyNames().map((name) => name === defaultName ? `${name} (default)` : name);
  return names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} or ${names[names.length - 1]}`;
}

/** Why `name` is no strategy: the registered names and the closest of them. */
export function unknownStrategyMessage(name: string): string {
  const near = didYouMean(closestNames(name, strategyNames(), 1));
  return `Unknown strategy "${name}": use ${strategyChoices()}${near ? ` (${near})` : ""}`;
}

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
