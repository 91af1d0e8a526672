import assert from "node:assert/strict";
import { type Node, parse } from "../../../../engine/parse/mod.ts";
import { StepContext } from "../../../../engine/edit/operator.ts";
import { diffEdit, DocumentStore } from "../../../../engine/parse/documents.ts";
import { EDIT_CHECKS, type EditCheck, runEditChecks } from "../../../../engine/verify/levels/mod.ts";
import { Workspace } from "../../../../engine/workspace.ts";
import { CORPUS_SKIP, loadCorpus } from "../../../_support/corpus.ts";
import { editAndCheck, replace } from "./_support.ts";

const ignore = CORPUS_SKIP !== undefined;
if (CORPUS_SKIP) console.log(`skipping corpus-wide level tests: ${CORPUS_SKIP}`);

Deno.test("levels: EDIT_CHECKS holds L0..L6 in order", () => {
  assert.equal(EDIT_CHECKS.length, 7);
  assert.deepEqual(
    EDIT_CHECKS.map((check) => check.name),
    [
      "checkSyntax",
      "checkKinds",
      "checkContainment",
      "checkReferences",
      "checkImports",
      "checkInterface",
      "checkTriviality",
    ],
  );
});

Deno.test({
  name: "levels: every gold patch of the corpus, applied as whole statements, passes L0–L2",
  ignore,
  async fn() {
    let checked = 0;
    const failures: string[] = [];
    for (const instance of await loadCorpus()) {
      const files = Object.fromEntries(instance.files.map((file) => [file.path, file.before]));
      for (const file of instance.files) {
        if (!file.path.endsWith(".py")) continue;
        const step = await editAndCheck(files, file.path, async (text) => {
          const edit = diffEdit(text, file.after)!;
          return [await widenedEdit(text, file.after, edit.startIndex, edit.oldEndIndex)];
        });
        await Deno.remove(step.dir, { recursive: true });
        checked++;
        for (const issue of step.errors) {
          failures.push(`${instance.instance_id} ${issue.level} ${issue.message}`);
        }
        for (const issue of [...step.errors, ...step.warnings]) {
          assert.equal(issue.step, 3);
          assert.equal(issue.file !== undefined, true);
          assert.match(issue.level!, /^L[0-6]$/);
          assert.equal(issue.severity, ["L0", "L1", "L2"].includes(issue.level!) ? "error" : "warning");
        }
      }
    }
    assert.ok(checked > 200, `${checked} files`);
    assert.deepEqual(failures, []);
  },
});

/**
 * The gold change widened to the statement or definition enclosing it, on
 * whole lines, as an operator would replace it (a text diff may cut through
 * a statement: `elif` → `if` leaves the condition outside the region).
 */
async function widenedEdit(before: string, after: string, start: number, end: number) {
  const tree = await parse("python", before);
  let node: Node | null = tree.rootNode.descendantForIndex(start, Math.max(start, end - 1));
  while (
    node?.parent &&
    !(/(_statement|_definition)$/.test(node.type) && node.startIndex <= start && node.endIndex >= end)
  ) {
    node = node.parent;
  }
  if (node && node.type !== "module") {
    start = Math.min(start, node.startIndex);
    end = Math.max(end, node.endIndex);
  }
  tree.delete();
  start = before.lastIndexOf("\n", start - 1) + 1;
  let tail = before.length - end;
  const lineStart = (text: string, i: number) => i === 0 || i === text.length || text[i - 1] === "\n";
  while (tail > 0 && !(lineStart(before, before.length - tail) && lineStart(after, after.length - tail))) {
    tail--;
  }
  return { start, end: before.length - tail, replacement: after.slice(start, after.length - tail) };
}

Deno.test({
  name: "levels: errors come from L0–L2 only, warnings from L3–L6",
  ignore,
  async fn() {
    const { path, text } = {
      path: "pkg/hooks.py",
      text: "import os\n\n\ndef hooks(x):\n    return os.path.join(x, 'a')\n",
    };
    const step = await editAndCheck({ [path]: text }, path, replace("return os.path.join(x, 'a')", "pass"));
    await Deno.remove(step.dir, { recursive: true });
    assert.deepEqual(step.errors, []);
    assert.deepEqual(step.warnings.map((issue) => `${issue.level}:${issue.code}`).sort(), [
      "L4:import-unused",
      "L6:trivial-body",
    ]);
    const broken = await editAndCheck(
      { [path]: text },
      path,
      replace("return os.path.join(x, 'a')", "return (x"),
    );
    await Deno.remove(broken.dir, { recursive: true });
    assert.ok(broken.errors.length > 0);
    assert.ok(broken.errors.every((issue) => ["L0", "L1", "L2"].includes(issue.level!)));
  },
});

Deno.test("levels: TypeScript edits get L0, L2 and L6 through the generic rules", async () => {
  const path = "src/util.ts";
  const text =
    "export function total(xs: number[]): number {\n  return xs.reduce((a, b) => a + b, 0);\n}\n\nexport const ZERO = 0;\n";
  const stub = await editAndCheck(
    { [path]: text },
    path,
    replace("return xs.reduce((a, b) => a + b, 0);", "return;"),
  );
  await Deno.remove(stub.dir, { recursive: true });
  assert.deepEqual(stub.errors, []);
  assert.deepEqual(stub.warnings.map((issue) => issue.code), ["trivial-body"]);
  // an unclosed block comment swallows the rest of the file
  const broken = await editAndCheck({ [path]: text }, path, replace("a + b, 0);", "a + b, /* 0);"));
  await Deno.remove(broken.dir, { recursive: true });
  assert.deepEqual([...new Set(broken.errors.map((issue) => issue.code))].sort(), [
    "containment-violated",
    "syntax-error",
  ]);
});

Deno.test("levels: a step of several edits (a composed operator) is checked as one change", async () => {
  const dir = await Deno.makeTempDir({ prefix: "graphplan-levels-" });
  try {
    const path = "pkg/calc.py";
    await Deno.mkdir(`${dir}/pkg`);
    await Deno.writeTextFile(`${dir}/${path}`, "import math\n\n\ndef area(r):\n    return math.pi * r * r\n");
    const ctx = new StepContext(new DocumentStore(Workspace.open(dir)), 0);
    let doc = await ctx.store.get(path);
    let at = doc.file.text.indexOf("math.pi * r * r");
    doc = await ctx.edit(path, "replace", [{ start: at, end: at + 15, replacement: "math.pi * radius_sq" }]);
    at = doc.file.text.indexOf("    return");
    await ctx.edit(path, "insert", [{ start: at, end: at, replacement: "    radius_sq = r * r\n" }]);
    const [changed] = await ctx.changedFiles();
    const { errors, warnings } = await runEditChecks({ ...changed, records: ctx.records }, {
      step: 0,
      store: ctx.store,
    });
    assert.deepEqual(errors, []);
    assert.deepEqual(warnings, []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("levels: a check that throws becomes a check-failed warning, the others still run", async () => {
  const path = "m.py";
  const failing: EditCheck = () => Promise.reject(new Error("boom"));
  EDIT_CHECKS.push(failing);
  try {
    const step = await editAndCheck(
      { [path]: "def f():\n    return 1\n" },
      path,
      replace("return 1", "pass"),
    );
    await Deno.remove(step.dir, { recursive: true });
    assert.deepEqual(step.warnings.map((issue) => issue.code), ["trivial-body", "check-failed"]);
    assert.equal(step.warnings[1].level, "L7");
  } finally {
    EDIT_CHECKS.pop();
  }
});
