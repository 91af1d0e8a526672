import assert from "node:assert/strict";
import { join } from "node:path";
import { LocalEnvironment } from "../../../agent/env/mod.ts";
import { HelperError, SessionHelper } from "../../../agent/common/mod.ts";
import { slow } from "../../_support/quick.ts";

const SLOW = slow("tests that start processes (the CLI, a helper, pytest, podman, the bundle)");

const MAIN = new URL("../../../main.ts", import.meta.url).pathname;
const CONFIG = new URL("../../../deno.json", import.meta.url).pathname;
const HELPER = [Deno.execPath(), "run", "-A", "--config", CONFIG, MAIN, "helper"];

Deno.test(
  "helper session: the real `graphplan helper --serve` answers version and build_graph",
  SLOW,
  async () => {
    const repo = await Deno.makeTempDir({ prefix: "gp_helper_" });
    try {
      await Deno.writeTextFile(
        join(repo, "order.py"),
        "from decimal import Decimal\n\nclass Order:\n    def total(self):\n        return Decimal(0)\n",
      );
      const env = new LocalEnvironment({ cwd: repo });
      const helper = SessionHelper.start(env, HELPER, { timeout: 120 });
      const version = await helper.call("version", {}) as { version: string; languages: string[] };
      assert.ok(version.languages.includes("python"));
      const graph = await helper.call("build_graph", { files: ["order.py"] }) as {
        symbols: { name: string; kind: string; start_line: number; end_line: number }[];
        imports: { module: string; symbol: string }[];
      };
      assert.deepEqual(graph.symbols.map((s) => [s.name, s.kind, s.start_line, s.end_line]), [
        ["Order", "class", 3, 5],
        ["total", "method", 4, 5],
      ]);
      assert.deepEqual(graph.imports.map((i) => [i.module, i.symbol]), [["decimal", "Decimal"]]);
      await assert.rejects(
        helper.call("no_such_method", {}),
        (err: Error) => err instanceof HelperError && err.issues[0].code === "method-unknown",
      );
      await helper.close();
      await env.close();
    } finally {
      await Deno.remove(repo, { recursive: true });
    }
  },
);

Deno.test("helper session: a helper that dies is restarted once per call", async () => {
  const env = new LocalEnvironment({ cwd: Deno.cwd() });
  // Answers one request, then exits: every call needs a fresh process.
  const script = `read -r line; id=$(printf '%s' "$line" | sed -n 's/.*"id":\\([0-9]*\\).*/\\1/p'); ` +
    `printf '{"id":%s,"result":{"ok":true}}\\n' "$id"`;
  const helper = new SessionHelper(env.startSession(["bash", "-c", script]), { timeout: 30 });
  assert.deepEqual(await helper.call("version", {}), { ok: true });
  assert.deepEqual(await helper.call("version", {}), { ok: true });
  await helper.close();
  await env.close();
});
