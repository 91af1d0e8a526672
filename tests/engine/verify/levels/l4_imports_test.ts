import assert from "node:assert/strict";
import { CORPUS_SKIP } from "../../../_support/corpus.ts";
import { corpusFile, editAndCheck, type EditFn, ofLevel, replace } from "./_support.ts";

const ignore = CORPUS_SKIP !== undefined;
if (CORPUS_SKIP) console.log(`skipping L4 tests: ${CORPUS_SKIP}`);

const MODELS = ["psf__requests-5414", "requests/models.py"] as const;
const ANCHOR = '"""Prepares the given HTTP method."""\n        self.method = method\n';

function inPrepareMethod(code: string): EditFn {
  return replace(ANCHOR, `"""Prepares the given HTTP method."""\n${code}`);
}

async function importIssues(edit: EditFn) {
  const { path, text } = await corpusFile(...MODELS);
  const step = await editAndCheck({ [path]: text }, path, edit);
  await Deno.remove(step.dir, { recursive: true });
  assert.deepEqual(step.errors, []);
  const issues = ofLevel(step.warnings, "L4");
  for (const issue of issues) {
    assert.equal(issue.severity, "warning");
    assert.equal(issue.file, path);
    assert.equal(issue.step, 3);
  }
  return issues.map((issue) => ({
    code: issue.code,
    line: issue.line,
    name: issue.message.match(/"([^"]+)"/)![1],
  }));
}

Deno.test({
  name: "L4: modules the file imports pass; a module-like name nobody imports is a missing import",
  ignore,
  async fn() {
    assert.deepEqual(
      await importIssues(inPrepareMethod("        self.method = encodings.idna.nameprep(method)\n")),
      [],
    );
    assert.deepEqual(await importIssues(inPrepareMethod("        self.method = sys.intern(method)\n")), []);
    const missing = await importIssues(
      inPrepareMethod("        self.method = idna_tools.normalize(method)\n"),
    );
    assert.deepEqual(missing, [{ code: "import-missing", line: 346, name: "idna_tools" }]);
  },
});

Deno.test({
  name: "L4: a name imported only inside another function is missing here",
  ignore,
  async fn() {
    // `idna` is imported locally in `_get_idna_encoded_host`, not in `prepare_method`
    const issues = await importIssues(inPrepareMethod("        self.method = idna.encode(method)\n"));
    assert.deepEqual(issues.map((issue) => issue.code), ["import-missing"]);
  },
});

Deno.test({
  name: "L4: a new import must precede its first use in the same scope",
  ignore,
  async fn() {
    const before = "        import json as method_json\n        self.method = method_json.dumps(method)\n";
    assert.deepEqual(await importIssues(inPrepareMethod(before)), []);
    const after = "        self.method = method_json.dumps(method)\n        import json as method_json\n";
    assert.deepEqual(await importIssues(inPrepareMethod(after)), [{
      code: "import-after-use",
      line: 347,
      name: "method_json",
    }]);
  },
});

Deno.test({
  name: "L4: removing the last use of an import warns that it is unused",
  ignore,
  async fn() {
    // `datetime` is used once, in Response.__init__
    assert.deepEqual(
      await importIssues(replace("datetime.timedelta(0)", "datetime.timedelta(seconds=0)")),
      [],
    );
    assert.deepEqual(await importIssues(replace("datetime.timedelta(0)", "None")), [
      { code: "import-unused", line: 10, name: "datetime" },
    ]);
    // `codes` keeps other uses
    assert.deepEqual(await importIssues(replace("codes.moved,               # 301", "301,")), []);
  },
});

Deno.test({
  name: "L4: a module-like name that occurred only in a replaced docstring is a missing import",
  ignore,
  async fn() {
    // setuptools' easy_install hunk 14: `install._select_scheme(...)` replaced a body whose docstring said
    // "the install schemes", and `install` is bound nowhere in the file
    const issues = await importIssues(replace(ANCHOR, "self.method = HTTP.normalize(method)\n"));
    assert.deepEqual(issues.map(({ code, name }) => ({ code, name })), [{
      code: "import-missing",
      name: "HTTP",
    }]);
  },
});
