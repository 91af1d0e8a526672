/**
 * Locator and kind fixes of issue 27, on real files of the nine-language
 * corpus (axios) and small realistic ones:
 *
 * - a JS function bound to `const` is addressed as its declaration, so
 *   `delete_node` removes the statement (it used to leave `const f = ;`)
 *   and `insert_after_node` lands after its `;` (it used to land between `}`
 *   and `;`);
 * - the JS `import` kind matches `require(...)` declarations;
 * - Ruby `wrap_node` with `begin` / `end` wraps the lines;
 * - a PHP `'single'` string replaced by a `"double"` one keeps its kind;
 * - C's `method` kind is its function (seed 002).
 */

import assert from "node:assert/strict";
import { runStep } from "../../../engine/ops/dispatch.ts";
import { resolveSome } from "../../../engine/locate/mod.ts";
import { parsePlan } from "../../../engine/plan/mod.ts";
import { executePlan, type PlanResult } from "../../../engine/exec/execute.ts";
import { parsePlanSteps } from "../../../engine/exec/wiring.ts";
import type { DocumentStore } from "../../../engine/parse/documents.ts";
import { MULTILANG_SKIP, multilangFile } from "../../_support/multilang.ts";
import { assertNodeParses, contextWith, textOf } from "./_edit_support.ts";

async function step(files: Record<string, string>, raw: Record<string, unknown>, file: string) {
  const { ctx, dir } = await contextWith(files);
  const { plan, issues } = parsePlan([raw]);
  assert.ok(plan, JSON.stringify(issues));
  await runStep(plan.steps[0], ctx);
  const text = await textOf(ctx, file);
  await Deno.remove(dir, { recursive: true });
  return text;
}

/** Run a plan as `graphplan apply` does (checks L0–L6, atomic writes). */
async function applyPlan(store: DocumentStore, document: unknown[]): Promise<PlanResult> {
  const { steps, issues, runStep } = await parsePlanSteps(document);
  assert.deepEqual(issues, []);
  return await executePlan(store, steps, { runStep });
}

const UTILS = "lib/utils.js";

Deno.test({
  name: "a const-bound JS function is its declaration: delete_node removes the whole statement",
  ignore: !!MULTILANG_SKIP,
  async fn() {
    const source = await multilangFile("23a25af0", UTILS);
    const after = await step({ [UTILS]: source }, {
      op: "delete_node",
      params: { target: { file: UTILS, kind: "function", name: "isStream" } },
    }, UTILS);
    assert.ok(!after.includes("const isStream"), "the declaration is gone");
    assert.equal(
      after,
      source.replace("const isStream = (val) => isObject(val) && isFunction(val.pipe);\n", ""),
    );
    await assertNodeParses(after);
  },
});

Deno.test({
  name: "a const-bound JS function is its declaration: insert_after_node lands after its semicolon",
  ignore: !!MULTILANG_SKIP,
  async fn() {
    const source = await multilangFile("23a25af0", UTILS);
    const after = await step({ [UTILS]: source }, {
      op: "insert_after_node",
      params: {
        locator: { file: UTILS, kind: "function", name: "isStream" },
        code: "const isReadable = (val) => isStream(val) && isFunction(val.read);",
      },
    }, UTILS);
    const line = "const isStream = (val) => isObject(val) && isFunction(val.pipe);";
    assert.ok(
      after.includes(`${line}\nconst isReadable = (val) => isStream(val) && isFunction(val.read);\n`),
      "the new declaration follows the whole statement, its semicolon included",
    );
    await assertNodeParses(after);
    // The function's body is still reachable through the declaration.
    const { ctx, dir } = await contextWith({ [UTILS]: source });
    const { nodes } = await resolveSome(ctx.store, {
      file: UTILS,
      kind: "function",
      name: "generateString",
      field: "body",
    });
    assert.equal(nodes[0].type, "statement_block");
    await Deno.remove(dir, { recursive: true });
  },
});

Deno.test({
  name: "the JS import kind matches require() declarations, by module path and bound name",
  ignore: !!MULTILANG_SKIP,
  async fn() {
    const source = await multilangFile("6d0e1934", "lib/axios.js");
    const { ctx, dir } = await contextWith({ "lib/axios.js": source });
    const all = await resolveSome(ctx.store, { file: "lib/axios.js", kind: "import" });
    assert.deepEqual(all.nodes.slice(0, 3).map((node) => node.text), [
      "var utils = require('./utils');",
      "var bind = require('./helpers/bind');",
      "var Axios = require('./core/Axios');",
    ]);
    const bind = await resolveSome(ctx.store, { file: "lib/axios.js", kind: "import", name: "bind" });
    assert.equal(bind.nodes.length, 1);
    const path = await resolveSome(ctx.store, { file: "lib/axios.js", kind: "import", name: "./core/Axios" });
    assert.equal(path.nodes[0].text, "var Axios = require('./core/Axios');");
    await Deno.remove(dir, { recursive: true });
  },
});

const RUBY = `module Rack
  class Files
    def serve(path)
      data = ::File.read(path)
      [200, {}, [data]]
    end
  end
end
`;

Deno.test("Ruby wrap_node with begin / end wraps the statement's lines", async () => {
  const { ctx, dir } = await contextWith({ "lib/files.rb": RUBY });
  const result = await applyPlan(ctx.store, [{
    op: "wrap_node",
    params: {
      locator: { file: "lib/files.rb", kind: "assignment", name: "data" },
      before: "begin",
      after: "end",
    },
  }]);
  assert.deepEqual(result.errors, []);
  assert.equal(
    await Deno.readTextFile(`${dir}/lib/files.rb`),
    RUBY.replace(
      "      data = ::File.read(path)\n",
      "      begin\n        data = ::File.read(path)\n      end\n",
    ),
  );
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a PHP 'single' string replaced by a \"double\" one is not kind-changed", async () => {
  const php = `<?php\nfunction level() {\n    return 'debug';\n}\n`;
  const { ctx, dir } = await contextWith({ "src/level.php": php });
  const result = await applyPlan(ctx.store, [{
    op: "replace_node",
    params: { locator: { file: "src/level.php", kind: "string" }, replacement: '"info"' },
  }]);
  assert.deepEqual(result.errors, []);
  assert.equal(await Deno.readTextFile(`${dir}/src/level.php`), php.replace("'debug'", '"info"'));
  await Deno.remove(dir, { recursive: true });
});

Deno.test("C's method kind is its function definitions, named function", async () => {
  const c =
    `static int add(int a, int b) {\n    return a + b;\n}\n\nint twice(int a) {\n    return add(a, a);\n}\n`;
  const { ctx, dir } = await contextWith({ "src/math.c": c });
  const { nodes } = await resolveSome(ctx.store, { file: "src/math.c", kind: "method", name: "twice" });
  assert.equal(nodes.length, 1);
  assert.equal(nodes[0].startPosition.row, 4);
  const all = await resolveSome(ctx.store, { file: "src/math.c", kind: "method" });
  assert.equal(all.nodes.length, 2);
  await Deno.remove(dir, { recursive: true });
});
