/**
 * Anthropic's Messages API with one `bash` tool. The key comes from
 * `ANTHROPIC_API_KEY`. System messages become the `system` field; tool
 * results become `tool_result` blocks in a user turn, and consecutive turns
 * of one role are merged, as the API expects strictly alternating turns.
 *
 * @module
 */

import { AuthenticationError, ModelError } from "./errors.ts";
import { readAnthropicContent, readUsage, turnCalls, worstInputTokens } from "./answer.ts";
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
export const ANTHROPIC_BASE_URL = "https://api.anthropic.com";
/** The API version header sent with every request. */
export const ANTHROPIC_VERSION = "2023-06-01";
/** `max_tokens` is required by the API; this is used when the config sets none. */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 8192;

/** The tool list in Anthropic's shape. */
export const ANTHROPIC_TOOLS = [{
  name: BASH_TOOL_NAME,
  description: BASH_TOOL_DESCRIPTION,
  input_schema: BASH_TOOL_PARAMETERS,
}];

type Block = Record<string, unknown>;

/** A client for `/v1/messages`. */
export class AnthropicModel implements Model {
  readonly name: string;
  readonly stats: ModelStats = emptyStats();
  readonly #config: ModelConfig;
  readonly #settings: ClientSettings;
  readonly #url: string;
  readonly #key: string;

  constructor(config: ModelConfig, options: ClientOptions = {}) {
    this.name = config.name;
    this.#config = config;
    this.#settings = clientSettings(config, options);
    const base = trimUrl(config.base_url ?? ANTHROPIC_BASE_URL);
    this.#url = base.endsWith("/v1") ? `${base}/messages` : `${base}/v1/messages`;
    const key = apiKey(config, "ANTHROPIC_API_KEY", options);
    if (!key) {
      throw new AuthenticationError(`ANTHROPIC_API_KEY is not set: export it to use "${config.name}"`);
    }
    this.#key = key;
  }

  /** Ask for the next turn. */
  async query(messages: Message[], options: QueryOptions = {}): Promise<ModelResponse> {
    const { system, turns } = toAnthropicMessages(messages);
    const body: Record<string, unknown> = {
      model: this.#settings.modelId,
      max_tokens: this.#config.max_tokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS,
      ...(system ? { system } : {}),
      messages: turns,
      tools: ANTHROPIC_TOOLS,
      ...(this.#config.temperature != null ? { temperature: this.#config.temperature } : {}),
      ...this.#config.extra,
    };
    const raw = await postJson(this.#url, body, {
      headers: { "x-api-key": this.#key, "anthropic-version": ANTHROPIC_VERSION },
      timeout: this.#settings.timeout,
      policy: this.#settings.policy,
      signal: options.signal,
    }) as AnthropicResponse;
    if (!Array.isArray(raw?.content)) {
      throw new ModelError(`Answer has no "content" list: ${JSON.stringify(raw).slice(0, 300)}`);
    }
    const turn = readAnthropicContent(raw.content);
    const usage = readUsage(
      raw.usage,
      {
        input: ["input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"],
        output: "output_tokens",
      },
      { input: worstInputTokens(body), output: body.max_tokens as number },
    );
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

/** The envelope; the blocks and the usage inside are read through `answer.ts`. */
interface AnthropicResponse {
  content?: unknown;
  usage?: unknown;
}

/** Neutral messages in Anthropic's shape: the system text apart, turns merged by role. */
export function toAnthropicMessages(messages: Message[]): { system: string; turns: Block[] } {
  const system: string[] = [];
  const turns: { role: "user" | "assistant"; content: Block[] }[] = [];
  const push = (role: "user" | "assistant", blocks: Block[]) => {
    const last = turns.at(-1);
    if (last && last.role === role) last.content.push(...blocks);
    else turns.push({ role, content: blocks });
  };
  for (const message of messages) {
    if (message.role === "system") {
      system.push(message.content);
    } else if (message.role === "tool") {
      push(
        "user",
        message.tool_call_id
          ? [{
            type: "tool_result",
            tool_use_id: message.tool_call_id,
            content: message.content || "(no output)",
          }]
          : textBlocks(message.content),
      );
    } else if (message.role === "assistant") {
      const blocks = textBlocks(message.content, false);
      for (const call of message.tool_calls ?? []) {
        blocks.push({
          type: "tool_use",
          id: call.id,
          name: call.name || BASH_TOOL_NAME,
          input: toolInput(call),
        });
      }
      push("assistant", blocks.length > 0 ? blocks : textBlocks(""));
    } else {
      push("user", textBlocks(message.content));
    }
  }
  return { system: system.join("\n\n"), turns };
}

function textBlocks(text: string, keepEmpty = true): Block[] {
  if (text.trim() !== "") return [{ type: "text", text }];
  return keepEmpty ? [{ type: "text", text: "(empty)" }] : [];
}

function toolInput(call: { command?: string; arguments?: string }): unknown {
  if (call.command !== undefined) return { command: call.command };
  try {
    const parsed = JSON.parse(call.arguments ?? "{}");
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return parsed;
  } catch {
    // malformed arguments: send an empty input, the tool_result explains
  }
  return {};
}
