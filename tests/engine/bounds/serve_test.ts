/**
 * The helper session under hostile input, through a real `helper --serve`
 * process: a 50 MB line, a closed stdout, ids JSON cannot hold, and a plan
 * that runs out of its budget.
 */

import assert from "node:assert/strict";
import { makeRepo, snapshot, STATE_HOME } from "../exec/_support.ts";
import { hasPendingJournal } from "../../../engine/exec/mod.ts";
import { Workspace } from "../../../engine/workspace.ts";
import { runCli, spawnCli } from "../../_support/cli.ts";
import { slow } from "../../_support/quick.ts";

const SLOW = slow("tests that start processes (the CLI, a helper, pytest, podman, the bundle)");

const FILE = "app/service.py";
const SOURCE = "import os\n\n\nclass Service:\n    def run(self, x):\n        return x + 1\n";

function start(repo: string, extra: string[] = []) {
  return spawnCli(["helper", "--serve", "--repo", repo, ...extra], {
    env: { XDG_STATE_HOME: STATE_HOME, NO_COLOR: "1" },
  });
}

Deno.test(
  "a 50 MB line is refused at once with its id, and the session answers the next request",
  SLOW,
  async () => {
    const repo = makeRepo({ [FILE]: SOURCE });
    const child = start(repo);
    const writer = child.stdin.getWriter();
    const encoder = new TextEncoder();
    await writer.write(encoder.encode('{"id": "big", "method": "verify_plan", "params": {"plan": "'));
    const chunk = encoder.encode("x".repeat(1 << 20));
    for (let i = 0; i < 50; i++) await writer.write(chunk);
    await writer.write(encoder.encode('"}}\n{"id": 1e400, "method": "version"}\n'));
    await writer.write(encoder.encode('{"id": 12345678901234567890, "method": "version"}\n'));
    await writer.close();
    const out = await child.output();
    const lines = new TextDecoder().decode(out.stdout).trim().split("\n");
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    assert.equal(lines.length, 3);
    const first = JSON.parse(lines[0]);
    assert.equal(first.id, "big");
    assert.equal(first.error.issues[0].code, "request-too-large");
    assert.match(first.error.issues[0].hint, /max_request_bytes/);
    // The ids come back as written, not as null or rounded.
    assert.match(lines[1], /^\{"id":1e400,"result":\{"version"/);
    assert.match(lines[2], /^\{"id":12345678901234567890,"result":/);
  },
);

Deno.test("a closed stdout ends the session with exit 0 and no stack trace", SLOW, async () => {
  const repo = makeRepo({ [FILE]: SOURCE });
  const child = start(repo);
  await child.stdout.cancel(); // the other side stops reading
  const writer = child.stdin.getWriter();
  const line = new TextEncoder().encode('{"id": 1, "method": "version"}\n');
  try {
    for (let i = 0; i < 3; i++) await writer.write(line);
    await writer.close();
  } catch {
    // the helper may be gone already
  }
  const status = await child.status;
  const stderr = new TextDecoder().decode(await new Response(child.stderr).arrayBuffer());
  assert.equal(status.code, 0, stderr);
  assert.doesNotMatch(stderr, /internal error|Error:/);
});

Deno.test(
  "execute_plan out of budget: budget-exceeded, files byte-identical, journal clean, session goes on",
  SLOW,
  async () => {
    const repo = makeRepo({ [FILE]: SOURCE });
    const before = snapshot(repo);
    const child = start(repo);
    const writer = child.stdin.getWriter();
    const steps = Array.from({ length: 400 }, (_, i) => ({
      op: "insert_code",
      params: { file: FILE, anchor_line: 1, position: "after", code: `import m${i}` },
    }));
    const requests = [
      { id: 1, method: "execute_plan", params: { plan: steps, timeout: 0.5 } },
      { id: 2, method: "locate", params: { locator: { file: FILE, kind: "class" } } },
    ];
    await writer.write(new TextEncoder().encode(requests.map((r) => JSON.stringify(r)).join("\n") + "\n"));
    await writer.close();
    const out = await child.output();
    const [first, second] = new TextDecoder().decode(out.stdout).trim().split("\n").map((l) => JSON.parse(l));
    assert.equal(first.result.success, false);
    assert.equal(first.result.rolled_back, true);
    assert.ok(
      first.result.errors.some((e: { code: string }) => e.code === "budget-exceeded"),
      JSON.stringify(first),
    );
    assert.equal(second.result.count, 1);
    assert.deepEqual(snapshot(repo), before);
    Deno.env.set("XDG_STATE_HOME", STATE_HOME);
    assert.equal(hasPendingJournal(Workspace.open(repo)), false);
  },
);

Deno.test("a file over max_file_bytes is file-too-large, not a tree-sitter abort", SLOW, async () => {
  const repo = makeRepo({ [FILE]: SOURCE, "app/huge.py": "x = 1\n".repeat(200_000) });
  const out = await runCli([
    "locate",
    '{"file": "app/huge.py", "kind": "function"}',
    "--repo",
    repo,
    "--json",
    "--limit",
    "max_file_bytes=1000000",
  ], { env: { XDG_STATE_HOME: STATE_HOME, NO_COLOR: "1" } });
  assert.equal(out.code, 1);
  const body = out.json;
  assert.equal(body.errors[0].code, "file-too-large");
  assert.match(body.errors[0].hint, /max_file_bytes/);
});
