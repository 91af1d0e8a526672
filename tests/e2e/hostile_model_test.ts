/**
 * `graphplan run` against a fake OpenAI-compatible server that answers with
 * malformed turns and unusable usage: the agent never crashes (no exit 3),
 * feeds the problem back, writes its trajectory and preds.json, and keeps
 * its cost limit.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { fakeServer, graphplanRun, readJson, type Reply, sampleRepo, TASK } from "./_support.ts";

interface Outcome {
  code: number;
  stderr: string;
  info: { exit_status: string; model_stats: { cost: number; calls: number; input_tokens: number } };
  preds: Record<string, { model_patch: string }>;
  requests: number;
}

async function run(replies: Reply[], settings: string[]): Promise<Outcome> {
  const ctx = await sampleRepo();
  const server = fakeServer(replies);
  try {
    const result = await graphplanRun([
      ...["--repo", ctx.repo, "--task", TASK, "--id", "hostile", "-o", ctx.out],
      ...["--model", "openai/fake-model", "-c", `model.base_url=${server.url}/v1`],
      ...["-c", "model.price={input: 1.0, output: 2.0}", "-c", "model.retries=0"],
      ...settings.flatMap((spec) => ["-c", spec]),
    ], { env: { OPENAI_API_KEY: "test-key" } });
    const trajectory = await readJson<{ info: Outcome["info"] }>(
      join(ctx.out, "hostile", "hostile.traj.json"),
    );
    const preds = await readJson<Outcome["preds"]>(join(ctx.out, "preds.json"));
    return {
      code: result.code,
      stderr: result.stderr,
      info: trajectory.info,
      preds,
      requests: server.requests.length,
    };
  } finally {
    await server.close();
    await ctx.cleanup();
  }
}

function message(value: unknown, usage: unknown = { prompt_tokens: 10, completion_tokens: 5 }): Reply {
  return { body: { choices: [{ index: 0, message: value }], usage } };
}

Deno.test("e2e run: malformed tool calls are format errors fed back; the run ends cleanly with preds.json", async () => {
  const outcome = await run([
    message({ content: null, tool_calls: "x" }),
    message({ content: null, tool_calls: [null] }),
    message({ content: "thinking", tool_calls: [{ function: null }] }),
  ], ["agent.max_format_errors=3"]);
  assert.equal(outcome.code, 1, outcome.stderr);
  assert.doesNotMatch(outcome.stderr, /TypeError|Internal error/);
  assert.equal(outcome.info.exit_status, "FormatError");
  assert.equal(outcome.requests, 3, "each malformed answer was fed back and the model asked again");
  assert.deepEqual(Object.keys(outcome.preds), ["hostile"]);
});

Deno.test("e2e run: usage that is not a count is charged at the worst case, so the cost limit holds", async () => {
  const call = (usage: unknown) =>
    message({
      content: "",
      tool_calls: [{ id: "c", function: { name: "bash", arguments: '{"command":"ls"}' } }],
    }, usage);
  const outcome = await run(
    [
      call({ prompt_tokens: "1", completion_tokens: "1" }),
      call({ prompt_tokens: -1e9, completion_tokens: -1e9 }),
    ],
    ["agent.cost_limit=0.01", "model.max_tokens=10000"],
  );
  assert.equal(outcome.info.exit_status, "LimitsExceeded", outcome.stderr);
  assert.equal(outcome.requests, 1, "the first unusable usage already spent the limit");
  assert.ok(outcome.info.model_stats.cost >= 0.02, `cost ${outcome.info.model_stats.cost}`);
  assert.equal(typeof outcome.info.model_stats.input_tokens, "number");
});
