import assert from "node:assert/strict";
import {
  AnthropicModel,
  AuthenticationError,
  ContextLengthError,
  createModel,
  type Message,
  ModelUnavailableError,
} from "../../../agent/model/mod.ts";
import { toAnthropicMessages } from "../../../agent/model/anthropic.ts";
import type { ModelConfig } from "../../../agent/model/types.ts";
import { anthropicReply, fakeServer, instantPolicy } from "./_fake_llm.ts";

function config(url: string, extra: Partial<ModelConfig> = {}): ModelConfig {
  return {
    name: "anthropic/claude-sonnet-4-5",
    base_url: url,
    api_key: "sk-ant-test",
    timeout: 10,
    retries: 3,
    backoff_initial: 1,
    backoff_max: 30,
    ...extra,
  };
}

const conversation: Message[] = [
  { role: "system", content: "You fix bugs." },
  { role: "user", content: "Fix the parser." },
  {
    role: "assistant",
    content: "Two looks.",
    tool_calls: [{ id: "toolu_1", name: "bash", command: "ls" }, {
      id: "toolu_2",
      name: "bash",
      command: "pwd",
    }],
  },
  { role: "tool", tool_call_id: "toolu_1", content: "src" },
  { role: "tool", tool_call_id: "toolu_2", content: "/testbed" },
  { role: "user", content: "Keep going." },
];

Deno.test("anthropic: tool_use blocks become actions; system, tool results and headers are sent as the API expects", async () => {
  const server = fakeServer([
    anthropicReply([
      { type: "text", text: "Reading the parser." },
      { type: "tool_use", id: "toolu_9", name: "bash", input: { command: "sed -n '1,40p' src/parser.py" } },
    ]),
  ]);
  try {
    const model = new AnthropicModel(config(server.url));
    const response = await model.query(conversation);
    assert.equal(response.content, "Reading the parser.");
    assert.deepEqual(response.actions, [{ command: "sed -n '1,40p' src/parser.py", id: "toolu_9" }]);

    const [request] = server.requests;
    assert.equal(request.path, "/v1/messages");
    assert.equal(request.headers["x-api-key"], "sk-ant-test");
    assert.equal(request.headers["anthropic-version"], "2023-06-01");
    assert.equal(request.body.model, "claude-sonnet-4-5");
    assert.equal(request.body.system, "You fix bugs.");
    assert.equal(request.body.max_tokens, 8192);
    const tools = request.body.tools as { name: string; input_schema: { required: string[] } }[];
    assert.deepEqual(tools.map((t) => t.name), ["bash"]);
    assert.deepEqual(tools[0].input_schema.required, ["command"]);
    const turns = request.body.messages as { role: string; content: Record<string, unknown>[] }[];
    assert.deepEqual(turns.map((t) => t.role), ["user", "assistant", "user"]);
    assert.deepEqual(turns[1].content.map((b) => b.type), ["text", "tool_use", "tool_use"]);
    assert.deepEqual(turns[1].content[1].input, { command: "ls" });
    // Both tool results and the next user text merge into one user turn, results first.
    assert.deepEqual(turns[2].content.map((b) => b.type), ["tool_result", "tool_result", "text"]);
    assert.equal(turns[2].content[0].tool_use_id, "toolu_1");
    assert.equal(turns[2].content[1].content, "/testbed");
  } finally {
    await server.close();
  }
});

Deno.test("anthropic: cost counts cache tokens as input", async () => {
  const server = fakeServer([
    anthropicReply([{ type: "tool_use", id: "t", name: "bash", input: { command: "ls" } }], {
      input_tokens: 200,
      cache_creation_input_tokens: 300,
      cache_read_input_tokens: 500,
      output_tokens: 100,
    }),
  ]);
  try {
    const model = new AnthropicModel(config(server.url));
    const response = await model.query(conversation);
    // claude-sonnet-4-5: $3 in, $15 out per million tokens.
    assert.ok(Math.abs(response.cost - (1000 * 3 + 100 * 15) / 1e6) < 1e-12);
    assert.deepEqual(model.stats, { cost: response.cost, calls: 1, input_tokens: 1000, output_tokens: 100 });
  } finally {
    await server.close();
  }
});

Deno.test("anthropic: 529 overloaded is retried, then the answer is used", async () => {
  const policy = instantPolicy();
  const server = fakeServer([
    { status: 529, body: { type: "error", error: { type: "overloaded_error", message: "Overloaded" } } },
    anthropicReply([{ type: "tool_use", id: "t", name: "bash", input: { command: "ls" } }]),
  ]);
  try {
    const model = new AnthropicModel(config(server.url), { policy });
    const response = await model.query(conversation);
    assert.deepEqual(response.actions.map((a) => a.command), ["ls"]);
    assert.equal(server.requests.length, 2);
    assert.equal(policy.waits.length, 1);
  } finally {
    await server.close();
  }
});

Deno.test("anthropic: 429 honours Retry-After; exhausted retries say so", async () => {
  const policy = instantPolicy();
  const limited = {
    status: 429,
    headers: { "retry-after": "3" },
    body: { error: { message: "rate_limit_error" } },
  };
  const server = fakeServer([limited, limited]);
  try {
    const model = new AnthropicModel(config(server.url, { retries: 1 }), { policy });
    await assert.rejects(model.query(conversation), ModelUnavailableError);
    assert.deepEqual(policy.waits, [3000]);
  } finally {
    await server.close();
  }
});

Deno.test("anthropic: prompt too long is a context-length error, a bad key an auth error, neither retried", async () => {
  const server = fakeServer([
    {
      status: 400,
      body: {
        type: "error",
        error: {
          type: "invalid_request_error",
          message: "prompt is too long: 210000 tokens > 200000 maximum",
        },
      },
    },
    {
      status: 401,
      body: { type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } },
    },
  ]);
  try {
    const model = new AnthropicModel(config(server.url), { policy: instantPolicy() });
    await assert.rejects(model.query(conversation), ContextLengthError);
    await assert.rejects(model.query(conversation), AuthenticationError);
    assert.equal(server.requests.length, 2);
  } finally {
    await server.close();
  }
});

Deno.test("anthropic: a tool_use without a command is a format error", async () => {
  const server = fakeServer([
    anthropicReply([{ type: "tool_use", id: "t1", name: "bash", input: { cmd: "ls" } }]),
    anthropicReply([{ type: "text", text: "Done, I think." }]),
  ]);
  try {
    const model = new AnthropicModel(config(server.url));
    const missing = await model.query(conversation);
    assert.match(missing.formatError!, /no "command"/);
    assert.deepEqual(missing.actions, []);
    const none = await model.query(conversation);
    assert.match(none.formatError!, /No tool call/);
  } finally {
    await server.close();
  }
});

Deno.test("anthropic: a missing key fails before any request", async () => {
  await assert.rejects(
    createModel({ name: "anthropic/claude-sonnet-4-5" }, { env: {} }),
    (err: Error) => err instanceof AuthenticationError && /ANTHROPIC_API_KEY/.test(err.message),
  );
});

Deno.test("anthropic: malformed calls in the history still produce valid tool_use inputs", () => {
  const { turns } = toAnthropicMessages([
    { role: "user", content: "go" },
    { role: "assistant", content: "", tool_calls: [{ id: "x", name: "bash", arguments: "{oops" }] },
    { role: "tool", tool_call_id: "x", content: "" },
  ]);
  const assistant = turns[1] as { content: Record<string, unknown>[] };
  assert.deepEqual(assistant.content, [{ type: "tool_use", id: "x", name: "bash", input: {} }]);
  const result = (turns[2] as { content: Record<string, unknown>[] }).content[0];
  assert.equal(result.content, "(no output)");
});
