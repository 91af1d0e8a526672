import assert from "node:assert/strict";
import { OPERATORS, SURGERY_OPS } from "../../../../engine/ops/registry.ts";
import { assertPythonParses } from "../../../_support/python.ts";
import { CORPUS_SKIP, corpusFile } from "../_edit_support.ts";
import { blockingErrors, run } from "./_support.ts";

const NAMES = [
  "rename_identifier",
  "copy_node",
  "move_node",
  "swap_nodes",
  "delete_node",
  "reorder_children",
  "set_blank_lines",
  "relayout_node",
];

/** The surgery operators' catalog entries, by name. */
const SURGERY = Object.fromEntries(
  [...OPERATORS.values()].filter((op) => op.catalog.group === "surgery").map((op) => [op.name, op]),
);

Deno.test("SURGERY_OPS: the eight tier-1 operators, each a complete catalog entry", () => {
  assert.deepEqual([...SURGERY_OPS].sort(), [...NAMES].sort());
  assert.deepEqual(Object.keys(SURGERY).sort(), [...NAMES].sort());
  for (const [name, { catalog: entry, params: paramsSchema, run }] of Object.entries(SURGERY)) {
    assert.equal(entry.name, name);
    assert.equal(entry.group, "surgery");
    assert.equal(entry.params[0].name, "target", name);
    assert.equal(entry.params[0].kind, "locator", name);
    assert.ok(entry.summary.length > 0 && !entry.summary.includes("\n"), name);
    assert.ok(entry.languages.includes("python"), name);
    const example = entry.example as { op: string; params: Record<string, unknown> };
    assert.equal(example.op, name);
    for (const param of entry.params.filter((p) => p.required)) {
      assert.ok(param.name in example.params, `${name}: example lacks "${param.name}"`);
    }
    assert.ok(paramsSchema.safeParse(example.params).success, `${name}: example fails its schema`);
    assert.equal(typeof run, "function");
  }
  assert.equal(SURGERY.rename_identifier.params.safeParse({ new_name: "x" }).success, false);
});

Deno.test({
  name: "SURGERY_OPS: every catalog example runs on requests/auth.py and passes L0-L2",
  ignore: CORPUS_SKIP !== undefined,
  fn: async () => {
    const file = "requests/auth.py";
    const before = await corpusFile("psf__requests-1766", file);
    for (const [name, { catalog: entry }] of Object.entries(SURGERY)) {
      const { params } = entry.example as { params: Record<string, unknown> };
      const { text, ctx } = await run(name, params, { [file]: before });
      assert.notEqual(text, before, name);
      assert.deepEqual(await blockingErrors(ctx), [], name);
      await assertPythonParses(text, `${name} example's result`);
    }
  },
});

Deno.test("delete_node: accepts target or locator", async () => {
  const source = "import os\nimport sys\n\nprint(os.sep)\n";
  for (const key of ["target", "locator"]) {
    const { text } = await run("delete_node", { [key]: { file: "a.py", kind: "import", index: 1 } }, {
      "a.py": source,
    });
    assert.equal(text, "import os\n\nprint(os.sep)\n", key);
  }
});
