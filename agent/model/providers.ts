/**
 * litellm's `provider/model` names for OpenAI-compatible endpoints
 * (mini-swe-agent users write them): `openrouter/…`, `together_ai/…`,
 * `ollama/…`, `hosted_vllm/…` are the OpenAI client pointed at the
 * provider's URL, with the provider's key variable, the names litellm reads:
 *
 * | prefix        | base URL (unless `model.base_url`)                    | key                    |
 * | ------------- | ----------------------------------------------------- | ---------------------- |
 * | `openrouter`  | `OPENROUTER_API_BASE`, else OpenRouter's API          | `OPENROUTER_API_KEY`   |
 * | `together_ai` | `TOGETHERAI_API_BASE`, else Together AI's API         | `TOGETHERAI_API_KEY`   |
 * | `ollama`      | `OLLAMA_API_BASE` + `/v1`, else `localhost:11434/v1`  | none                   |
 * | `hosted_vllm` | `HOSTED_VLLM_API_BASE`: required (no default server)  | `HOSTED_VLLM_API_KEY`? |
 *
 * The model id sent is the rest of the name (`openrouter/anthropic/claude-x`
 * asks OpenRouter for `anthropic/claude-x`). A model on your own server
 * (`ollama`, `hosted_vllm`) costs nothing unless `model.price` says so.
 *
 * @module
 */

import { AuthenticationError, BadRequestError } from "./errors.ts";
import { OpenAIModel } from "./openai.ts";
import type { ClientOptions } from "./settings.ts";
import { priceTable } from "./cost.ts";
import type { Model, ModelConfig } from "./types.ts";

/** How one litellm provider prefix reaches its OpenAI-compatible endpoint. */
export interface CompatibleProvider {
  /** The endpoint when neither `model.base_url` nor `baseVar` gives one; null: one must be given. */
  baseUrl: string | null;
  /** The variable litellm reads the endpoint from. */
  baseVar: string;
  /** Appended to the variable's URL when it lacks it (Ollama's native root serves OpenAI's API under /v1). */
  suffix?: string;
  /** The variable the key is read from (unless `model.api_key`). */
  keyVar: string | null;
  /** Whether a call without a key is refused before it starts. */
  keyRequired: boolean;
  /** Self-hosted: the price is zero unless the config gives one. */
  local: boolean;
}

/** The litellm prefixes that mean an OpenAI-compatible endpoint. */
export const OPENAI_COMPATIBLE: Record<string, CompatibleProvider> = {
  openrouter: {
    baseUrl: "https://openrouter.ai/api/v1",
    baseVar: "OPENROUTER_API_BASE",
    keyVar: "OPENROUTER_API_KEY",
    keyRequired: true,
    local: false,
  },
  together_ai: {
    baseUrl: "https://api.together.xyz/v1",
    baseVar: "TOGETHERAI_API_BASE",
    keyVar: "TOGETHERAI_API_KEY",
    keyRequired: true,
    local: false,
  },
  ollama: {
    baseUrl: "http://localhost:11434/v1",
    baseVar: "OLLAMA_API_BASE",
    suffix: "/v1",
    keyVar: null,
    keyRequired: false,
    local: true,
  },
  hosted_vllm: {
    baseUrl: null,
    baseVar: "HOSTED_VLLM_API_BASE",
    keyVar: "HOSTED_VLLM_API_KEY",
    keyRequired: false,
    local: true,
  },
};

/** The OpenAI client for a `provider/model` name whose prefix is one of {@linkcode OPENAI_COMPATIBLE}. */
export function compatibleModel(
  prefix: string,
  config: ModelConfig,
  options: ClientOptions = {},
): Model {
  const provider = OPENAI_COMPATIBLE[prefix];
  const read = (name: string | null) => {
    if (!name) return undefined;
    const value = options.env ? options.env[name] : Deno.env.get(name);
    return value && value.trim() !== "" ? value.trim() : undefined;
  };
  const fromEnv = read(provider.baseVar);
  const baseUrl = config.base_url ?? (fromEnv ? withSuffix(fromEnv, provider.suffix) : provider.baseUrl);
  if (!baseUrl) {
    throw new BadRequestError(
      `Model "${config.name}" needs the address of your server: add -c model.base_url=http://HOST:8000/v1 ` +
        `(or "base_url: http://HOST:8000/v1" under "model:" in the config), or export ${provider.baseVar}=http://HOST:8000/v1`,
    );
  }
  const key = config.api_key ?? read(provider.keyVar);
  if (!key && provider.keyRequired) {
    throw new AuthenticationError(
      `${provider.keyVar} is not set: export it for "${prefix}/..." models, or set "model.api_key"`,
    );
  }
  const free = provider.local && !config.price && !priceTable()[config.name];
  return new OpenAIModel({
    ...config,
    base_url: baseUrl,
    ...(key ? { api_key: key } : {}),
    ...(free ? { price: { input: 0, output: 0 } } : {}),
  }, options);
}

function withSuffix(url: string, suffix: string | undefined): string {
  const trimmed = url.replace(/\/+$/, "");
  return suffix && !trimmed.endsWith(suffix) ? trimmed + suffix : trimmed;
}
