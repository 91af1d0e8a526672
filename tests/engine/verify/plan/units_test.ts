/**
 * The pieces of plan verification on their own: occurrence classification
 * (layer 4), import resolution (layer 6), step recovery from a plan with
 * schema errors, and the plan integrity gate.
 */

import assert from "node:assert/strict";
import { DocumentStore } from "../../../../engine/parse/documents.ts";
import { Workspace } from "../../../../engine/workspace.ts";
import { classifyOccurrences, importsFrom, verifySteps } from "../../../../engine/verify/plan/mod.ts";
import { AUTH, authRepo, CORPUS_SKIP, repoWith, verifyIn } from "./_support.ts";

Deno.test({
  name: "layer 4: occurrences are classified as definitions, references, in strings and in comments",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const dir = await authRepo();
    const store = new DocumentStore(Workspace.open(dir));
    const doc = await store.get(AUTH);
    assert.deepEqual(classifyOccurrences(doc, "_basic_auth_str"), {
      definitions: 1,
      references: 2,
      in_strings: 0,
      in_comments: 0,
    });
    // `nonce` is a local (references), a dict key in strings, and in the "saved nonce" comment.
    const nonce = classifyOccurrences(doc, "nonce");
    assert.equal(nonce.definitions, 0);
    assert.ok(nonce.references >= 8);
    assert.ok(nonce.in_strings >= 2);
    assert.equal(nonce.in_comments, 1);
    assert.deepEqual(classifyOccurrences(doc, "HTTPDigestAuth").definitions, 1);
    assert.deepEqual(classifyOccurrences(doc, "no_such_name"), {
      definitions: 0,
      references: 0,
      in_strings: 0,
      in_comments: 0,
    });
    await Deno.remove(dir, { recursive: true });
  },
});

Deno.test("layer 6: an import counts when its module resolves to the edited file", () => {
  const imp = (file: string, module: string, symbol: string | null) => ({ file, module, symbol, line: 1 });
  const target = "src/pkg/util.py";
  assert.ok(importsFrom(imp("src/pkg/a.py", ".util", "helper"), target, "helper"));
  assert.ok(importsFrom(imp("src/pkg/sub/a.py", "..util", "helper"), target, "helper"));
  assert.ok(importsFrom(imp("tests/t.py", "pkg.util", "helper"), target, "helper"));
  assert.ok(
    importsFrom(imp("tests/t.py", "pkg", "util"), target, "helper"),
    "from pkg import util; util.helper",
  );
  assert.ok(importsFrom(imp("tests/t.py", "pkg.util", null), target, "helper"), "import pkg.util");
  assert.ok(!importsFrom(imp("tests/t.py", "other.util2", "helper"), target, "helper"));
  assert.ok(!importsFrom(imp("tests/t.py", "pkg.util", "other"), target, "helper"));
  assert.ok(
    !importsFrom(imp("src/pkg/sub/a.py", ".util", "helper"), target, "helper"),
    ".util from sub/ is sub/util",
  );
  assert.ok(importsFrom(imp("src/pkg/__init__.py", ".", "util"), target, "helper"));
  assert.ok(importsFrom(imp("web/app.ts", "./lib/util", "helper"), "web/lib/util.ts", "helper"));
  assert.ok(importsFrom(imp("web/app/x.ts", "../lib", "helper"), "web/lib/index.ts", "helper"));
  assert.ok(!importsFrom(imp("web/app.ts", "lodash", "helper"), "web/lib/util.ts", "helper"));
});

Deno.test("steps: a plan with a bad step still yields its valid steps, at their own index and path", () => {
  const plan = [
    { op: "replace_code", params: { file: "a.py", pattern: "x = 1", replacement: "x = 2" } },
    { op: "replace_code", params: { file: "a.py", pattern: "x = 1" } },
    { op: "rename_symbol", params: { file: "a.py", old_name: "x", new_name: "y" } },
  ];
  const { slots, issues } = verifySteps(plan);
  assert.deepEqual(slots.map((step) => step?.op), ["replace_code", undefined, "rename_symbol"]);
  assert.equal(slots[2]?.index, 2);
  assert.deepEqual(slots[2]?.path, [2]);
  assert.ok(
    issues.some((issue) => issue.code === "missing-parameter" && issue.step === 1 && issue.layer === "0"),
  );
  const object = verifySteps({ define_operators: [], plan: [plan[1], plan[2]] });
  assert.deepEqual(object.slots[1]?.path, ["plan", 1]);
});

Deno.test("the integrity gate: what is not a plan is one layer 0 error and nothing is simulated", async () => {
  const dir = await repoWith({ "a.py": "x = 1\n" });
  for (const notAPlan of [[], ["a.py"], { op: "replace_code" }, "plan", null]) {
    const result = await verifyIn(dir, notAPlan);
    assert.equal(result.passed, false, JSON.stringify(notAPlan));
    assert.ok(result.errors.length >= 1);
    assert.ok(result.errors.every((issue) => issue.layer === "0"));
  }
  await Deno.remove(dir, { recursive: true });
});
