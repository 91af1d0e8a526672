/**
 * The `Model` protocol and the provider-neutral message shape every client
 * translates from. A conversation is a list of {@linkcode Message}s; an
 * assistant turn may carry bash tool calls, and each call is answered by a
 * `tool` message with the same `tool_call_id`.
 *
 * @module
 */

/** One bash tool call the model made. `command` is absent when the call was malformed. */
export interface ToolCall {
  id: string;
  command?: string;
  /** The raw arguments string, kept for the trajectory when it could not be read. */
  arguments?: string;
  /** Tool name as the model sent it (normally `bash`). */
  name?: string;
}

/** A message in provider-neutral form. */
export interface Message {
  role: "system" | "user" | "assistant" | "tool";
  content: string;
  /** Assistant turns: the tool calls made. */
  tool_calls?: ToolCall[];
  /** Tool turns: the call this message answers. */
  tool_call_id?: string;
  /** Anything the agent wants kept in the trajectory (phase, timestamps, ...); never sent. */
  extra?: Record<string, unknown>;
}

/** A command to run, taken from a well-formed tool call. */
export interface Action {
  command: string;
  /** The tool call's id, to answer with a `tool` message. */
  id: string;
}

/** What the model said: text, the commands to run, and the provider's raw answer. */
export interface ModelResponse {
  content: string;
  actions: Action[];
  /** The assistant message to append to the conversation (with its tool calls). */
  message: Message;
  /**
   * Set when the answer cannot be acted on as a whole: no tool call, bad JSON
   * arguments, a missing `command`, an unknown tool. `actions` is then empty;
   * the agent answers every tool call with its format-error prompt instead.
   */
  formatError?: string;
  /** Cost of this call in dollars. */
  cost: number;
  raw: unknown;
}

/**
 * Usage summed over a model's calls (the trajectory's `model_stats`). A
 * run's totals ({@linkcode totalStats}) also carry mini-swe-agent's names for
 * the same two numbers, `instance_cost` (= `cost`) and `api_calls`
 * (= `calls`), so scripts written for its trajectories read ours.
 */
export interface ModelStats {
  cost: number;
  calls: number;
  input_tokens: number;
  output_tokens: number;
  /** mini-swe-agent's name for `cost` (in a run's totals). */
  instance_cost?: number;
  /** mini-swe-agent's name for `calls` (in a run's totals). */
  api_calls?: number;
}

/** Per-call options. */
export interface QueryOptions {
  /** Aborts the call (and its retries). */
  signal?: AbortSignal;
}

/** A chat model that answers with bash tool calls. */
export interface Model {
  /** `provider/model`, e.g. `openai/gpt-5-mini`. */
  readonly name: string;
  readonly stats: ModelStats;
  query(messages: Message[], options?: QueryOptions): Promise<ModelResponse>;
}

/** Settings a model client is built from (the config's `model` section). */
export interface ModelConfig {
  /** `provider/model`: `openai/gpt-5-mini`, `anthropic/claude-sonnet-4-5`, `scripted/demo`. */
  name: string;
  /** Endpoint root, e.g. `http://localhost:8000/v1` for vLLM; provider default when absent. */
  base_url?: string | null;
  temperature?: number | null;
  max_tokens?: number | null;
  /** Per-request timeout in seconds. */
  timeout?: number;
  /** Retries after the first attempt for retryable failures. */
  retries?: number;
  /** First backoff delay in seconds (doubles each retry, with jitter). */
  backoff_initial?: number;
  /** Longest wait between retries in seconds (a server's Retry-After is honoured up to this). */
  backoff_max?: number;
  /** `default`: unknown price is an error; `ignore`: cost counts as 0. */
  cost_tracking?: "default" | "ignore";
  /** Price override in dollars per million tokens. */
  price?: { input: number; output: number } | null;
  /** Scripted model: the file of assistant turns. */
  script?: string | null;
  /** Extra request-body fields passed through to the provider. */
  extra?: Record<string, unknown>;
  /** API key; read from the provider's environment variable when absent. */
  api_key?: string | null;
}

/** A fresh, zeroed `ModelStats`. */
export function emptyStats(): ModelStats {
  return { cost: 0, calls: 0, input_tokens: 0, output_tokens: 0 };
}
