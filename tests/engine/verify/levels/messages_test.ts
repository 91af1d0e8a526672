import assert from "node:assert/strict";
import type { Issue } from "../../../../engine/base/issue.ts";
import { checkNewName } from "../../../../engine/analysis/rename_safety.ts";
import { clip, typeList } from "../../../../engine/verify/levels/quote.ts";
import { CORPUS_SKIP } from "../../../_support/corpus.ts";
import { corpusFile, editAndCheck, type EditFn, replace } from "./_support.ts";

const ignore = CORPUS_SKIP !== undefined;
if (CORPUS_SKIP) console.log(`skipping message tests: ${CORPUS_SKIP}`);

const MODELS = ["psf__requests-5414", "requests/models.py"] as const;
const HUGE = 200_000;

async function issuesOf(edit: EditFn, kinds?: string[]): Promise<Issue[]> {
  const { path, text } = await corpusFile(...MODELS);
  const step = await editAndCheck({ [path]: text }, path, edit, kinds);
  await Deno.remove(step.dir, { recursive: true });
  return [...step.errors, ...step.warnings];
}

/** No quoted piece of a message is longer than 80 characters (plus the fixed wording around it). */
function assertShort(issues: Issue[]) {
  assert.ok(issues.length > 0);
  for (const issue of issues) {
    assert.ok(issue.message.length < 400, `${issue.code}: ${issue.message.length} characters`);
    assert.ok((issue.hint ?? "").length < 400, `${issue.code} hint: ${issue.hint?.length} characters`);
    for (const quoted of issue.message.match(/"[^"]*"/g) ?? []) assert.ok(quoted.length <= 82, quoted);
  }
}

Deno.test("messages: clip keeps a first line of at most 80 characters, typeList at most three types", () => {
  assert.equal(clip("short"), "short");
  assert.equal(clip("x".repeat(HUGE)).length, 80);
  assert.equal(clip("first\nsecond"), "first");
  assert.equal(typeList(["a", "b"]), '"a", "b"');
  assert.equal(
    typeList(Array(5000).fill("expression_statement")),
    `${Array(3).fill('"expression_statement"').join(", ")} and 4997 more`,
  );
});

Deno.test({
  name: "messages: L1 on a hostile replaced kind and thousands of replacement nodes stays short",
  ignore,
  async fn() {
    const many = await issuesOf(
      replace("hooks = hooks or []", Array(20_000).fill("hooks = 1").join("\n        ")),
      ["import_statement"],
    );
    const l1 = many.filter((issue) => issue.code === "kind-changed");
    assert.equal(l1.length, 1);
    assertShort(l1);
    const hostile = await issuesOf(replace("hooks = hooks or []", "hooks = []"), ["k".repeat(HUGE)]);
    assertShort(hostile.filter((issue) => issue.level === "L1"));
  },
});

Deno.test({
  name: "messages: L0, L3 and L4 quote at most 80 characters of a huge line or name",
  ignore,
  async fn() {
    const name = "n".repeat(HUGE);
    const unbound = await issuesOf(replace("hooks = hooks or []", `hooks = hooks or ${name}`));
    assert.ok(unbound.some((issue) => issue.code === "unbound-name" || issue.code === "import-missing"));
    assertShort(unbound);
    const broken = await issuesOf(
      replace("hooks = hooks or []", `hooks = hooks or (${"1 + ".repeat(HUGE / 4)}`),
    );
    assert.ok(broken.some((issue) => issue.level === "L0"));
    assertShort(broken.filter((issue) => issue.level === "L0"));
  },
});

Deno.test("messages: an invalid new name is quoted clipped", () => {
  const [issue] = checkNewName(`9${"z".repeat(HUGE)}`, "python");
  assert.equal(issue.code, "rename-invalid-name");
  assertShort([issue]);
});
