/**
 * A model that replays assistant turns from a list, for tests and the demo:
 * deterministic, offline, free. A script is YAML or JSON:
 *
 * ```yaml
 * - content: Let me look at the repository first.
 *   command: ls -la
 * - command: grep -rn "def parse" src/
 * - commands: [cat a.py, cat b.py]      # several calls in one turn
 * - content: I am done.                  # no call: a format error, as from a real model
 * - tool_calls:                          # raw calls, to replay malformed ones
 *     - {name: bash, arguments: "{not json"}
 * ```
 *
 * Running past the end is a {@linkcode ModelError}. Every conversation the
 * model was shown is kept in `received`, so tests can check the prompts.
 *
 * @module
 */

import { parse } from "yaml";
import { ModelError } from "./errors.ts";
import type { Price } from "./cost.ts";
import { finishCall, parseToolCalls, type RawToolCall } from "./tool.ts";
import {
  emptyStats,
  type Message,
  type Model,
  type ModelConfig,
  type ModelResponse,
  type ModelStats,
} from "./types.ts";
import { readFailure } from "../../engine/base/read_failure.ts";

/** One scripted assistant turn. */
export interface ScriptedTurn {
  content?: string;
  /** One bash call. */
  command?: string;
  /** Several bash calls. */
  commands?: string[];
  /** Raw tool calls, passed through the same reader as a provider's. */
  tool_calls?: RawToolCall[];
  /** Token counts to add to the stats (priced by `model.price` when it is set; free otherwise). */
  usage?: { input_tokens?: number; output_tokens?: number };
}

/** Replays {@linkcode ScriptedTurn}s in order. */
export class ScriptedModel implements Model {
  readonly name: string;
  readonly stats: ModelStats = emptyStats();
  /** The messages of every query, in order (copies). */
  readonly received: Message[][] = [];
  readonly #turns: ScriptedTurn[];
  readonly #price: Price | null;

  constructor(turns: ScriptedTurn[], options: { name?: string; price?: Price | null } = {}) {
    this.name = options.name ?? "scripted/test";
    this.#turns = turns;
    this.#price = options.price ?? null;
  }

  /** Turns not yet replayed. */
  get remaining(): number {
    return this.#turns.length - this.received.length;
  }

  /** The next turn. */
  query(messages: Message[]): Promise<ModelResponse> {
    const index = this.received.length;
    const turn = this.#turns[index];
    if (!turn) {
      return Promise.reject(
        new ModelError(
          `Scripted model "${this.name}" has no turn ${index + 1}: the script has ${this.#turns.length}`,
        ),
      );
    }
    this.received.push(structuredClone(messages));
    const calls: RawToolCall[] = turn.tool_calls ??
      [...(turn.command !== undefined ? [turn.command] : []), ...(turn.commands ?? [])].map((command) => ({
        name: "bash",
        arguments: JSON.stringify({ command }),
      }));
    const parsed = parseToolCalls(calls, `scripted_${index}`);
    const content = turn.content ?? "";
    return Promise.resolve(finishCall(this.stats, {
      content,
      parsed,
      price: this.#price,
      inputTokens: turn.usage?.input_tokens ?? 0,
      outputTokens: turn.usage?.output_tokens ?? 0,
      raw: turn,
    }));
  }
}

/** Read a script file (YAML or JSON: a list of turns, or `{turns: [...]}`). */
export async function loadScript(path: string): Promise<ScriptedTurn[]> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (err) {
    throw new ModelError(`Cannot read model script "${path}": ${readFailure(err)}`);
  }
  let data: unknown;
  try {
    data = parse(text);
  } catch (err) {
    throw new ModelError(`Cannot parse model script "${path}": ${(err as Error).message}`);
  }
  const turns = Array.isArray(data) ? data : (data as { turns?: unknown })?.turns;
  if (!Array.isArray(turns) || turns.some((turn) => !turn || typeof turn !== "object")) {
    throw new ModelError(`Model script "${path}" is not a list of turns`);
  }
  return turns as ScriptedTurn[];
}

/** A scripted model from `config.script`. */
export async function scriptedFromConfig(config: ModelConfig): Promise<ScriptedModel> {
  if (!config.script) {
    throw new ModelError(`Model "${config.name}" needs "model.script": a file of assistant turns`);
  }
  return new ScriptedModel(await loadScript(config.script), {
    name: config.name,
    price: config.price ?? null,
  });
}
