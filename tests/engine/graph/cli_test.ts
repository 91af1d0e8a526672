/**
 * `graphplan graph` end to end, as a subprocess of `main.ts`: `--json`
 * prints exactly the graph, the default output is the LLM view, exit codes
 * follow the CLI conventions.
 */

import assert from "node:assert/strict";
import { buildGraph, renderGraphView } from "../../../engine/graph/mod.ts";
import { Workspace } from "../../../engine/workspace.ts";
import { runCli } from "../../_support/cli.ts";
import { slow } from "../../_support/quick.ts";

const SLOW = slow("tests that start processes (the CLI, a helper, pytest, podman, the bundle)");

const SAMPLE = new URL("../../fixtures/sample_project/", import.meta.url).pathname;

const graphplan = (...args: string[]) => runCli(["graph", ...args]);

Deno.test("graph CLI: --json prints exactly the graph", SLOW, async () => {
  const files = ["app/models.py", "app/service.py", "tests/test_service.py"];
  const run = await graphplan("--repo", SAMPLE, "--json", ...files);
  assert.equal(run.code, 0, run.stderr);
  // In a pipe: one compact line, byte for byte the graph's JSON.
  assert.equal(run.stdout, JSON.stringify(await buildGraph(Workspace.open(SAMPLE), files)) + "\n");
});

Deno.test("graph CLI: the default output is the LLM view", SLOW, async () => {
  const files = ["app/models.py", "app/service.py"];
  const run = await graphplan("--repo", SAMPLE, ...files);
  assert.equal(run.code, 0, run.stderr);
  const graph = await buildGraph(Workspace.open(SAMPLE), files);
  assert.equal(run.stdout, renderGraphView(graph) + "\n");
  assert.match(run.stdout, /^FILE: app\/models\.py\n/);
  assert.match(run.stdout, /\n {4}METHOD: order_total \(lines 29-34\)\n/);
  assert.equal(run.stderr, "");
});

Deno.test("graph CLI: exit 1 when a file cannot be read, the others still graphed", SLOW, async () => {
  const run = await graphplan("--repo", SAMPLE, "--json", "app/models.py", "app/missing.py", "README.md");
  assert.equal(run.code, 1);
  const graph = JSON.parse(run.stdout);
  assert.ok(graph.symbols.some((s: { name: string }) => s.name === "Order"));
  assert.deepEqual(graph.errors.map((issue: { code: string }) => issue.code), [
    "file-not-found",
    "unknown-language",
  ]);

  const text = await graphplan("--repo", SAMPLE, "app/models.py", "app/missing.py");
  assert.equal(text.code, 1);
  assert.match(text.stdout, /^FILE: app\/models\.py\n/);
  assert.match(text.stderr, /error\[file-not-found\] app\/missing\.py: /);
});

Deno.test("graph CLI: exit 0 for a file with a syntax error (a warning)", SLOW, async () => {
  const dir = await Deno.makeTempDir({ prefix: "graphplan-graph-cli-" });
  try {
    await Deno.writeTextFile(`${dir}/half.py`, "def done():\n    return 1\n\ndef half(:\n");
    const run = await graphplan("--repo", dir, "--json", "half.py");
    assert.equal(run.code, 0, run.stderr);
    const graph = JSON.parse(run.stdout);
    assert.deepEqual(graph.errors.map((i: { code: string; line: number }) => [i.code, i.line]), [[
      "syntax-error",
      4,
    ]]);
    assert.equal(graph.symbols[0].name, "done");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("graph CLI: usage errors exit 2, --help explains with an example", SLOW, async () => {
  const none = await graphplan("--repo", SAMPLE);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /at least one PATH/);
  const badRepo = await graphplan("--repo", `${SAMPLE}/nope`, "app/models.py");
  assert.equal(badRepo.code, 1);
  assert.match(badRepo.stderr, /repo-not-found/);
  const help = await graphplan("--help");
  assert.equal(help.code, 0);
  assert.match(help.stdout, /Usage: graphplan graph PATH\.\.\. \[--repo DIR\] \[--json\]/);
  assert.match(
    help.stdout,
    /Example:\n {2}graphplan graph --repo tests\/fixtures\/sample_project app\/models\.py/,
  );
});
