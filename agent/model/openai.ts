/**
 * OpenAI-compatible chat completions with one `bash` tool. Works with OpenAI
 * itself and with anything speaking the same API behind `base_url`: vLLM
 * (`http://host:8000/v1`), Ollama (`http://localhost:11434/v1`), OpenRouter
 * (`https://openrouter.ai/api/v1`), a LiteLLM proxy. The key comes from
 * `OPENAI_API_KEY`; it may be left unset for a local server given by `base_url`.
 *
 * @module
 */

import { AuthenticationError, ModelError } from "./errors.ts";
import {
  OPENAI_WORST_OUTPUT_TOKENS,
  readOpenAIMessage,
  readUsage,
  turnCalls,
  worstInputTokens,
} from "./answer.ts";
import { postJson } from "./http.ts";
import { apiKey, type ClientOptions, type ClientSettings, clientSettings, trimUrl } from "./settings.ts";
import {
  BASH_TOOL_DESCRIPTION,
  BASH_TOOL_NAME,
  BASH_TOOL_PARAMETERS,
  finishCall,
  parseToolCalls,
} from "./tool.ts";
import {
  emptyStats,
  type Message,
  type Model,
  type ModelConfig,
  type ModelResponse,
  type ModelStats,
  type QueryOptions,
} from "./types.ts";

/** Where requests go when the config has no `base_url`. */
export const OPENAI_BASE_URL = "https://api.openai.com/v1";

/** The tool list in OpenAI's shape. */
export const OPENAI_TOOLS = [{
  type: "function",
  function: { name: BASH_TOOL_NAME, description: BASH_TOOL_DESCRIPTION, parameters: BASH_TOOL_PARAMETERS },
}];

/** A client for `/chat/completions`. */
export class OpenAIModel implements Model {
  readonly name: string;
  readonly stats: ModelStats = emptyStats();
  readonly #config: ModelConfig;
  readonly #settings: ClientSettings;
  readonly #url: string;
  readonly #key: string | undefined;

  constructor(config: ModelConfig, options: ClientOptions = {}) {
    this.name = config.name;
    this.#config = config;
    this.#settings = clientSettings(config, options);
    this.#url = `${trimUrl(config.base_url ?? OPENAI_BASE_URL)}/chat/completions`;
    this.#key = apiKey(config, "OPENAI_API_KEY", options);
    if (!this.#key && !config.base_url) {
      throw new AuthenticationError(
        `OPENAI_API_KEY is not set: export it, or point "model.base_url" at a server that needs no key`,
      );
    }
  }

  /** Ask for the next turn. */
  async query(messages: Message[], options: QueryOptions = {}): Promise<ModelResponse> {
    const body: Record<string, unknown> = {
      model: this.#settings.modelId,
      messages: messages.map(toOpenAIMessage),
      tools: OPENAI_TOOLS,
      ...(this.#config.temperature != null ? { temperature: this.#config.temperature } : {}),
      ...(this.#config.max_tokens != null ? { max_tokens: this.#config.max_tokens } : {}),
      ...this.#config.extra,
    };
    const raw = await postJson(this.#url, body, {
      headers: this.#key ? { authorization: `Bearer ${this.#key}` } : {},
      timeout: this.#settings.timeout,
      policy: this.#settings.policy,
      signal: options.signal,
    }) as OpenAIResponse;
    const choice = Array.isArray(raw?.choices) ? raw.choices[0] : undefined;
    if (!choice?.message) {
      throw new ModelError(`Answer has no "choices[0].message": ${JSON.stringify(raw).slice(0, 300)}`);
    }
    const turn = readOpenAIMessage(choice.message);
    const usage = readUsage(raw.usage, { input: ["prompt_tokens"], output: "completion_tokens" }, {
      input: worstInputTokens(body),
      output: this.#config.max_tokens ?? OPENAI_WORST_OUTPUT_TOKENS,
    });
    return finishCall(this.stats, {
      content: turn.content,
      parsed: turnCalls(turn, parseToolCalls),
      price: this.#settings.price,
      inputTokens: usage.input,
      outputTokens: usage.output,
      raw,
    });
  }
}

/** The envelope; the message and the usage inside are read through `answer.ts`. */
interface OpenAIResponse {
  choices?: { message?: unknown }[];
  usage?: unknown;
}

/** A neutral message in OpenAI's shape. */
export function toOpenAIMessage(message: Message): Record<string, unknown> {
  if (message.role === "tool") {
    if (!message.tool_call_id) return { role: "user", content: message.content };
    return { role: "tool", tool_call_id: message.tool_call_id, content: message.content };
  }
  if (message.role === "assistant" && message.tool_calls?.length) {
    return {
      role: "assistant",
      content: message.content === "" ? null : message.content,
      tool_calls: message.tool_calls.map((call) => ({
        id: call.id,
        type: "function",
        function: {
          name: call.name || BASH_TOOL_NAME,
          arguments: call.arguments ?? JSON.stringify({ command: call.command ?? "" }),
        },
      })),
    };
  }
  return { role: message.role, content: message.content };
}
