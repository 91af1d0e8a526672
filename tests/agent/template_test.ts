import assert from "node:assert/strict";
import { renderTemplate, TemplateError, templateVariables } from "../../agent/template.ts";

Deno.test("template: variables, dotted paths, lists and numbers", () => {
  const text = renderTemplate(
    "Files {{files}} in {{repo.root}} ({{count}} of them, done={{done}}){{empty}}.",
    {
      files: ["a.py", "b.py"],
      repo: { root: "/testbed" },
      count: 2,
      done: false,
      empty: null,
    },
  );
  assert.equal(text, 'Files ["a.py", "b.py"] in /testbed (2 of them, done=false).');
  assert.equal(renderTemplate("{{ spaced }}", { spaced: "ok" }), "ok");
  assert.equal(renderTemplate("{{obj}}", { obj: { a: 1 } }), '{\n  "a": 1\n}');
});

Deno.test("template: if/else blocks choose by truthiness and nest", () => {
  const template = "{{#if errors}}E:{{errors}}{{#if warnings}} W:{{warnings}}{{/if}}{{else}}clean{{/if}}";
  assert.equal(renderTemplate(template, { errors: "x", warnings: "y" }), "E:x W:y");
  assert.equal(renderTemplate(template, { errors: "x", warnings: "" }), "E:x");
  assert.equal(renderTemplate(template, { errors: [], warnings: "y" }), "clean");
  assert.equal(renderTemplate("{{#if n}}some{{else}}none{{/if}}", { n: 0 }), "none");
});

Deno.test("template: block tags alone on their lines leave no blank lines", () => {
  const template =
    "<returncode>{{rc}}</returncode>\n{{#if cut}}\n<warning>cut</warning>\n{{/if}}\n<output>\n{{out}}\n</output>\n";
  assert.equal(
    renderTemplate(template, { rc: 0, cut: false, out: "hi" }),
    "<returncode>0</returncode>\n<output>\nhi\n</output>\n",
  );
  assert.equal(
    renderTemplate(template, { rc: 1, cut: true, out: "hi" }),
    "<returncode>1</returncode>\n<warning>cut</warning>\n<output>\nhi\n</output>\n",
  );
  // Inline blocks keep their surroundings.
  assert.equal(renderTemplate("a {{#if x}}b{{/if}} c", { x: 1 }), "a b c");
});

Deno.test("template: a missing variable is an error naming it and the template", () => {
  assert.throws(
    () =>
      renderTemplate("Step {{step}} failed: {{errros}}", { step: 1, errors: "x" }, {
        name: "templates.execute_failure",
      }),
    (err: Error) =>
      err instanceof TemplateError &&
      /Missing variable "errros" in template "templates\.execute_failure"/.test(err.message) &&
      /"step", "errors"/.test(err.message),
  );
  assert.throws(() => renderTemplate("{{#if typo}}x{{/if}}", {}), /Missing variable "typo"/);
  assert.throws(() => renderTemplate("{{a.b}}", { a: "text" }), /Missing variable "a\.b"/);
  // Present but undefined is allowed.
  assert.equal(renderTemplate("[{{x}}]", { x: undefined }), "[]");
});

Deno.test("template: unbalanced blocks are errors with a line number", () => {
  assert.throws(
    () => renderTemplate("one\n{{#if x}}\ntwo", { x: 1 }),
    /Unclosed "\{\{#if x\}\}" in template at line 2/,
  );
  assert.throws(() => renderTemplate("{{/if}}", {}), /Unexpected "\{\{\/if\}\}"/);
  assert.throws(() => renderTemplate("{{else}}", {}), /Unexpected "\{\{else\}\}"/);
  assert.throws(
    () => renderTemplate("{{#if a}}{{else}}{{else}}{{/if}}", { a: 1 }),
    /Unexpected "\{\{else\}\}"/,
  );
});

Deno.test("template: lists the variables it uses", () => {
  assert.deepEqual(templateVariables("{{#if warnings}}{{warnings}}{{/if}} {{errors}} {{a.b}} {{errors}}"), [
    "warnings",
    "errors",
    "a.b",
  ]);
});
