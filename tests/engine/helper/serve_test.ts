import assert from "node:assert/strict";
import { makeRepo, snapshot } from "../exec/_support.ts";
import { parseTestPlan, runTestStep } from "../exec/_test_operator.ts";
import { handleRequest, serve, Session } from "../../../engine/helper/mod.ts";

/** A session over a live request stream: `ask` sends one line and waits for its response. */
function open(session: Session) {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const input = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  const waiting: ((line: string) => void)[] = [];
  const done = serve(session, input, (line) => {
    waiting.shift()!(line);
    return Promise.resolve();
  });
  return {
    ask(request: unknown): Promise<Record<string, unknown>> {
      const reply = new Promise<string>((resolve) => waiting.push(resolve));
      controller.enqueue(
        new TextEncoder().encode((typeof request === "string" ? request : JSON.stringify(request)) + "\n"),
      );
      return reply.then((line) => JSON.parse(line));
    },
    async close() {
      controller.close();
      await done;
      await session.close();
    },
  };
}

const PY = "def one():\n    return 1\n";

Deno.test("a session executes plans, keeps trees between requests and re-reads files changed on disk", async () => {
  const dir = makeRepo({ "a.py": PY, "b.py": "X = 1\n" });
  const session = Session.open(dir, { parsePlan: parseTestPlan });
  const client = open(session);
  const first = await client.ask({
    id: 1,
    method: "execute_plan",
    params: { plan: [{ op: "replace", file: "a.py", old: "return 1", new: "return 2" }] },
  });
  // compiled: the python3 on PATH that compiled a.py after the plan (null without one)
  const compiled = (first.result as { compiled: string | null }).compiled;
  assert.ok(compiled === null || /^python3\.\d+$/.test(compiled), String(compiled));
  assert.deepEqual(first, {
    id: 1,
    result: {
      success: true,
      rolled_back: false,
      errors: [],
      warnings: [],
      files_changed: ["a.py"],
      outputs: [null],
      compiled,
    },
  });
  // The written document is the session's current one: no re-read, same tree object.
  const afterWrite = await session.store.get("a.py");
  assert.equal(afterWrite.file.text, PY.replace("return 1", "return 2"));
  assert.equal(await session.store.get("a.py"), afterWrite);
  // Someone else edits the file: the next request sees their text.
  Deno.writeTextFileSync(`${dir}/a.py`, "def renamed():\n    return 3\n");
  const graph = await client.ask({ id: "g", method: "build_graph", params: { files: ["a.py"] } });
  assert.deepEqual((graph.result as { symbols: { name: string }[] }).symbols.map((s) => s.name), ["renamed"]);
  const second = await client.ask({
    id: 2,
    method: "execute_step",
    params: { step: { op: "replace", file: "a.py", old: "return 3", new: "return 4" } },
  });
  assert.equal((second.result as { success: boolean }).success, true, JSON.stringify(second));
  assert.equal(Deno.readTextFileSync(`${dir}/a.py`), "def renamed():\n    return 4\n");
  await client.close();
});

Deno.test("a plan that fails is a result with rolled_back, not an error response", async () => {
  const dir = makeRepo({ "a.py": PY, "b.py": "X = 1\n" });
  const before = snapshot(dir);
  const session = Session.open(dir, { parsePlan: parseTestPlan });
  const response = await handleRequest(session, "execute_plan", {
    plan: [
      { op: "replace", file: "b.py", old: "X = 1", new: "X = 2" },
      { op: "replace", file: "a.py", old: "return 1", new: "return (1" },
    ],
  });
  assert.ok("result" in response);
  const result = response.result as Record<string, unknown>;
  assert.equal(result.success, false);
  assert.equal(result.rolled_back, true);
  assert.equal(result.failed_step, 1);
  assert.equal((result.errors as { code: string }[])[0].code, "syntax-error");
  assert.deepEqual(snapshot(dir), before);
  // The session's view is the restored file, not the rolled-back edit.
  assert.equal((await session.store.get("b.py")).file.text, "X = 1\n");
  const dry = await handleRequest(session, "execute_plan", {
    plan: [{ op: "replace", file: "b.py", old: "X = 1", new: "X = 5" }],
    dry_run: true,
  });
  assert.match((dry as { result: { diff: string } }).result.diff, /^-X = 1\n\+X = 5$/m);
  assert.deepEqual(snapshot(dir), before);
  await session.close();
});

Deno.test("malformed lines, unknown methods and bad params get error responses; the session goes on", async () => {
  const dir = makeRepo({ "a.py": PY });
  const client = open(Session.open(dir, { parsePlan: parseTestPlan }));
  const bad = await client.ask("{not json");
  assert.equal(bad.id, null);
  assert.equal((bad.error as { issues: { code: string }[] }).issues[0].code, "json-invalid");
  const array = await client.ask("[1, 2]");
  assert.equal(array.id, null);
  assert.equal((array.error as { issues: { code: string }[] }).issues[0].code, "request-invalid");
  const unknown = await client.ask({ id: 7, method: "frobnicate", params: {} });
  assert.equal(unknown.id, 7);
  assert.equal((unknown.error as { issues: { code: string }[] }).issues[0].code, "method-unknown");
  const noMethod = await client.ask({ id: 8 });
  assert.equal((noMethod.error as { issues: { code: string }[] }).issues[0].code, "request-invalid");
  const badParams = await client.ask({ id: 9, method: "build_graph", params: { files: "a.py" } });
  assert.equal((badParams.error as { issues: { code: string }[] }).issues[0].code, "params-invalid");
  const notObject = await client.ask({ id: 10, method: "version", params: [1] });
  assert.equal((notObject.error as { issues: { code: string }[] }).issues[0].code, "params-invalid");
  const version = await client.ask({ id: 11, method: "version" });
  assert.equal((version.result as { version: string }).version.length > 0, true);
  await client.close();
});

Deno.test("an operator that throws a bug becomes an internal-error response and nothing is left written", async () => {
  const dir = makeRepo({ "a.py": PY, "b.py": "X = 1\n" });
  const before = snapshot(dir);
  const session = Session.open(dir, {
    parsePlan: async (json) => ({
      ...await parseTestPlan(json),
      runStep: async (step, ctx) => {
        if ((step as { op: string }).op === "boom") throw new TypeError("oops");
        return await runTestStep(step, ctx);
      },
    }),
  });
  const response = await handleRequest(session, "execute_plan", {
    plan: [{ op: "replace", file: "b.py", old: "1", new: "2" }, { op: "boom" }],
  });
  assert.ok("error" in response);
  assert.equal(response.error.issues[0].code, "internal-error");
  assert.match(response.error.issues[0].message, /oops/);
  assert.deepEqual(snapshot(dir), before);
  const rollback = await handleRequest(session, "rollback", {});
  assert.deepEqual(rollback, {
    result: { success: true, nothing_to_do: true, restored: [], errors: [], warnings: [] },
  });
  await session.close();
});

Deno.test("locate resolves against the session's live tree; no match is a result with the reason", async () => {
  const dir = makeRepo({
    "m.py": "class A:\n    def f(self):\n        return 1\n\n    def g(self):\n        pass\n",
  });
  const session = Session.open(dir, { parsePlan: parseTestPlan });
  const found = await handleRequest(session, "locate", {
    locator: { file: "m.py", kind: "method", name: "g", parent: { kind: "class", name: "A" } },
  });
  assert.ok("result" in found, JSON.stringify(found));
  const result = found.result as { found: boolean; count: number; nodes: { start_line: number }[] };
  assert.equal(result.found, true);
  assert.deepEqual(result.nodes.map((n) => n.start_line), [5]);
  await handleRequest(session, "execute_step", {
    step: { op: "replace", file: "m.py", old: "    def f(self):\n        return 1\n\n", new: "" },
  });
  const moved = await handleRequest(session, "locate", {
    locator: { file: "m.py", kind: "method", name: "g" },
  });
  assert.deepEqual(
    (moved as { result: { nodes: { start_line: number }[] } }).result.nodes.map((n) => n.start_line),
    [2],
  );
  const none = await handleRequest(session, "locate", {
    locator: { file: "m.py", kind: "method", name: "zzz" },
  });
  assert.ok("result" in none);
  assert.equal((none.result as { found: boolean }).found, false);
  assert.ok((none.result as { errors: unknown[] }).errors.length > 0);
  const invalid = await handleRequest(session, "locate", { locator: { kind: "method" } });
  assert.ok("error" in invalid);
});
