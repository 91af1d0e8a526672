/**
 * Every registry entry's worked example really applies to the fixture it
 * names (tests/fixtures/templates/), the result parses with CPython, and
 * applying the same step a second time never duplicates the edit.
 */

import assert from "node:assert/strict";
import { TEMPLATES } from "../../../../engine/edit/templates/mod.ts";
import { defaultPostChecks } from "../../../../engine/verify/post_checks.ts";
import { IssueError } from "../../../../engine/base/issue.ts";
import { assertPythonParses } from "../../../_support/python.ts";
import { contextWith, textOf } from "../_edit_support.ts";

const FIXTURES = new URL("../../../fixtures/templates/", import.meta.url);

async function fixture(path: string): Promise<string> {
  return await Deno.readTextFile(new URL(path, FIXTURES));
}

const NAMES = [
  "guard_clause",
  "wrap_try_except",
  "add_parameter",
  "replace_expression",
  "extract_variable",
  "add_import_and_use",
  "add_import_name",
  "change_signature",
  "add_base_class",
  "parenthesize_import",
  "add_method",
  "modify_condition",
  "add_conditional_branch",
  "replace_function_body",
  "wrap_context_manager",
  "add_decorator",
  "inline_variable",
  "change_return_value",
  "add_class_attribute",
  "rewrite_comment",
  "replace_comment",
  "insert_sibling",
  "set_line_comment",
  "add_comment",
];

Deno.test("registry: exactly the 24 templates, each a complete catalog entry", () => {
  assert.deepEqual(Object.keys(TEMPLATES).sort(), [...NAMES].sort());
  for (const [name, entry] of Object.entries(TEMPLATES)) {
    assert.equal(entry.name, name);
    assert.ok(["adding", "modifying", "wrapping", "restructuring"].includes(entry.group), name);
    assert.ok(entry.summary.length > 10 && !entry.summary.includes("\n"), name);
    assert.equal(entry.params[0].name, "target");
    assert.equal(entry.params[0].kind, "locator");
    assert.ok(entry.languages.includes("python"));
    assert.equal(typeof entry.run, "function");
    const step = entry.example as { template: string; params: Record<string, unknown> };
    assert.equal(step.template, name);
    assert.ok(entry.paramsSchema.safeParse(step.params).success, `${name}: example fails its paramsSchema`);
    assert.ok(
      !entry.paramsSchema.safeParse({ ...step.params, bogus: 1 }).success,
      `${name}: schema not strict`,
    );
    const { target: _target, ...rest } = step.params;
    assert.ok(!entry.paramsSchema.safeParse(rest).success, `${name}: schema lets target be absent`);
    for (const spec of entry.params.filter((spec) => spec.required)) {
      assert.ok(step.params[spec.name] !== undefined, `${name} example lacks ${spec.name}`);
    }
    for (const key of Object.keys(step.params)) {
      assert.ok(entry.params.some((spec) => spec.name === key), `${name} example has unknown ${key}`);
    }
  }
});

Deno.test("registry: the parameter names the issue fixes", () => {
  const expected: Record<string, string[]> = {
    guard_clause: ["condition", "guard_body"],
    wrap_try_except: ["exc_type", "handler", "as_name", "finally_body"],
    add_parameter: ["name", "default", "annotation", "position", "keyword_only"],
    replace_expression: ["expression"],
    extract_variable: ["name"],
    add_import_and_use: ["import", "expression"],
    add_method: ["code"],
    modify_condition: ["condition"],
    add_conditional_branch: ["body", "condition"],
    replace_function_body: ["body", "keep_docstring"],
    wrap_context_manager: ["context", "as_name"],
    add_decorator: ["decorator"],
    inline_variable: ["name"],
    change_return_value: ["value"],
    add_class_attribute: ["name", "value", "annotation"],
  };
  for (const [name, params] of Object.entries(expected)) {
    const have = TEMPLATES[name].params.map((spec) => spec.name);
    for (const param of params) assert.ok(have.includes(param), `${name} lacks ${param}`);
  }
});

for (const name of NAMES) {
  Deno.test(`example of ${name} applies to its fixture; a second application changes nothing more`, async () => {
    const entry = TEMPLATES[name];
    const step = entry.example as { params: { target: { file: string } } };
    const file = step.params.target.file;
    const before = await fixture(file);
    const { ctx } = await contextWith({ [file]: before });
    const output = await entry.run(structuredClone(step.params), ctx) as Record<string, unknown>;
    assert.equal(output.changed, true);
    const once = await textOf(ctx, file);
    assert.notEqual(once, before);
    await assertPythonParses(once, `${name} example result`);
    // The step passes the executor's post-checks (L0 syntax, L1 kinds, L2 containment are errors).
    for (const change of await ctx.changedFiles()) {
      for (const check of defaultPostChecks()) {
        const errors = (await check(change, ctx)).filter((issue) => issue.severity === "error");
        assert.deepEqual(errors, [], `${name}: post-check errors`);
      }
    }
    const warningsBefore = ctx.warnings.length;
    try {
      const again = await entry.run(structuredClone(step.params), ctx) as Record<string, unknown>;
      assert.equal(again.changed, false, `${name}: the second application changed the file`);
      assert.equal(await textOf(ctx, file), once);
      assert.ok(ctx.warnings.slice(warningsBefore).some((w) => w.code === "already-present"));
    } catch (caught) {
      if (!(caught instanceof IssueError)) throw caught;
      assert.equal(await textOf(ctx, file), once, `${name}: a rejected second application changed the file`);
    }
  });
}
