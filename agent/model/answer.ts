/**
 * Schemas for what a provider answers, so no shape of answer can crash the
 * agent or cheat its cost limit.
 *
 * - The assistant turn (OpenAI's `choices[0].message`, Anthropic's
 *   `content` blocks) is read through zod. A turn that does not fit
 *   (`"tool_calls": "x"`, `[null]`, a `null` block) is not thrown: it
 *   becomes a format error with no actions, which the agent feeds back to
 *   the model like any other unusable answer.
 * - `usage` is read field by field: a token count must be a finite,
 *   non-negative integer. A count that is missing, a string, negative or NaN
 *   is replaced by the most the call could have used: for input, one token
 *   per byte of the request body (no tokenizer makes a token of less than a
 *   byte); for output, the request's `max_tokens` (or the provider's ceiling
 *   when none was sent). The call is then charged that at the model's price,
 *   never nothing and never a refund.
 *
 * @module
 */

import * as z from "zod";
import type { ParsedToolCalls, RawToolCall } from "./tool.ts";

/** Output tokens assumed for an OpenAI-compatible call sent without `max_tokens` (the largest current ceiling). */
export const OPENAI_WORST_OUTPUT_TOKENS = 128_000;

const TokenCount = z.number().int().nonnegative().finite();

/** Tokens of one call, with what had to be assumed. */
export interface TokenUsage {
  input: number;
  output: number;
  /** Usage fields that were unusable and charged at the worst case (empty when all were fine). */
  assumed: string[];
}

/**
 * Read token counts from a provider's `usage`: `input` fields are summed
 * (Anthropic counts cache reads and writes apart), `output` is one field.
 * `input` fields after the first may be absent (they count 0); the first
 * input field and the output field must be present and valid, else the
 * worst case (`worst`) is charged for that side.
 */
export function readUsage(
  usage: unknown,
  fields: { input: string[]; output: string },
  worst: { input: number; output: number },
): TokenUsage {
  const record = usage && typeof usage === "object" && !Array.isArray(usage)
    ? usage as Record<string, unknown>
    : {};
  const assumed: string[] = [];
  let input = 0;
  let inputBad = false;
  fields.input.forEach((name, index) => {
    const value = record[name];
    if (value === undefined && index > 0) return;
    const parsed = TokenCount.safeParse(value);
    if (parsed.success) input += parsed.data;
    else {
      inputBad = true;
      assumed.push(name);
    }
  });
  const output = TokenCount.safeParse(record[fields.output]);
  if (!output.success) assumed.push(fields.output);
  return {
    input: inputBad ? Math.max(worst.input, input) : input,
    output: output.success ? output.data : worst.output,
    assumed,
  };
}

/** The worst-case input tokens of a request: one per byte of its JSON body. */
export function worstInputTokens(body: unknown): number {
  return new TextEncoder().encode(JSON.stringify(body)).length;
}

const OpenAIToolCall = z.object({
  id: z.string().optional(),
  type: z.string().optional(),
  function: z.object({ name: z.string().optional(), arguments: z.unknown().optional() }).loose(),
}).loose();

const TextPart = z.object({ text: z.string().optional() }).loose();

const OpenAIMessage = z.object({
  content: z.union([z.string(), z.array(TextPart)]).nullish(),
  tool_calls: z.array(OpenAIToolCall).nullish(),
}).loose();

const TextBlock = z.object({ type: z.literal("text"), text: z.string() }).loose();
const ToolUseBlock = z.object({
  type: z.literal("tool_use"),
  id: z.string().optional(),
  name: z.string().optional(),
  input: z.unknown(),
}).loose();
const OtherBlock = z.object({
  type: z.string().refine(
    (type) => type !== "text" && type !== "tool_use",
    "a text or tool_use block is malformed",
  ),
}).loose();
const AnthropicContent = z.array(z.union([TextBlock, ToolUseBlock, OtherBlock]));

/** An assistant turn read through its schema: its text and its raw tool calls, or why it is unusable. */
export type AssistantTurn =
  | { ok: true; content: string; calls: RawToolCall[] }
  | { ok: false; content: string; problem: string };

/** Read OpenAI's `choices[0].message`. */
export function readOpenAIMessage(message: unknown): AssistantTurn {
  const parsed = OpenAIMessage.safeParse(message);
  if (!parsed.success) return unusable(message, parsed.error);
  const { content, tool_calls } = parsed.data;
  const text = typeof content === "string"
    ? content
    : (content ?? []).map((part) => part.text ?? "").join("");
  return {
    ok: true,
    content: text,
    calls: (tool_calls ?? []).map((call) => ({
      id: call.id,
      name: call.function.name,
      arguments: call.function.arguments,
    })),
  };
}

/** Read Anthropic's `content` blocks. */
export function readAnthropicContent(content: unknown): AssistantTurn {
  const parsed = AnthropicContent.safeParse(content);
  if (!parsed.success) return unusable(null, parsed.error);
  const blocks = parsed.data as {
    type: string;
    text?: string;
    id?: string;
    name?: string;
    input?: unknown;
  }[];
  return {
    ok: true,
    content: blocks.filter((block) => block.type === "text").map((block) => block.text).join("\n"),
    calls: blocks.filter((block) => block.type === "tool_use").map((block) => ({
      id: block.id,
      name: block.name,
      arguments: block.input,
    })),
  };
}

function unusable(message: unknown, error: z.ZodError): AssistantTurn {
  const content = message && typeof message === "object" &&
      typeof (message as { content?: unknown }).content === "string"
    ? (message as { content: string }).content
    : "";
  const where = error.issues.slice(0, 3).map((issue) =>
    `${issue.path.length ? `"${issue.path.join(".")}"` : "the answer"}: ${issue.message}`
  );
  return {
    ok: false,
    content,
    problem: `The answer could not be read as text and bash tool calls (${
      where.join("; ")
    }): answer again with one well-formed "bash" tool call`,
  };
}

/** The tool calls of a turn for `finishCall`: parsed, or none with the turn's problem as format error. */
export function turnCalls(
  turn: AssistantTurn,
  parse: (calls: RawToolCall[]) => ParsedToolCalls,
): ParsedToolCalls {
  if (turn.ok) return parse(turn.calls);
  return { toolCalls: [], actions: [], formatError: turn.problem };
}
