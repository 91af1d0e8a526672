/**
 * The one tool every model gets: `bash {command}`. Reading the model's calls
 * never throws: anything malformed becomes a format error the agent feeds
 * back, so a confused model gets a second chance instead of ending the run.
 *
 * @module
 */

import { addUsage, callCost, type Price } from "./cost.ts";
import type { Action, ModelResponse, ModelStats, ToolCall } from "./types.ts";

/** The tool's name. */
export const BASH_TOOL_NAME = "bash";

/** What the tool is for, as the model sees it. */
export const BASH_TOOL_DESCRIPTION = "Run a bash command in the task's environment and return its output";

/** JSON Schema of the tool's arguments. */
export const BASH_TOOL_PARAMETERS = {
  type: "object",
  properties: {
    command: { type: "string", description: "The bash command to run" },
  },
  required: ["command"],
} as const;

/** A tool call as a provider sent it: arguments are a JSON string (OpenAI) or an object (Anthropic). */
export interface RawToolCall {
  id?: string;
  name?: string;
  arguments?: unknown;
}

/** The calls, the runnable actions, and what was wrong, if anything. */
export interface ParsedToolCalls {
  toolCalls: ToolCall[];
  actions: Action[];
  formatError?: string;
}

/**
 * Read the provider's tool calls. Every call keeps an id (made up when the
 * provider sent none) so it can be answered; one malformed call makes the
 * whole turn a format error with no actions.
 */
export function parseToolCalls(raw: RawToolCall[], idPrefix = "call"): ParsedToolCalls {
  const toolCalls: ToolCall[] = [];
  const actions: Action[] = [];
  const problems: string[] = [];
  raw.forEach((call, index) => {
    const id = call.id || `${idPrefix}_${index}`;
    const name = call.name ?? "";
    const rawArgs = typeof call.arguments === "string"
      ? call.arguments
      : JSON.stringify(call.arguments ?? {});
    const record: ToolCall = { id, name, arguments: rawArgs };
    toolCalls.push(record);
    if (name !== BASH_TOOL_NAME) {
      problems.push(`Unknown tool "${name}": the only tool is "${BASH_TOOL_NAME}"`);
      return;
    }
    let args: unknown = call.arguments;
    if (typeof args === "string") {
      try {
        args = JSON.parse(args === "" ? "{}" : args);
      } catch {
        problems.push(
          `Cannot read the arguments of the "${BASH_TOOL_NAME}" call: not valid JSON: ${quote(rawArgs)}`,
        );
        return;
      }
    }
    const command = args && typeof args === "object" ? (args as Record<string, unknown>).command : undefined;
    if (typeof command !== "string" || command.trim() === "") {
      problems.push(`The "${BASH_TOOL_NAME}" call has no "command" string`);
      return;
    }
    record.command = command;
    actions.push({ command, id });
  });
  if (raw.length === 0) problems.push(`No tool call: every answer must call the "${BASH_TOOL_NAME}" tool`);
  if (problems.length > 0) return { toolCalls, actions: [], formatError: problems.join("\n") };
  return { toolCalls, actions };
}

function quote(text: string): string {
  return JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}...` : text);
}

/**
 * The response of one call, with its usage added to `stats`: every model
 * (OpenAI-compatible, Anthropic, scripted) ends a query here.
 */
export function finishCall(
  stats: ModelStats,
  call: {
    content: string;
    parsed: ParsedToolCalls;
    price: Price | null;
    inputTokens: number;
    outputTokens: number;
    raw: unknown;
  },
): ModelResponse {
  const cost = callCost(call.price, call.inputTokens, call.outputTokens);
  addUsage(stats, { cost, input_tokens: call.inputTokens, output_tokens: call.outputTokens });
  const { content, parsed } = call;
  return {
    content,
    actions: parsed.actions,
    message: { role: "assistant", content, tool_calls: parsed.toolCalls },
    ...(parsed.formatError ? { formatError: parsed.formatError } : {}),
    cost,
    raw: call.raw,
  };
}
