/**
 * What a call cost: tokens times the price table in `config/prices.yaml`
 * (dollars per million tokens, keyed by `provider/model`). The table is
 * embedded, so a compiled binary needs no file beside it.
 *
 * @module
 */

import { parse } from "yaml";
import pricesText from "../../config/prices.yaml" with { type: "text" };
import { UnknownPriceError } from "./errors.ts";
import type { ModelConfig, ModelStats } from "./types.ts";

/** Dollars per million tokens. */
export interface Price {
  input: number;
  output: number;
}

let defaultTable: Record<string, Price> | undefined;

/** The embedded price table. */
export function priceTable(): Record<string, Price> {
  defaultTable ??= parse(pricesText) as Record<string, Price>;
  return defaultTable;
}

/**
 * The price for `config.name`: the config's own `price`, else the table's
 * entry. `null` when cost tracking is `ignore` and neither has one; an
 * {@linkcode UnknownPriceError} otherwise.
 */
export function resolvePrice(
  config: Pick<ModelConfig, "name" | "price" | "cost_tracking">,
  table: Record<string, Price> = priceTable(),
): Price | null {
  if (config.price) return config.price;
  const entry = table[config.name];
  if (entry) return entry;
  if (config.cost_tracking === "ignore") return null;
  throw new UnknownPriceError(
    `No price for model "${config.name}" in config/prices.yaml: set "model.price: {input, output}" ` +
      `(dollars per million tokens) or "model.cost_tracking: ignore"`,
  );
}

/** Dollars for one call. */
export function callCost(price: Price | null, inputTokens: number, outputTokens: number): number {
  if (!price) return 0;
  return (inputTokens * price.input + outputTokens * price.output) / 1_000_000;
}

/** Add one call to `stats`. */
export function addUsage(
  stats: ModelStats,
  usage: { cost: number; input_tokens: number; output_tokens: number },
): void {
  stats.calls += 1;
  stats.cost += usage.cost;
  stats.input_tokens += usage.input_tokens;
  stats.output_tokens += usage.output_tokens;
}

/**
 * The stats of several models as one (a run asking more than one model),
 * with mini-swe-agent's `instance_cost` and `api_calls` beside ours.
 */
export function totalStats(models: readonly { readonly stats: ModelStats }[]): Required<ModelStats> {
  const total = { cost: 0, calls: 0, input_tokens: 0, output_tokens: 0 };
  for (const { stats } of models) {
    total.cost += stats.cost;
    total.calls += stats.calls;
    total.input_tokens += stats.input_tokens;
    total.output_tokens += stats.output_tokens;
  }
  return { ...total, instance_cost: total.cost, api_calls: total.calls };
}
