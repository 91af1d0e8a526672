import assert from "node:assert/strict";
import { CORPUS_SKIP } from "../../../_support/corpus.ts";
import { corpusFile, editAndCheck, type EditFn, ofLevel, replace } from "./_support.ts";

const ignore = CORPUS_SKIP !== undefined;
if (CORPUS_SKIP) console.log(`skipping L6 tests: ${CORPUS_SKIP}`);

const MODELS = ["psf__requests-5414", "requests/models.py"] as const;
const HOOKS_BODY = `        # hooks can be passed as None to the prepare method and to this
        # method. To prevent iterating over None, simply use an empty list
        # if hooks is False-y
        hooks = hooks or []
        for event in hooks:
            self.register_hook(event, hooks[event])`;

async function trivia(edit: EditFn) {
  const { path, text } = await corpusFile(...MODELS);
  const step = await editAndCheck({ [path]: text }, path, edit);
  await Deno.remove(step.dir, { recursive: true });
  assert.deepEqual(step.errors, []);
  return ofLevel(step.warnings, "L6").map((issue) => {
    assert.equal(issue.severity, "warning");
    assert.equal(issue.step, 3);
    return { code: issue.code, line: issue.line };
  });
}

Deno.test({
  name: "L6: a real change of a body passes, a new stub is not reported",
  ignore,
  async fn() {
    assert.deepEqual(await trivia(replace("hooks = hooks or []", "hooks = dict(hooks or {})")), []);
    assert.deepEqual(
      await trivia(
        replace(
          "class Response(object):",
          "def unimplemented_hook():\n    pass\n\n\nclass Response(object):",
        ),
      ),
      [],
    );
  },
});

Deno.test({
  name: "L6: a body reduced to pass, ..., return None or a docstring is trivial",
  ignore,
  async fn() {
    for (const stub of ["        pass", "        ...", "        return None", "        return"]) {
      assert.deepEqual(await trivia(replace(HOOKS_BODY, stub)), [{ code: "trivial-body", line: 586 }], stub);
    }
  },
});

Deno.test({
  name: "L6: an edit that replaces text with the same text is a no-op",
  ignore,
  async fn() {
    assert.deepEqual(await trivia(replace("hooks = hooks or []", "hooks = hooks or []")), [{
      code: "no-op-edit",
      line: 591,
    }]);
  },
});
