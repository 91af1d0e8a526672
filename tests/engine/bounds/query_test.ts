/**
 * Query limits: a one-character query, catastrophic `#match?` regexes, a
 * query stopped by its work budget and the capture cap.
 */

import assert from "node:assert/strict";
import { resolveSome } from "../../../engine/locate/mod.ts";
import { compileLinearRegex } from "../../../engine/locate/linear_regex.ts";
import { IssueError } from "../../../engine/base/issue.ts";
import { DocumentStore } from "../../../engine/parse/documents.ts";
import { Workspace } from "../../../engine/workspace.ts";
import { withBudget } from "../../../engine/base/budget.ts";
import { configureLimits, restoreLimits } from "../../../engine/base/limits.ts";
import { makeRepo } from "../exec/_support.ts";

const FILE = "app/service.py";
const NAME = "a".repeat(34);
const SOURCE = `import os\n\n\ndef helper(${NAME}):\n    return ${NAME}\n`;

function store(files: Record<string, string> = { [FILE]: SOURCE }): DocumentStore {
  return new DocumentStore(Workspace.open(makeRepo(files)));
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof IssueError) return err.issues[0].code;
    throw err;
  }
  return "resolved";
}

Deno.test("a stray ')' or ']' is locator-invalid at once (it used to loop until memory ran out)", async () => {
  const s = store();
  for (const query of [")", "]", "(identifier) @id )", "] (identifier) @id"]) {
    assert.equal(
      await codeOf(resolveSome(s, { type: "sexp", file: FILE, query })),
      "locator-invalid",
      query,
    );
  }
});

Deno.test("#match? with ^(a+)+$ on a 34-character identifier answers at once, as RegExp would", async () => {
  const s = store();
  const started = performance.now();
  const nodes = await resolveSome(s, {
    type: "sexp",
    file: FILE,
    query: '((identifier) @id (#match? @id "^(a+)+$"))',
  });
  assert.equal(nodes.nodes.length, 2);
  const none = await codeOf(resolveSome(s, {
    type: "sexp",
    file: FILE,
    query: '((identifier) @id (#match? @id "^(a+)+b$"))',
  }));
  assert.equal(none, "locator-not-found");
  // RegExp needs ~2^34 steps for the second query; the linear matcher a few thousand.
  assert.ok(performance.now() - started < 5_000);
});

Deno.test("regexes the linear matcher cannot run in linear time are refused as locator-invalid", async () => {
  const s = store();
  for (const regex of ["(a)\\\\1", "a(?=b)", "(?<!x)a"]) {
    const query = `((identifier) @id (#match? @id "${regex}"))`;
    assert.equal(
      await codeOf(resolveSome(s, { type: "sexp", file: FILE, query })),
      "locator-invalid",
      regex,
    );
  }
});

Deno.test("the linear matcher agrees with RegExp on 3,000 random patterns and texts", () => {
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)];
  const atoms = ["a", "b", ".", "[ab]", "[^a]", "\\w", "\\d", "_", "(a|b)", "(?:ab)", "x"];
  const quants = ["", "", "*", "+", "?", "{2}", "{1,3}", "*?"];
  const pattern = (): string => {
    let out = random() < 0.3 ? "^" : "";
    const n = 1 + Math.floor(random() * 4);
    for (let i = 0; i < n; i++) {
      out += random() < 0.15 ? `(${pattern()})${pick(quants)}` : pick(atoms) + pick(quants);
    }
    return out + (random() < 0.3 ? "$" : "");
  };
  for (let k = 0; k < 3000; k++) {
    const source = pattern();
    const text = Array.from({ length: Math.floor(random() * 8) }, () => pick(["a", "b", "x", "_", "1"])).join(
      "",
    );
    assert.equal(
      compileLinearRegex(source).test(text),
      new RegExp(source).test(text),
      `/${source}/ on "${text}"`,
    );
  }
});

Deno.test("a pathological query is stopped by its budget: budget-exceeded", async () => {
  const body = Array.from({ length: 3000 }, (_, i) => `    v${i} = [a, [b, [c, [d]]]]`).join("\n");
  const s = store({ [FILE]: `def f():\n${body}\n` });
  // Every identifier followed by any sibling of any sibling: many matches in progress at once.
  const query = "(_ (_) @a . (_)* . (_) @b . (_)* . (_) @c)";
  const code = await withBudget(0.001, async () => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    return await codeOf(resolveSome(s, { type: "sexp", file: FILE, query }));
  });
  assert.equal(code, "budget-exceeded");
});

/** The issue a query fails with while `key` is set very low (undefined when it resolves). */
async function costlyIssue(
  files: Record<string, string>,
  query: string,
  key: "max_captures" | "query_match_limit",
) {
  const s = store(files);
  const saved = configureLimits({ [key]: key === "max_captures" ? 2 : 1 });
  try {
    await resolveSome(s, { type: "sexp", file: FILE, query });
  } catch (err) {
    return (err as IssueError).issues[0];
  } finally {
    restoreLimits(saved);
  }
  return undefined;
}

for (const key of ["max_captures", "query_match_limit"] as const) {
  Deno.test(`a query over ${key} is query-too-costly, naming the key`, async () => {
    const body = Array.from({ length: 200 }, (_, i) => `    v${i} = [a, b, c, d]`).join("\n");
    const issue = key === "max_captures"
      ? await costlyIssue({ [FILE]: SOURCE }, "(identifier) @id", key)
      : await costlyIssue({ [FILE]: `def f():\n${body}\n` }, "(_ (_) @a . (_)* . (_) @b)", key);
    assert.equal(issue?.code, "query-too-costly");
    assert.match(issue.hint ?? "", new RegExp(key));
  });
}
