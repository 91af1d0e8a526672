/**
 * Models: the `Model` protocol and its clients, registered by provider name.
 * A model is named `provider/model`: `openai/gpt-5-mini`,
 * `anthropic/claude-sonnet-4-5`, `openai/qwen` with a `base_url`, or
 * `scripted/NAME` with a `script` file.
 *
 * @module
 */

import { AnthropicModel } from "./anthropic.ts";
import { BadRequestError } from "./errors.ts";
import { OpenAIModel } from "./openai.ts";
import { scriptedFromConfig } from "./scripted.ts";
import type { ClientOptions } from "./settings.ts";
import type { Model, ModelConfig } from "./types.ts";

export * from "./types.ts";
export * from "./errors.ts";
export { AnthropicModel } from "./anthropic.ts";
export { OpenAIModel } from "./openai.ts";
export { loadScript, ScriptedModel, type ScriptedTurn } from "./scripted.ts";
export type { ClientOptions } from "./settings.ts";
export { totalStats } from "./cost.ts";

/** Builds a model from its config. */
export type ModelFactory = (config: ModelConfig, options?: ClientOptions) => Model | Promise<Model>;

/** Model clients by provider prefix. */
export const MODELS: Record<string, ModelFactory> = {
  openai: (config, options) => new OpenAIModel(config, options),
  anthropic: (config, options) => new AnthropicModel(config, options),
  scripted: (config) => scriptedFromConfig(config),
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
