import assert from "node:assert/strict";
import {
  AuthenticationError,
  BadRequestError,
  createModel,
  type Message,
  totalStats,
  UnknownPriceError,
} from "../../../agent/model/mod.ts";
import type { ModelConfig } from "../../../agent/model/types.ts";
import { fakeServer, openaiReply } from "./_fake_llm.ts";

const conversation: Message[] = [
  { role: "system", content: "You fix bugs." },
  { role: "user", content: "Fix the parser." },
];

const reply = () =>
  openaiReply(null, [{ arguments: '{"command": "ls"}' }], { prompt_tokens: 1000, completion_tokens: 500 });

function config(name: string, extra: Partial<ModelConfig> = {}): ModelConfig {
  return { name, timeout: 10, retries: 0, ...extra };
}

/** One call of `name` against a fake OpenAI-compatible server whose URL `env(url)` hands the client. */
async function oneCall(
  name: string,
  env: (url: string) => Record<string, string>,
  extra: Partial<ModelConfig> = {},
) {
  const server = fakeServer([reply()]);
  try {
    const model = await createModel(config(name, extra), { env: env(server.url) });
    const response = await model.query(conversation);
    return { request: server.requests[0], response, model };
  } finally {
    await server.close();
  }
}

Deno.test("litellm names: openrouter/... is the OpenAI client at OPENROUTER_API_BASE with OPENROUTER_API_KEY", async () => {
  const { request, response } = await oneCall(
    "openrouter/anthropic/claude-sonnet-4.5",
    (url) => ({
      OPENROUTER_API_BASE: `${url}/api/v1`,
      OPENROUTER_API_KEY: "or-key",
      OPENAI_API_KEY: "wrong",
    }),
    { price: { input: 3, output: 15 } },
  );
  assert.equal(request.path, "/api/v1/chat/completions");
  assert.equal(request.body.model, "anthropic/claude-sonnet-4.5", "the id after the provider prefix");
  assert.equal(request.headers.authorization, "Bearer or-key");
  assert.deepEqual(response.actions.map((action) => action.command), ["ls"]);
  assert.ok(Math.abs(response.cost - (1000 * 3 + 500 * 15) / 1e6) < 1e-12);
});

Deno.test("litellm names: together_ai/... reads TOGETHERAI_API_KEY; without a price it says how to give one", async () => {
  const { request } = await oneCall(
    "together_ai/meta-llama/Llama-3.3-70B-Instruct-Turbo",
    (url) => ({ TOGETHERAI_API_BASE: `${url}/v1`, TOGETHERAI_API_KEY: "tg-key" }),
    { cost_tracking: "ignore" },
  );
  assert.equal(request.path, "/v1/chat/completions");
  assert.equal(request.body.model, "meta-llama/Llama-3.3-70B-Instruct-Turbo");
  assert.equal(request.headers.authorization, "Bearer tg-key");
  await assert.rejects(
    createModel(config("together_ai/x"), { env: { TOGETHERAI_API_KEY: "k" } }),
    (err: Error) => err instanceof UnknownPriceError && /model\.price/.test(err.message),
  );
});

Deno.test("litellm names: ollama/... needs no key, adds /v1 to OLLAMA_API_BASE and costs nothing", async () => {
  const { request, response, model } = await oneCall(
    "ollama/qwen2.5-coder",
    (url) => ({ OLLAMA_API_BASE: url }),
  );
  assert.equal(request.path, "/v1/chat/completions");
  assert.equal(request.body.model, "qwen2.5-coder");
  assert.equal(request.headers.authorization, undefined, "no key sent");
  assert.equal(response.cost, 0);
  assert.equal(model.stats.calls, 1);
});

Deno.test("litellm names: hosted_vllm/... says exactly what to write without a base URL, then works with it", async () => {
  await assert.rejects(
    createModel(config("hosted_vllm/Qwen/Qwen2.5-7B"), { env: {} }),
    (err: Error) =>
      err instanceof BadRequestError &&
      err.message.includes("-c model.base_url=http://HOST:8000/v1") &&
      err.message.includes("HOSTED_VLLM_API_BASE"),
  );
  const viaEnv = await oneCall(
    "hosted_vllm/Qwen/Qwen2.5-7B",
    (url) => ({ HOSTED_VLLM_API_BASE: `${url}/v1`, HOSTED_VLLM_API_KEY: "vllm-key" }),
  );
  assert.equal(viaEnv.request.path, "/v1/chat/completions");
  assert.equal(viaEnv.request.body.model, "Qwen/Qwen2.5-7B");
  assert.equal(viaEnv.request.headers.authorization, "Bearer vllm-key");
  const server = fakeServer([reply()]);
  try {
    // The config's base_url wins over the variable (which points nowhere here).
    const model = await createModel(config("hosted_vllm/m", { base_url: `${server.url}/v1` }), {
      env: { HOSTED_VLLM_API_BASE: "http://127.0.0.1:9/v1" },
    });
    await model.query(conversation);
    assert.equal(server.requests[0].path, "/v1/chat/completions");
  } finally {
    await server.close();
  }
});

Deno.test("litellm names: a missing key is refused before any call, naming the provider's variable", async () => {
  await assert.rejects(
    createModel(config("openrouter/openai/gpt-5-mini", { cost_tracking: "ignore" }), {
      env: { OPENAI_API_KEY: "k" },
    }),
    (err: Error) => err instanceof AuthenticationError && /OPENROUTER_API_KEY is not set/.test(err.message),
  );
});

Deno.test("model_stats: a run's totals carry mini-swe-agent's instance_cost and api_calls beside cost and calls", async () => {
  const { model } = await oneCall(
    "openrouter/x/y",
    (url) => ({ OPENROUTER_API_BASE: `${url}/v1`, OPENROUTER_API_KEY: "k" }),
    { price: { input: 2, output: 4 } },
  );
  const total = totalStats([model, model]);
  assert.equal(total.calls, 2);
  assert.equal(total.api_calls, 2);
  assert.ok(total.cost > 0);
  assert.equal(total.instance_cost, total.cost);
});
