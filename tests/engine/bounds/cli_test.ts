/**
 * The CLI's bounds: `--timeout` and `--limit` on the commands that run the
 * engine, documented in their --help, and a one-shot helper request over
 * the size limit.
 */

import assert from "node:assert/strict";
import { makeRepo, snapshot, STATE_HOME } from "../exec/_support.ts";
import { runCli } from "../../_support/cli.ts";
import { slow } from "../../_support/quick.ts";

const SLOW = slow("tests that start processes (the CLI, a helper, pytest, podman, the bundle)");

const FILE = "app/service.py";
const SOURCE = "import os\n\n\nclass Service:\n    def run(self, x):\n        return x + 1\n";

const graphplan = (args: string[], stdin = "") =>
  runCli(args, { stdin, env: { XDG_STATE_HOME: STATE_HOME, NO_COLOR: "1" } });

Deno.test(
  "every command that runs the engine documents --timeout and --limit in its --help",
  SLOW,
  async () => {
    for (const command of ["locate", "verify", "apply", "helper"]) {
      const { code, stdout } = await graphplan([command, "--help"]);
      assert.equal(code, 0, command);
      assert.match(stdout, /--timeout SECONDS/, command);
      assert.match(stdout, /--limit KEY=N/, command);
      assert.match(stdout, /max_expanded_steps/, command);
    }
  },
);

Deno.test(
  "apply --timeout: the budget runs out, budget-exceeded, exit 1, every file as it was",
  SLOW,
  async () => {
    const repo = makeRepo({ [FILE]: SOURCE });
    const before = snapshot(repo);
    const steps = Array.from({ length: 300 }, (_, i) => ({
      op: "insert_code",
      params: { file: FILE, anchor_line: 1, position: "after", code: `import m${i}` },
    }));
    const { code, stdout } = await graphplan(
      ["apply", "-", "--repo", repo, "--json", "--timeout", "0.3"],
      JSON.stringify(steps),
    );
    assert.equal(code, 1);
    const result = JSON.parse(stdout);
    assert.equal(result.success, false);
    assert.ok(
      result.errors.some((e: { code: string }) => e.code === "budget-exceeded"),
      stdout.slice(0, 500),
    );
    assert.deepEqual(snapshot(repo), before);
  },
);

Deno.test("--limit and --timeout values are checked: usage error naming the problem", SLOW, async () => {
  const repo = makeRepo({ [FILE]: SOURCE });
  const bad = [["--limit", "max_bananas=3"], ["--limit", "max_file_bytes=-1"], ["--timeout", "soon"]];
  for (const args of bad) {
    const { code, stderr } = await graphplan(["verify", "-", "--repo", repo, ...args], "[]");
    assert.equal(code, 2, args.join(" "));
    assert.match(stderr, /limit|timeout/i);
  }
});

Deno.test("a one-shot helper request over max_request_bytes is request-too-large", SLOW, async () => {
  const repo = makeRepo({ [FILE]: SOURCE });
  const params = JSON.stringify({
    plan: [{ op: "locate", params: { locator: { file: FILE, kind: "class" } } }],
  });
  const { code, stdout } = await graphplan(
    ["helper", "verify_plan", "--repo", repo, "--limit", "max_request_bytes=50"],
    params,
  );
  assert.equal(code, 1);
  assert.equal(JSON.parse(stdout).error.issues[0].code, "request-too-large");
});
