/**
 * Hostile and broken provider answers against the real clients over a
 * local fake server: malformed turns are format errors (never a throw), and
 * unusable `usage` is charged as the most the call could have cost.
 */

import assert from "node:assert/strict";
import { AnthropicModel, type Message, OpenAIModel } from "../../../agent/model/mod.ts";
import { OPENAI_WORST_OUTPUT_TOKENS } from "../../../agent/model/answer.ts";
import type { ModelConfig } from "../../../agent/model/types.ts";
import { anthropicReply, fakeServer, openaiReply, type Received, type Reply } from "./_fake_llm.ts";

const PRICE = { input: 3, output: 15 };
const conversation: Message[] = [
  { role: "system", content: "You fix bugs." },
  { role: "user", content: "Fix the parser." },
];

function config(name: string, url: string, extra: Partial<ModelConfig> = {}): ModelConfig {
  return { name, base_url: url, api_key: "k", timeout: 10, retries: 0, price: PRICE, ...extra };
}

async function withServer(replies: Reply[], body: (url: string, requests: Received[]) => Promise<void>) {
  const server = fakeServer(replies);
  try {
    await body(server.url, server.requests);
  } finally {
    await server.close();
  }
}

/** An OpenAI answer whose message and usage are given verbatim (`usage` undefined: no usage field). */
function openaiMessage(message: unknown, usage: unknown): Reply {
  return { body: { choices: [{ index: 0, message }], ...(usage === undefined ? {} : { usage }) } };
}

const USAGE = { prompt_tokens: 10, completion_tokens: 5 };

/** Dollars for tokens at PRICE. */
function dollars(input: number, output: number): number {
  return (input * PRICE.input + output * PRICE.output) / 1_000_000;
}

/** One token per byte of the request body as sent: the independent worst case for input. */
function requestBytes(request: Received): number {
  return new TextEncoder().encode(JSON.stringify(request.body)).length;
}

Deno.test("openai: malformed tool calls and messages are format errors fed back, never a crash", async () => {
  const bad: unknown[] = [
    { role: "assistant", content: null, tool_calls: "x" },
    { role: "assistant", content: null, tool_calls: [null] },
    { role: "assistant", content: null, tool_calls: [{ id: "c", function: null }] },
    { role: "assistant", content: 42, tool_calls: [] },
    { role: "assistant", content: null, tool_calls: [{ id: "c", function: { name: 7, arguments: "{}" } }] },
    "just a string",
  ];
  await withServer(
    [
      ...bad.map((message) => openaiMessage(message, USAGE)),
      openaiReply("", [{ arguments: '{"command": "ls"}' }]),
    ],
    async (url) => {
      const model = new OpenAIModel(config("openai/gpt-5-mini", `${url}/v1`));
      for (const message of bad) {
        const response = await model.query(conversation);
        assert.deepEqual(response.actions, [], JSON.stringify(message));
        assert.match(response.formatError ?? "", /could not be read as text and bash tool calls/);
        assert.deepEqual(response.message.tool_calls, [], "nothing to answer with a tool message");
      }
      const good = await model.query(conversation);
      assert.deepEqual(good.actions.map((action) => action.command), ["ls"]);
      assert.equal(model.stats.calls, bad.length + 1);
    },
  );
});

Deno.test("anthropic: null, untyped and mistyped content blocks are format errors, never a crash", async () => {
  const bad: unknown[] = [
    [null],
    [{ type: "text", text: 5 }],
    [{ text: "no type" }],
    [{ type: "text", text: "ok" }, "loose string"],
  ];
  await withServer(
    [
      ...bad.map((content) => ({
        body: { type: "message", content, usage: { input_tokens: 1, output_tokens: 1 } },
      })),
      anthropicReply([{ type: "thinking", thinking: "hm" }, {
        type: "tool_use",
        id: "t1",
        name: "bash",
        input: { command: "ls" },
      }]),
    ],
    async (url) => {
      const model = new AnthropicModel(config("anthropic/claude-sonnet-4-5", url));
      for (const content of bad) {
        const response = await model.query(conversation);
        assert.deepEqual(response.actions, [], JSON.stringify(content));
        assert.match(response.formatError ?? "", /could not be read/);
      }
      const good = await model.query(conversation);
      assert.deepEqual(good.actions, [{ command: "ls", id: "t1" }], "unknown block kinds are skipped");
    },
  );
});

Deno.test("openai: unusable usage is charged as the most the call could cost, never zero or negative", async () => {
  const usages: unknown[] = [
    { prompt_tokens: "100", completion_tokens: "50" },
    { prompt_tokens: -5_000_000_000, completion_tokens: -1 },
    { prompt_tokens: null, completion_tokens: 1.5 },
    "NaN",
    undefined,
  ];
  await withServer(
    usages.map((usage) => openaiMessage({ content: "x", tool_calls: [] }, usage)),
    async (url, sent) => {
      const model = new OpenAIModel(config("openai/gpt-5-mini", `${url}/v1`, { max_tokens: 4000 }));
      let total = 0;
      for (const [index, usage] of usages.entries()) {
        const response = await model.query(conversation);
        const worst = dollars(requestBytes(sent[index]), 4000);
        assert.ok(Number.isFinite(response.cost) && response.cost > 0, JSON.stringify(usage));
        assert.equal(response.cost, worst, JSON.stringify(usage));
        total += worst;
      }
      assert.equal(model.stats.cost, total);
      assert.equal(typeof model.stats.input_tokens, "number");
      assert.equal(model.stats.output_tokens, 4000 * usages.length);
    },
  );
});

Deno.test("openai: without max_tokens the output side is charged at the ceiling; good usage is exact", async () => {
  await withServer([
    openaiMessage({ content: "x" }, { prompt_tokens: 1200, completion_tokens: "lots" }),
    openaiMessage({ content: "x" }, { prompt_tokens: 1200, completion_tokens: 300 }),
  ], async (url, sent) => {
    const model = new OpenAIModel(config("openai/gpt-5-mini", `${url}/v1`));
    assert.equal((await model.query(conversation)).cost, dollars(1200, OPENAI_WORST_OUTPUT_TOKENS));
    assert.equal((await model.query(conversation)).cost, dollars(1200, 300));
    assert.equal(sent.length, 2);
  });
});

Deno.test("anthropic: a bad cache count or output count is charged at the worst case", async () => {
  const replies = [
    anthropicReply([{ type: "text", text: "a" }], {
      input_tokens: 100,
      output_tokens: 20,
      cache_read_input_tokens: -900,
    } as Record<string, number>),
    anthropicReply([{ type: "text", text: "a" }], { input_tokens: 100, output_tokens: "9" } as never),
    anthropicReply([{ type: "text", text: "a" }], {
      input_tokens: 100,
      output_tokens: 20,
      cache_creation_input_tokens: 50,
    }),
  ];
  await withServer(replies, async (url, sent) => {
    const model = new AnthropicModel(config("anthropic/claude-sonnet-4-5", url, { max_tokens: 2000 }));
    assert.equal((await model.query(conversation)).cost, dollars(requestBytes(sent[0]), 20));
    assert.equal((await model.query(conversation)).cost, dollars(100, 2000));
    assert.equal((await model.query(conversation)).cost, dollars(150, 20));
  });
});
