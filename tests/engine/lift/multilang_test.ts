/**
 * Lift beyond Python (issue 27) on real fix commits of the nine-language
 * corpus (`../shared/corpus/multilang-heldin.jsonl.gz`): one commit per
 * language whose change is an expression, a condition, a returned value, a
 * function body, deleted statements, rewritten comments or new code beside old. Each is lifted into tier 1–2 steps
 * only (before the language tables every step here was tier-0
 * `replace_node`), the in-memory replay is byte-exact, and executing the
 * plan with the real executor on a fresh copy gives the commit's files.
 */

import assert from "node:assert/strict";
import { loadMultilang, MULTILANG_SKIP } from "../../_support/multilang.ts";
import { executeOnCopy, liftIn, writeRepo } from "./_support.ts";

/** Commit (sha prefix) per language and the step kinds its lift must use. */
const CASES: [string, string, string[]][] = [
  ["javascript", "1f13dd7e", ["replace_expression"]],
  ["typescript", "e1ebadb4", ["replace_expression"]],
  ["go", "2ff2b19e", ["replace_expression"]],
  // A value replaced by a method chain aligned deeper than its line: one replace_expression (the chain's rows
  // re-indented made it replace_function_body before `reindent` kept rows copied from their place).
  ["rust", "7525479a", ["replace_expression"]],
  ["java", "fad946a1", ["change_return_value"]],
  ["ruby", "76cf576f", ["modify_condition"]],
  ["php", "dd0b216e", ["replace_expression", "replace_function_body"]],
  // A statement added to a body is insert_sibling (it was replace_function_body before insert_sibling).
  ["c", "9abe75e0", ["insert_sibling", "delete_node"]],
  // Rewritten comments (doc comments mostly): replace_comment, tier-0 replace_node before it.
  ["go", "815122a0", ["replace_comment"]],
  ["rust", "97b5b776", ["replace_comment"]],
  ["java", "1eb78024", ["replace_comment"]],
  ["ruby", "2faa88c4", ["replace_comment"]],
  // New functions, members and statements beside existing ones: insert_sibling, tier-0 replace_code before it.
  ["go", "e207a3ce", ["insert_sibling"]],
  ["java", "1d6ef29c", ["insert_sibling"]],
  // A body's assignment turned into a call is replace_expression of it, the statement's only change
  // (`childExpressionCandidates` in shapes.ts); it was replace_function_body of the whole body.
  ["php", "66532794", ["insert_sibling", "replace_expression"]],
];

for (const [language, sha, kinds] of CASES) {
  Deno.test({
    name: `lift ${language} commit ${sha}: tier 1-2 steps only, byte-exact, executes to the commit`,
    ignore: !!MULTILANG_SKIP,
    async fn() {
      const commit = (await loadMultilang()).find((c) => c.sha.startsWith(sha))!;
      assert.equal(commit.lang, language);
      const before = Object.fromEntries(commit.files.map((f) => [f.path, f.before]));
      const dir = writeRepo(before);
      const result = await liftIn(dir, { diff: commit.diff });
      await Deno.remove(dir, { recursive: true });
      assert.deepEqual(result.errors, []);
      assert.equal(result.exact, true);
      const tiers = result.hunks.flatMap((hunk) => hunk.tiers);
      const used = new Set(result.hunks.flatMap((hunk) => hunk.kinds));
      assert.ok(tiers.every((tier) => tier >= 1 && tier <= 2), `tiers ${tiers.join(", ")}`);
      for (const kind of kinds) assert.ok(used.has(kind), `${kind} in ${[...used].join(", ")}`);
      const after = await executeOnCopy(before, result.plan);
      for (const file of commit.files) assert.equal(after[file.path], file.after, file.path);
    },
  });
}

/** A diff adding `guard` as the first statement of the function whose header is `header`. */
function guardDiff(path: string, source: string, header: string, guard: string): string {
  const lines = source.split("\n");
  const at = lines.indexOf(header) + 1;
  const added = guard.split("\n").map((line) => `+${line}`);
  return [
    `diff --git a/${path} b/${path}`,
    `--- a/${path}`,
    `+++ b/${path}`,
    `@@ -${at},1 +${at},${1 + added.length} @@`,
    ` ${lines[at - 1]}`,
    ...added,
    "",
  ].join("\n");
}

const GUARDS: [string, string, string, string][] = [
  [
    "go/inventory/inventory.go",
    "func Describe(item Item) string {",
    '\tif item.Name == "" {\n\t\treturn "?"\n\t}',
    'item.Name == ""',
  ],
  [
    "java/src/shop/Inventory.java",
    "    public static String describe(String name, int count) {",
    '        if (name == null) {\n            return "?";\n        }',
    "name == null",
  ],
  [
    "rust/src/inventory.rs",
    "pub fn describe(item: &Item) -> String {",
    '    if item.name.is_empty() {\n        return "?".to_string();\n    }',
    "item.name.is_empty()",
  ],
];

for (const [fixture, header, guard, condition] of GUARDS) {
  Deno.test(`lift: a guard added at the top of a function in ${fixture.split("/")[0]} is guard_clause`, async () => {
    const path = fixture.slice(fixture.indexOf("/") + 1);
    const source = await Deno.readTextFile(new URL(`../../fixtures/catalog/${fixture}`, import.meta.url));
    const dir = writeRepo({ [path]: source });
    const result = await liftIn(dir, { diff: guardDiff(path, source, header, guard) });
    await Deno.remove(dir, { recursive: true });
    assert.equal(result.exact, true, JSON.stringify(result.errors));
    assert.deepEqual(result.hunks.flatMap((hunk) => hunk.kinds), ["guard_clause"]);
    assert.equal((result.plan[0].params as Record<string, unknown>).condition, condition);
  });
}
