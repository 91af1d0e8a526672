import assert from "node:assert/strict";
import { dispatchSkip, killAtPause, makeRepo, snapshot, STATE_HOME } from "../exec/_support.ts";
import { LANGUAGES } from "../../../engine/parse/mod.ts";
import { runCli, spawnCli } from "../../_support/cli.ts";
import { slow } from "../../_support/quick.ts";

const SLOW = slow("tests that start processes (the CLI, a helper, pytest, podman, the bundle)");

async function helper(args: string[], stdin = "") {
  const run = await runCli(["helper", ...args], {
    stdin,
    env: { XDG_STATE_HOME: STATE_HOME, NO_COLOR: "1" },
    json: true,
  });
  return { code: run.code, body: (run.json ?? {}) as Record<string, unknown>, stderr: run.stderr };
}

const issues = (body: Record<string, unknown>) => (body.error as { issues: { code: string }[] }).issues;

Deno.test(
  "one-shot requests: result exits 0, error exits 1, params from stdin or --json-in",
  SLOW,
  async () => {
    const dir = makeRepo({ "a.py": "import os\n\n\nclass A:\n    def m(self):\n        return 1\n" });
    const version = await helper(["version", "--repo", dir]);
    assert.equal(version.code, 0);
    assert.deepEqual((version.body.result as { languages: string[] }).languages, [...LANGUAGES]);
    const graph = await helper(["build_graph", "--repo", dir], JSON.stringify({ files: ["a.py"] }));
    assert.equal(graph.code, 0, graph.stderr);
    const symbols = (graph.body.result as { symbols: { name: string; kind: string }[] }).symbols;
    assert.deepEqual(symbols.map((s) => [s.name, s.kind]), [["A", "class"], ["m", "method"]]);
    Deno.writeTextFileSync(`${dir}.params.json`, JSON.stringify({ files: ["a.py"] }));
    const fromFile = await helper(["build_graph", "--repo", dir, "--json-in", `${dir}.params.json`]);
    assert.deepEqual(fromFile.body, graph.body);
    const unknown = await helper(["nope", "--repo", dir]);
    assert.equal(unknown.code, 1);
    assert.equal(issues(unknown.body)[0].code, "method-unknown");
    const malformed = await helper(["build_graph", "--repo", dir], "{files: ");
    assert.equal(malformed.code, 1);
    assert.equal(issues(malformed.body)[0].code, "json-invalid");
    const noRepo = await helper(["version", "--repo", `${dir}/missing`]);
    assert.equal(noRepo.code, 1);
    assert.equal(issues(noRepo.body)[0].code, "repo-not-found");
    const rollback = await helper(["rollback", "--repo", dir]);
    assert.equal(rollback.code, 0);
    assert.equal((rollback.body.result as { nothing_to_do: boolean }).nothing_to_do, true);
    const usage = await helper(["--repo", dir]);
    assert.equal(usage.code, 2);
  },
);

Deno.test(
  "--serve answers line by line, survives bad lines and sees files changed on disk",
  SLOW,
  async () => {
    const dir = makeRepo({ "a.py": "def first():\n    pass\n" });
    const child = spawnCli(["helper", "--serve", "--repo", dir], {
      env: { XDG_STATE_HOME: STATE_HOME, NO_COLOR: "1" },
    });
    const writer = child.stdin.getWriter();
    const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    const next = async (): Promise<Record<string, unknown>> => {
      while (!buffer.includes("\n")) {
        const { value, done } = await lines.read();
        if (done) throw new Error("the server closed its output");
        buffer += value;
      }
      const line = buffer.slice(0, buffer.indexOf("\n"));
      buffer = buffer.slice(line.length + 1);
      return JSON.parse(line);
    };
    const send = (text: string) => writer.write(new TextEncoder().encode(text + "\n"));
    const names = (response: Record<string, unknown>) =>
      (response.result as { symbols: { name: string }[] }).symbols.map((s) => s.name);

    await send(JSON.stringify({ id: 1, method: "build_graph", params: { files: ["a.py"] } }));
    assert.deepEqual(names(await next()), ["first"]);
    await send("this is not json");
    const bad = await next();
    assert.equal(bad.id, null);
    assert.equal(issues(bad)[0].code, "json-invalid");
    await send(JSON.stringify({ id: "x", method: "unknown_method" }));
    const unknown = await next();
    assert.equal(unknown.id, "x");
    assert.equal(issues(unknown)[0].code, "method-unknown");
    Deno.writeTextFileSync(`${dir}/a.py`, "def second():\n    pass\n\n\ndef third():\n    pass\n");
    // Two requests in one write: two lines back, in order.
    await send(
      JSON.stringify({ id: 2, method: "build_graph", params: { files: ["a.py"] } }) + "\n" +
        JSON.stringify({ id: 3, method: "version", params: {} }),
    );
    const second = await next();
    assert.equal(second.id, 2);
    assert.deepEqual(names(second), ["second", "third"]);
    assert.equal((await next()).id, 3);
    await writer.close();
    const status = await child.status;
    assert.equal(status.code, 0);
    await lines.cancel().catch(() => {});
    await child.stderr.cancel();
  },
);

const DISPATCH_SKIP = await dispatchSkip();
if (DISPATCH_SKIP) console.error(`helper cli_test: skipping the real-operator crash test: ${DISPATCH_SKIP}`);

Deno.test("kill -9 of helper --serve during execute_plan, then helper rollback: byte-identical", {
  ignore: DISPATCH_SKIP !== undefined || SLOW.ignore,
}, async () => {
  const dir = makeRepo({ "a.py": "A = 1\nB = 2\n", "b.py": "\ufeffC = 'é'\r\n" });
  const before = snapshot(dir);
  const child = spawnCli(["helper", "--serve", "--repo", dir], {
    env: {
      XDG_STATE_HOME: STATE_HOME,
      GRAPHPLAN_TEST_PAUSE_AFTER_WRITE: "3",
      GRAPHPLAN_TEST_PAUSE_STAGE: "temp",
    },
    stdout: "null",
  });
  const writer = child.stdin.getWriter();
  const step = (file: string, pattern: string, replacement: string) => ({
    op: "replace_code",
    params: { file, pattern, replacement },
  });
  const plan = [step("a.py", "A = 1", "A = 10"), step("b.py", "'é'", "'è'"), step("a.py", "B = 2", "B = 20")];
  await writer.write(
    new TextEncoder().encode(JSON.stringify({ id: 1, method: "execute_plan", params: { plan } }) + "\n"),
  );
  const seen = await killAtPause(child);
  await writer.close().catch(() => {});
  assert.match(seen, /paused at write 3 \(temp\)/);
  assert.notDeepEqual(snapshot(dir), before);
  const rollback = await helper(["rollback", "--repo", dir]);
  assert.equal(rollback.code, 0, rollback.stderr);
  assert.deepEqual((rollback.body.result as { restored: string[] }).restored.sort(), ["a.py", "b.py"]);
  assert.deepEqual(snapshot(dir), before);
});

Deno.test(
  "--serve with real operators: execute_plan, an external edit, execute_step and locate see the new text",
  {
    ignore: DISPATCH_SKIP !== undefined || SLOW.ignore,
  },
  async () => {
    const dir = makeRepo({ "m.py": "class A:\n    def f(self):\n        return 1\n" });
    const child = spawnCli(["helper", "--serve", "--repo", dir], {
      env: { XDG_STATE_HOME: STATE_HOME },
      stderr: "null",
    });
    const writer = child.stdin.getWriter();
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    const ask = async (request: unknown): Promise<Record<string, unknown>> => {
      await writer.write(new TextEncoder().encode(JSON.stringify(request) + "\n"));
      while (!buffer.includes("\n")) {
        const { value, done } = await reader.read();
        if (done) throw new Error("the server closed its output");
        buffer += value;
      }
      const line = buffer.slice(0, buffer.indexOf("\n"));
      buffer = buffer.slice(line.length + 1);
      return JSON.parse(line);
    };
    const replace = (pattern: string, replacement: string) => ({
      op: "replace_code",
      params: { file: "m.py", pattern, replacement },
    });
    const first = await ask({
      id: 1,
      method: "execute_plan",
      params: { plan: [replace("return 1", "return 2")] },
    });
    assert.equal((first.result as { success: boolean }).success, true, JSON.stringify(first));
    Deno.writeTextFileSync(`${dir}/m.py`, "class A:\n    X = 0\n\n    def f(self):\n        return 2\n");
    const second = await ask({ id: 2, method: "execute_step", params: { step: replace("X = 0", "X = 5") } });
    assert.equal((second.result as { success: boolean }).success, true, JSON.stringify(second));
    const located = await ask({
      id: 3,
      method: "locate",
      params: { locator: { file: "m.py", kind: "method", name: "f" } },
    });
    assert.deepEqual((located.result as { nodes: { start_line: number }[] }).nodes.map((n) => n.start_line), [
      4,
    ]);
    const broken = await ask({ id: 4, method: "execute_step", params: { step: replace("X = 5", "X = (5") } });
    assert.equal((broken.result as { rolled_back: boolean }).rolled_back, true);
    await writer.close();
    assert.equal((await child.status).code, 0);
    await reader.cancel().catch(() => {});
    assert.equal(
      Deno.readTextFileSync(`${dir}/m.py`),
      "class A:\n    X = 5\n\n    def f(self):\n        return 2\n",
    );
  },
);

Deno.test(
  "build_graph reports files without a grammar (README.md, Makefile) as graph does: unknown-language",
  SLOW,
  async () => {
    const dir = makeRepo({
      "a.py": "def first():\n    pass\n",
      "README.md": "# A project\n",
      "Makefile": "all:\n\techo hi\n",
    });
    const files = ["README.md", "a.py", "Makefile", "gone.txt"];
    const fromHelper = await helper(["build_graph", "--repo", dir], JSON.stringify({ files }));
    assert.equal(fromHelper.code, 0, fromHelper.stderr);
    const graph = fromHelper.body.result as { symbols: unknown[]; errors: { code: string; file: string }[] };
    const fromCli = await runCli(["graph", "--repo", dir, ...files, "--json"]);
    // The same document as the graph command's: the same symbols and the same errors, in order.
    assert.deepEqual(graph.symbols, fromCli.json.symbols);
    assert.deepEqual(graph.errors, fromCli.json.errors);
    assert.deepEqual(graph.errors.map((issue) => [issue.file, issue.code]), [
      ["README.md", "unknown-language"],
      ["Makefile", "unknown-language"],
      ["gone.txt", "file-not-found"],
    ]);
  },
);
