/**
 * Settings both HTTP clients share: the model id after the provider prefix,
 * the timeout, the retry policy and the price.
 *
 * @module
 */

import { type Price, resolvePrice } from "./cost.ts";
import type { RetryPolicy } from "./http.ts";
import type { ModelConfig } from "./types.ts";

/** Defaults for settings the config leaves out. */
export const CLIENT_DEFAULTS = { timeout: 300, retries: 6, backoff_initial: 2, backoff_max: 120 } as const;

/** What an HTTP client needs besides its URL and key. */
export interface ClientSettings {
  /** The model id the provider knows: `gpt-5-mini` for `openai/gpt-5-mini`. */
  modelId: string;
  timeout: number;
  policy: RetryPolicy;
  price: Price | null;
}

/** Options every client constructor takes besides its config. */
export interface ClientOptions {
  /** Overrides parts of the retry policy (tests: `sleep`, `random`; logging: `onRetry`). */
  policy?: Partial<RetryPolicy>;
  /** Environment variables to read the key from (default `Deno.env`). */
  env?: Record<string, string | undefined>;
}

/** Read the shared settings from `config`; throws when the price is unknown and tracked. */
export function clientSettings(config: ModelConfig, options: ClientOptions = {}): ClientSettings {
  const slash = config.name.indexOf("/");
  return {
    modelId: slash >= 0 ? config.name.slice(slash + 1) : config.name,
    timeout: config.timeout ?? CLIENT_DEFAULTS.timeout,
    policy: {
      retries: config.retries ?? CLIENT_DEFAULTS.retries,
      initial: config.backoff_initial ?? CLIENT_DEFAULTS.backoff_initial,
      max: config.backoff_max ?? CLIENT_DEFAULTS.backoff_max,
      ...options.policy,
    },
    price: resolvePrice(config),
  };
}

/** The key from the config, else from the environment variable `name`. */
export function apiKey(config: ModelConfig, name: string, options: ClientOptions = {}): string | undefined {
  if (config.api_key) return config.api_key;
  const value = options.env ? options.env[name] : Deno.env.get(name);
  return value && value.trim() !== "" ? value.trim() : undefined;
}

/** `base` without trailing slashes. */
export function trimUrl(base: string): string {
  return base.replace(/\/+$/, "");
}
