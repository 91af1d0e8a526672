import assert from "node:assert/strict";
import { CORPUS_SKIP } from "../../../_support/corpus.ts";
import { corpusFile, editAndCheck, type EditFn, ofLevel, replace } from "./_support.ts";

const ignore = CORPUS_SKIP !== undefined;
if (CORPUS_SKIP) console.log(`skipping L5 tests: ${CORPUS_SKIP}`);

/** A requests checkout assembled from corpus files of one era: models, sessions (imports both), utils. */
async function requestsRepo(): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (
    const [instance, path] of [
      ["psf__requests-2148", "requests/models.py"],
      ["psf__requests-1921", "requests/sessions.py"],
      ["psf__requests-3362", "requests/utils.py"],
    ]
  ) {
    files[path] = (await corpusFile(instance, path)).text;
  }
  return files;
}

async function mismatches(path: string, edit: EditFn) {
  const step = await editAndCheck(await requestsRepo(), path, edit);
  await Deno.remove(step.dir, { recursive: true });
  assert.deepEqual(step.errors, []);
  const issues = ofLevel(step.warnings, "L5");
  for (const issue of issues) {
    assert.equal(issue.code, "interface-mismatch");
    assert.equal(issue.severity, "warning");
    assert.equal(issue.step, 3);
  }
  return issues.map((issue) => `${issue.file}:${issue.line}`).sort();
}

const PREPARE = "def prepare(self, method=None, url=None, headers=None, files=None,";

Deno.test({
  name: "L5: a parameter added with a default keeps every caller compatible",
  ignore,
  async fn() {
    assert.deepEqual(
      await mismatches("requests/models.py", replace(PREPARE, `${PREPARE} timeout=None,`)),
      [],
    );
    assert.deepEqual(
      await mismatches(
        "requests/utils.py",
        replace(
          "def get_netrc_auth(url, raise_errors=False):",
          "def get_netrc_auth(url, raise_errors=False, strict=False):",
        ),
      ),
      [],
    );
  },
});

Deno.test({
  name: "L5: a renamed keyword parameter breaks the method's callers in this file and in importers",
  ignore,
  async fn() {
    const renamed = PREPARE.replace("files=None", "uploads=None");
    // Request.prepare calls p.prepare(files=...) in models.py; Session.prepare_request in sessions.py
    assert.deepEqual(await mismatches("requests/models.py", replace(PREPARE, renamed)), [
      "requests/models.py:242",
      "requests/sessions.py:286",
    ]);
  },
});

Deno.test({
  name: "L5: a required parameter added to a module function breaks calls in importing files",
  ignore,
  async fn() {
    const edit = replace(
      "def get_netrc_auth(url, raise_errors=False):",
      "def get_netrc_auth(url, strict, raise_errors=False):",
    );
    assert.deepEqual(await mismatches("requests/utils.py", edit), [
      "requests/sessions.py:165",
      "requests/sessions.py:283",
    ]);
  },
});

Deno.test({
  name: "L5 leaves a renamed module function to L3, which lists each importing use with file and line",
  ignore,
  async fn() {
    const step = await editAndCheck(
      await requestsRepo(),
      "requests/utils.py",
      replace("def get_netrc_auth(url, raise_errors=False):", "def netrc_auth(url, raise_errors=False):"),
    );
    await Deno.remove(step.dir, { recursive: true });
    assert.deepEqual(ofLevel(step.warnings, "L5"), []);
    const issues = step.warnings.filter((issue) => issue.code === "dangling-import");
    assert.deepEqual(issues.map((issue) => `${issue.file}:${issue.line}`), ["requests/sessions.py:26"]);
    assert.match(
      issues[0].message,
      /"get_netrc_auth" was removed from "requests\/utils.py" but "requests\/sessions.py" still uses it: "requests\/sessions.py:26", "requests\/sessions.py:165", "requests\/sessions.py:283"$/,
    );
  },
});

Deno.test({
  name: "L5: reordered positional parameters break positional callers",
  ignore,
  async fn() {
    const edit = replace("def prepare_url(self, url, params):", "def prepare_url(self, params, url):");
    const found = await mismatches("requests/models.py", edit);
    assert.equal(found.length, 1);
    assert.match(found[0], /^requests\/models\.py:\d+$/);
  },
});
