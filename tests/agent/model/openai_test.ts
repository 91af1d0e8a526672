import assert from "node:assert/strict";
import {
  AuthenticationError,
  BadRequestError,
  ContextLengthError,
  createModel,
  type Message,
  ModelUnavailableError,
  OpenAIModel,
  UnknownPriceError,
} from "../../../agent/model/mod.ts";
import type { ModelConfig } from "../../../agent/model/types.ts";
import { droppingServer, fakeServer, instantPolicy, openaiReply, type Reply } from "./_fake_llm.ts";

function config(url: string, extra: Partial<ModelConfig> = {}): ModelConfig {
  return {
    name: "openai/gpt-5-mini",
    base_url: `${url}/v1`,
    api_key: "test-key",
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
  { role: "assistant", content: "Looking.", tool_calls: [{ id: "call_a", name: "bash", command: "ls" }] },
  { role: "tool", tool_call_id: "call_a", content: "<output>setup.py src</output>" },
];

async function withServer(replies: Reply[], body: (url: string, requests: () => number) => Promise<void>) {
  const server = fakeServer(replies);
  try {
    await body(server.url, () => server.requests.length);
  } finally {
    await server.close();
  }
}

Deno.test("openai: a tool call becomes an action, the request carries the bash tool and the history", async () => {
  const server = fakeServer([
    openaiReply("Let me grep.", [{
      id: "call_x",
      arguments: JSON.stringify({ command: "grep -rn parse src" }),
    }]),
  ]);
  try {
    const model = new OpenAIModel(config(server.url));
    const response = await model.query(conversation);
    assert.equal(response.content, "Let me grep.");
    assert.deepEqual(response.actions, [{ command: "grep -rn parse src", id: "call_x" }]);
    assert.equal(response.formatError, undefined);
    assert.equal(response.message.role, "assistant");
    assert.equal(response.message.tool_calls?.[0].id, "call_x");

    const [request] = server.requests;
    assert.equal(request.path, "/v1/chat/completions");
    assert.equal(request.headers.authorization, "Bearer test-key");
    assert.equal(request.body.model, "gpt-5-mini");
    const tools = request.body.tools as { function: { name: string; parameters: { required: string[] } } }[];
    assert.equal(tools.length, 1);
    assert.equal(tools[0].function.name, "bash");
    assert.deepEqual(tools[0].function.parameters.required, ["command"]);
    const messages = request.body.messages as Record<string, unknown>[];
    assert.deepEqual(messages.map((m) => m.role), ["system", "user", "assistant", "tool"]);
    assert.equal(messages[3].tool_call_id, "call_a");
    const sentCalls = messages[2].tool_calls as { id: string; function: { arguments: string } }[];
    assert.equal(sentCalls[0].id, "call_a");
    assert.deepEqual(JSON.parse(sentCalls[0].function.arguments), { command: "ls" });
    assert.equal("temperature" in request.body, false);
  } finally {
    await server.close();
  }
});

Deno.test("openai: cost comes from the price table and is summed into model_stats", async () => {
  await withServer([
    openaiReply(null, [{ arguments: '{"command": "ls"}' }], { prompt_tokens: 1000, completion_tokens: 500 }),
    openaiReply(null, [{ arguments: '{"command": "pwd"}' }], { prompt_tokens: 3000, completion_tokens: 100 }),
  ], async (url) => {
    const model = new OpenAIModel(config(url));
    const first = await model.query(conversation);
    // gpt-5-mini: $0.25 in, $2.00 out per million tokens.
    assert.ok(Math.abs(first.cost - (1000 * 0.25 + 500 * 2) / 1e6) < 1e-12);
    await model.query(conversation);
    assert.equal(model.stats.calls, 2);
    assert.equal(model.stats.input_tokens, 4000);
    assert.equal(model.stats.output_tokens, 600);
    assert.ok(Math.abs(model.stats.cost - (4000 * 0.25 + 600 * 2) / 1e6) < 1e-12);
  });
});

Deno.test("openai: a model missing from the price table is an error unless cost tracking is ignored", async () => {
  await withServer([openaiReply(null, [{ arguments: '{"command": "ls"}' }])], async (url) => {
    assert.throws(
      () => new OpenAIModel(config(url, { name: "openai/qwen" })),
      (err: Error) => err instanceof UnknownPriceError && /"openai\/qwen"/.test(err.message),
    );
    const ignoring = new OpenAIModel(config(url, { name: "openai/qwen", cost_tracking: "ignore" }));
    const response = await ignoring.query(conversation);
    assert.equal(response.cost, 0);
    assert.equal(ignoring.stats.calls, 1);
    assert.equal(ignoring.stats.input_tokens, 1000);
  });
  const priced = new OpenAIModel(
    config("http://127.0.0.1:9", { name: "openai/qwen", price: { input: 1, output: 1 } }),
  );
  assert.equal(priced.name, "openai/qwen");
});

Deno.test("openai: 429 waits what Retry-After asks, then succeeds", async () => {
  const policy = instantPolicy();
  await withServer([
    { status: 429, headers: { "retry-after": "7" }, body: { error: { message: "Rate limit reached" } } },
    openaiReply(null, [{ arguments: '{"command": "ls"}' }]),
  ], async (url, requests) => {
    const model = new OpenAIModel(config(url), { policy });
    const response = await model.query(conversation);
    assert.deepEqual(response.actions.map((a) => a.command), ["ls"]);
    assert.equal(requests(), 2);
    assert.deepEqual(policy.waits, [7000]);
    assert.equal(model.stats.calls, 1);
  });
});

Deno.test("openai: a 500 is retried with exponential backoff and jitter", async () => {
  const policy = instantPolicy();
  await withServer([
    { status: 500, body: { error: { message: "Internal error" } } },
    { status: 503, body: "upstream unavailable" },
    openaiReply("ok", [{ arguments: '{"command": "ls"}' }]),
  ], async (url, requests) => {
    const model = new OpenAIModel(config(url, { backoff_initial: 1 }), { policy });
    await model.query(conversation);
    assert.equal(requests(), 3);
    // random() = 0.5 puts each wait at 75% of the exponential step: 1 s, then 2 s.
    assert.deepEqual(policy.waits, [750, 1500]);
  });
});

Deno.test("openai: retries end in ModelUnavailableError once exhausted", async () => {
  const policy = instantPolicy();
  const failing = Array.from(
    { length: 5 },
    () => ({ status: 502, body: { error: { message: "Bad gateway" } } }),
  );
  await withServer(failing, async (url, requests) => {
    const model = new OpenAIModel(config(url, { retries: 2 }), { policy });
    await assert.rejects(model.query(conversation), (err: Error) => {
      assert.ok(err instanceof ModelUnavailableError);
      assert.match(err.message, /after 3 attempts/);
      assert.match(err.message, /Bad gateway/);
      assert.equal(err.exitStatus, "ModelUnavailable");
      return true;
    });
    assert.equal(requests(), 3);
    assert.equal(model.stats.calls, 0);
  });
});

Deno.test("openai: an auth error is not retried", async () => {
  const policy = instantPolicy();
  await withServer([
    { status: 401, body: { error: { message: "Incorrect API key provided", code: "invalid_api_key" } } },
    openaiReply("never", []),
  ], async (url, requests) => {
    const model = new OpenAIModel(config(url), { policy });
    await assert.rejects(model.query(conversation), (err: Error) => {
      assert.ok(err instanceof AuthenticationError);
      assert.equal(err.exitStatus, "AuthenticationError");
      assert.match(err.message, /Incorrect API key/);
      return true;
    });
    assert.equal(requests(), 1);
    assert.deepEqual(policy.waits, []);
  });
});

Deno.test("openai: a context-length error is not retried and names the cause", async () => {
  await withServer([{
    status: 400,
    body: {
      error: {
        message:
          "This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens.",
        code: "context_length_exceeded",
      },
    },
  }], async (url, requests) => {
    const model = new OpenAIModel(config(url), { policy: instantPolicy() });
    await assert.rejects(model.query(conversation), (err: Error) => {
      assert.ok(err instanceof ContextLengthError);
      assert.equal(err.exitStatus, "ContextWindowExceeded");
      assert.equal(err.status, 400);
      return true;
    });
    assert.equal(requests(), 1);
  });
});

Deno.test("openai: another 4xx is a BadRequestError, not retried", async () => {
  await withServer(
    [{ status: 404, body: { error: { message: "The model `gpt-9` does not exist" } } }],
    async (url, requests) => {
      const model = new OpenAIModel(config(url), { policy: instantPolicy() });
      await assert.rejects(model.query(conversation), BadRequestError);
      assert.equal(requests(), 1);
    },
  );
});

Deno.test("openai: a slow answer hits the per-request timeout and is retried", async () => {
  const policy = instantPolicy();
  await withServer([
    { ...openaiReply("late", []), delayMs: 1000 },
    openaiReply(null, [{ arguments: '{"command": "ls"}' }]),
  ], async (url, requests) => {
    const model = new OpenAIModel(config(url, { timeout: 0.2 }), { policy });
    const response = await model.query(conversation);
    assert.deepEqual(response.actions.map((a) => a.command), ["ls"]);
    assert.equal(requests(), 2);
    assert.equal(policy.waits.length, 1);
  });
  await withServer([{ ...openaiReply("late", []), delayMs: 1000 }], async (url) => {
    const model = new OpenAIModel(config(url, { timeout: 0.2, retries: 0 }), { policy: instantPolicy() });
    await assert.rejects(model.query(conversation), /timed out after 0\.2 s/);
  });
});

Deno.test("openai: a dropped connection is retried", async () => {
  const server = droppingServer(1, openaiReply(null, [{ arguments: '{"command": "ls"}' }]).body);
  try {
    const policy = instantPolicy();
    const model = new OpenAIModel(config(server.url), { policy });
    const response = await model.query(conversation);
    assert.deepEqual(response.actions.map((a) => a.command), ["ls"]);
    assert.equal(server.connections(), 2);
    assert.equal(policy.waits.length, 1);
  } finally {
    await server.close();
  }
});

Deno.test("openai: malformed tool calls become a format error, not a crash", async () => {
  await withServer([
    openaiReply("", [{ id: "c1", arguments: "{command: ls" }]),
    openaiReply("", [{ id: "c2", arguments: '{"cmd": "ls"}' }]),
    openaiReply("", [{ id: "c3", name: "python", arguments: '{"code": "print(1)"}' }]),
    openaiReply("I think the fix is obvious.", []),
    openaiReply("", [{ id: "c5", arguments: '{"command": "ls"}' }, { id: "c6", arguments: "" }]),
  ], async (url) => {
    const model = new OpenAIModel(config(url));
    const badJson = await model.query(conversation);
    assert.match(badJson.formatError!, /not valid JSON/);
    assert.deepEqual(badJson.actions, []);
    assert.equal(badJson.message.tool_calls?.[0].id, "c1");
    assert.match((await model.query(conversation)).formatError!, /no "command" string/);
    assert.match((await model.query(conversation)).formatError!, /Unknown tool "python"/);
    const none = await model.query(conversation);
    assert.match(none.formatError!, /No tool call/);
    assert.equal(none.content, "I think the fix is obvious.");
    const mixed = await model.query(conversation);
    assert.deepEqual(mixed.actions, [], "one bad call makes the whole turn a format error");
    assert.deepEqual(mixed.message.tool_calls?.map((c) => c.id), ["c5", "c6"]);
    assert.equal(model.stats.calls, 5);
  });
});

Deno.test("openai: a malformed call in the history is sent back as it was", async () => {
  const server = fakeServer([openaiReply(null, [{ arguments: '{"command": "ls"}' }])]);
  try {
    await new OpenAIModel(config(server.url)).query([
      { role: "user", content: "go" },
      { role: "assistant", content: "", tool_calls: [{ id: "bad", name: "bash", arguments: "{oops" }] },
      { role: "tool", tool_call_id: "bad", content: "format error" },
    ]);
    const messages = server.requests[0].body.messages as Record<string, unknown>[];
    assert.equal(messages[1].content, null);
    assert.deepEqual(messages[1].tool_calls, [
      { id: "bad", type: "function", function: { name: "bash", arguments: "{oops" } },
    ]);
    assert.deepEqual(messages[2], { role: "tool", tool_call_id: "bad", content: "format error" });
  } finally {
    await server.close();
  }
});

Deno.test("openai: no key and no base_url is an authentication error before any request", () => {
  assert.throws(
    () => new OpenAIModel({ name: "openai/gpt-5-mini" }, { env: {} }),
    (err: Error) => err instanceof AuthenticationError && /OPENAI_API_KEY/.test(err.message),
  );
  const fromEnv = new OpenAIModel({ name: "openai/gpt-5-mini" }, { env: { OPENAI_API_KEY: "sk-test" } });
  assert.equal(fromEnv.name, "openai/gpt-5-mini");
});

Deno.test("openai: temperature, max_tokens and extra fields reach the request body", async () => {
  const server = fakeServer([openaiReply(null, [{ arguments: '{"command": "ls"}' }])]);
  try {
    const model = new OpenAIModel(
      config(server.url, { temperature: 0.2, max_tokens: 4096, extra: { reasoning_effort: "low" } }),
    );
    await model.query(conversation);
    assert.equal(server.requests[0].body.temperature, 0.2);
    assert.equal(server.requests[0].body.max_tokens, 4096);
    assert.equal(server.requests[0].body.reasoning_effort, "low");
  } finally {
    await server.close();
  }
});

Deno.test("models are registered by provider name", async () => {
  await assert.rejects(
    createModel({ name: "mystery/model" }),
    (err: Error) => err instanceof BadRequestError && /"openai", "anthropic", "scripted"/.test(err.message),
  );
  const server = fakeServer([]);
  try {
    const model = await createModel(config(server.url));
    assert.ok(model instanceof OpenAIModel);
    await assert.rejects(createModel(config(server.url, { name: "openai/qwen" })), UnknownPriceError);
  } finally {
    await server.close();
  }
});
