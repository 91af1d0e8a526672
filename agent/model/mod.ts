/**
 * Models: the `Model` protocol and its clients, registered by provider name.
 * A model is named `provider/model`: `openai/gpt-5-mini`,
 * `anthropic/claude-sonnet-4-5`, `openai/qwen` with a `base_url`, litellm's
 * `openrouter/…`, `together_ai/…`, `ollama/…`, `hosted_vllm/…` (the OpenAI
 * client with the provider's URL and key, providers.ts), or `scripted/NAME`
 * with a `script` file.
 *
 * @module
 */

import { AnthropicModel } from "./anthropic.ts";
import { BadRequestError } from "./errors.ts";
import { OpenAIModel } from "./openai.ts";
import { scriptedFromConfig } from "./scripted.ts";
import { compatibleModel, OPENAI_COMPATIBLE } from "./providers.ts";
import type { ClientOptions } from "./settings.ts";
import type { Model, ModelConfig } from "./types.ts";

export * from "./types.ts";
export * from "./errors.ts";
export { AnthropicModel } from "./anthropic.ts";
export { OpenAIModel } from "./openai.ts";
export { loadScript, ScriptedModel, type ScriptedTurn } from "./scripted.ts";
export type { ClientOptions } from "./settings.ts";
export { totalStats } from "./cost.ts";
export { compatibleModel, type CompatibleProvider, OPENAI_COMPATIBLE } from "./providers.ts";

/** Builds a model from its config. */
export type ModelFactory = (config: ModelConfig, options?: ClientOptions) => Model | Promise<Model>;

/** Model clients by provider prefix (litellm's OpenAI-compatible ones: providers.ts). */
export const MODELS: Record<string, ModelFactory> = {
  openai: (config, options) => new OpenAIModel(config, options),
  anthropic: (config, options) => new AnthropicModel(config, options),
  scripted: (config) => scriptedFromConfig(config),
  ...Object.fromEntries(
    Object.keys(OPENAI_COMPATIBLE).map((prefix) => [
      prefix,
      (config: ModelConfig, options?: ClientOptions) => compatibleModel(prefix, config, options),
    ]),
  ),
};

/** The model `config.name` names (`provider/model`). */
export function createModel(config: ModelConfig, options: ClientOptions = {}): Promise<Model> {
  const slash = config.name.indexOf("/");
  const provider = slash > 0 ? config.name.slice(0, slash) : "";
  const factory = MODELS[provider];
  if (!factory) {
    return Promise.reject(
      new BadRequestError(
        `Unknown model provider in "${config.name}": name a model "provider/model" with provider one of ${
          Object.keys(MODELS).map((name) => `"${name}"`).join(", ")
        }`,
      ),
    );
  }
  try {
    return Promise.resolve(factory(config, options));
  } catch (err) {
    return Promise.reject(err);
  }
}
