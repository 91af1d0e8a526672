import assert from "node:assert/strict";
import { makeRepo } from "../exec/_support.ts";
import { assertPythonParses, PYTHON_SKIP } from "../../_support/python.ts";
import { executePlan, parsePlanSteps } from "../../../engine/exec/mod.ts";
import { DocumentStore } from "../../../engine/parse/documents.ts";
import { Workspace } from "../../../engine/workspace.ts";

const SERVICE = Deno.readTextFileSync(
  new URL("../../fixtures/sample_project/app/service.py", import.meta.url),
);

async function apply(dir: string, plan: unknown[]) {
  const parsed = await parsePlanSteps(plan);
  assert.deepEqual(parsed.issues.filter((issue) => issue.severity === "error"), []);
  return await executePlan(new DocumentStore(Workspace.open(dir)), parsed.steps, { runStep: parsed.runStep });
}

Deno.test("add_import on an empty file (or one of blank lines) adds the import", async () => {
  for (const [text, expected] of [["", "import os\n"], ["\n", "\nimport os\n"]]) {
    const dir = makeRepo({ "pkg/__init__.py": text });
    const result = await apply(dir, [{
      op: "add_import",
      params: { file: "pkg/__init__.py", import: "import os" },
    }]);
    assert.equal(result.success, true, JSON.stringify(result.errors));
    assert.equal(Deno.readTextFileSync(`${dir}/pkg/__init__.py`), expected);
  }
});

Deno.test("a file with CR-only line endings is edited like any other and keeps lone CRs", {
  ignore: PYTHON_SKIP !== undefined,
}, async () => {
  const cr = SERVICE.replaceAll("\n", "\r");
  const dir = makeRepo({ "app/service.py": cr });
  const result = await apply(dir, [
    { op: "add_import", params: { file: "app/service.py", import: "import sys" } },
    {
      op: "add_method",
      params: { file: "app/service.py", class: "OrderService", code: "def size(self):\n    return 0" },
    },
    {
      template: "replace_expression",
      params: {
        target: {
          file: "app/service.py",
          kind: "attribute",
          name: "discount",
          parent: { kind: "method", name: "order_total", parent: { kind: "class", name: "OrderService" } },
        },
        expression: 'order.customer.discount or Decimal("0")',
      },
    },
  ]);
  assert.equal(result.success, true, JSON.stringify(result.errors));
  const bytes = Deno.readTextFileSync(`${dir}/app/service.py`);
  assert.equal(bytes.includes("\n"), false, "no LF was introduced");
  const text = bytes.replaceAll("\r", "\n");
  assert.match(text, /^import sys$/m);
  assert.ok(text.includes("\n    def size(self):\n        return 0\n"), text);
  assert.match(text, /discount = order\.customer\.discount or Decimal\("0"\)/);
  // CPython reads lone CRs as line breaks: the edited file is valid Python as it is on disk.
  await assertPythonParses(bytes, "app/service.py");
});
