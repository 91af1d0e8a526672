import assert from "node:assert/strict";
import { CORPUS_SKIP } from "../../../_support/corpus.ts";
import { PYTHON_SKIP, pythonSyntaxErrors } from "../../../_support/python.ts";
import { corpusFile, editAndCheck, ofLevel, replace } from "./_support.ts";

const ignore = CORPUS_SKIP !== undefined || PYTHON_SKIP !== undefined;
if (CORPUS_SKIP) console.log(`skipping L0 tests: ${CORPUS_SKIP}`);
else if (PYTHON_SKIP) console.log(`skipping L0 tests: ${PYTHON_SKIP}`);

const MODELS = ["psf__requests-5414", "requests/models.py"] as const;

Deno.test({
  name: "L0: an edit that keeps the whole file parsable passes (CPython agrees)",
  ignore,
  async fn() {
    const { path, text } = await corpusFile(...MODELS);
    const step = await editAndCheck(
      { [path]: text },
      path,
      replace("self.method = method\n", "self.method = method.upper()\n"),
    );
    try {
      assert.deepEqual(ofLevel(step.errors, "L0"), []);
      assert.deepEqual(await pythonSyntaxErrors([step.change.after.file.text]), [null]);
    } finally {
      await Deno.remove(step.dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "L0: an unclosed bracket is a syntax error of the whole file, with step, file and line",
  ignore,
  async fn() {
    const { path, text } = await corpusFile(...MODELS);
    const step = await editAndCheck(
      { [path]: text },
      path,
      replace("self.method = method\n", "self.method = (method\n"),
    );
    const editLine = text.slice(0, text.indexOf("self.method = method\n")).split("\n").length;
    try {
      const issues = ofLevel(step.errors, "L0");
      assert.ok(issues.length >= 1);
      assert.equal(issues[0].code, "syntax-error");
      assert.equal(issues[0].severity, "error");
      assert.equal(issues[0].step, 3);
      assert.equal(issues[0].file, path);
      assert.ok(issues[0].line! >= editLine, `line ${issues[0].line} before the edit at ${editLine}`);
      const [oracle] = await pythonSyntaxErrors([step.change.after.file.text]);
      assert.notEqual(oracle, null);
    } finally {
      await Deno.remove(step.dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "L0: syntax errors the file already had are not blamed on the edit",
  ignore,
  async fn() {
    const { path, text } = await corpusFile(...MODELS);
    const broken = `${text}\ndef broken(:\n    pass\n`;
    const step = await editAndCheck(
      { [path]: broken },
      path,
      replace("self.method = method\n", "self.method = method or 'GET'\n"),
    );
    try {
      assert.ok(step.change.before.tree.rootNode.hasError);
      assert.deepEqual(ofLevel(step.errors, "L0"), []);
    } finally {
      await Deno.remove(step.dir, { recursive: true });
    }
  },
});
