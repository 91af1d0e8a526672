/**
 * The strategies as the configuration knows them: each name `agent.strategy`
 * accepts, with the section of the configuration it owns (`rfsn:`) or null,
 * and the messages that list the names. `agent/config.ts` builds its schema
 * and merges a chosen strategy's defaults from this table; the registry
 * (`agent/strategies.ts`) holds a strategy for each name, which the type
 * checker enforces both ways. The table sits below the config and the
 * strategies alike and imports neither, so the `Config` type the strategies
 * read is not built from the strategies themselves.
 *
 * @module
 */

import { closestNames, didYouMean } from "../../engine/base/suggest.ts";
import { RFSN_SECTION } from "./rfsn.ts";
import type { StrategySection } from "./section.ts";

/** Each strategy name, in registration order, with the section it owns (null: none). */
export const STRATEGY_SECTIONS = {
  graphplan: null,
  rfsn: RFSN_SECTION,
} as const satisfies Record<string, StrategySection | null>;

/** A name `agent.strategy` accepts. */
export type StrategyName = keyof typeof STRATEGY_SECTIONS;

/**
 * The strategy `agent.strategy` names by default (config/graphplan.yaml, which a test holds to this),
 * known without parsing YAML: help texts are built when their command loads, before any permission
 * the YAML parser needs to read its debug variable.
 */
export const DEFAULT_STRATEGY: StrategyName = "graphplan";

/** True when `name` is a registered strategy (an inherited property such as `toString` is not). */
export function isStrategyName(name: string): name is StrategyName {
  return Object.hasOwn(STRATEGY_SECTIONS, name);
}

/** The section the strategy `name` owns, or undefined (no such strategy, or one without a section). */
export function sectionOf(name: string): StrategySection | undefined {
  return isStrategyName(name) ? STRATEGY_SECTIONS[name] ?? undefined : undefined;
}

/** Every section some strategy owns, in registration order. */
export function strategySections(): StrategySection[] {
  return Object.values(STRATEGY_SECTIONS).flatMap((section) => section ? [section] : []);
}

/** The registered names, in registration order. */
export function strategyNames(): StrategyName[] {
  return Object.keys(STRATEGY_SECTIONS) as StrategyName[];
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
