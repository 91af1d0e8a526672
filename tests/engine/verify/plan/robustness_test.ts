/**
 * Verification never crashes and never writes: hundreds of plans built by
 * mutating a valid plan on requests' `auth.py` (missing and mistyped
 * parameters, unknown operators, impossible lines and locators, huge and
 * odd values, not-a-plan documents) all give a well-formed report.
 */

import assert from "node:assert/strict";
import { executePlan, parsePlanSteps } from "../../../../engine/exec/mod.ts";
import type { Issue } from "../../../../engine/base/issue.ts";
import { DocumentStore } from "../../../../engine/parse/documents.ts";
import { Workspace } from "../../../../engine/workspace.ts";
import { AUTH, authRepo, CORPUS_SKIP, hashTree, verifyIn } from "./_support.ts";
import { mulberry32 as prng } from "../../../_support/random.ts";

const BASE = (): Record<string, unknown>[] => [
  { op: "add_import", params: { file: AUTH, import_statement: "import secrets" } },
  {
    op: "replace_code",
    params: { file: AUTH, pattern: "s += os.urandom(8)", replacement: "s += secrets.token_bytes(8)" },
  },
  { op: "insert_code", params: { file: AUTH, anchor_line: 14, position: "after", code: "import json" } },
  { op: "delete_lines", params: { file: AUTH, start_line: 99, end_line: 99 } },
  { op: "rename_symbol", params: { file: AUTH, old_name: "opaque", new_name: "opaque_value" } },
  {
    op: "replace_node",
    params: {
      locator: {
        file: AUTH,
        kind: "method",
        name: "__call__",
        parent: { kind: "class", name: "HTTPProxyAuth" },
      },
      replacement: "def __call__(self, r):\n        return r",
    },
  },
  {
    op: "add_method",
    params: {
      file: AUTH,
      class_name: "HTTPDigestAuth",
      method_code: "def reset(self):\n    self.nonce_count = 0",
    },
  },
  {
    op: "modify_function_signature",
    params: {
      file: AUTH,
      func_name: "_basic_auth_str",
      old_signature: "(username, password)",
      new_signature: "(username, password, encoding='latin1')",
    },
  },
  {
    op: "wrap_block",
    params: { file: AUTH, start_line: 189, end_line: 192, before_code: "if True:", after_code: "" },
  },
];

const ODD: unknown[] = [
  null,
  -1,
  0,
  1e9,
  1.5,
  "",
  "x".repeat(200_000),
  "../etc/passwd",
  "/abs.py",
  "requests/missing.py",
  [],
  {},
  { kind: "class", name: "Nope", file: AUTH },
  { type: "sexp", file: AUTH, query: "(((", capture: "x" },
  { type: "sexp", file: AUTH, query: "(class_definition) @c", capture: "c" },
  "def broken(:\n    pass",
  true,
];

function mutate(plan: Record<string, unknown>[], random: () => number): unknown {
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)];
  const roll = random();
  if (roll < 0.05) return pick([[], {}, "plan", null, [1, 2], { plan: "x" }, ["requests/auth.py"]]);
  if (roll < 0.1) return { define_operators: [{ define: "x", steps: [{ primitive: "nope" }] }], plan };
  const step = pick(plan);
  const params = step.params as Record<string, unknown>;
  const keys = Object.keys(params);
  const what = random();
  if (what < 0.25) delete params[pick(keys)];
  else if (what < 0.6) params[pick(keys)] = pick(ODD);
  else if (what < 0.7) step.op = pick(["edit_file", "replace_codes", "", "locate", "delete_node"]);
  else if (what < 0.8) plan.reverse();
  else if (what < 0.9) params.extra = pick(ODD);
  else plan.push(structuredClone(plan[0]));
  return plan;
}

function wellFormed(issue: Issue, steps: number, label: string): void {
  assert.match(issue.code, /^[a-z0-9]+(-[a-z0-9]+)*$/, `${label}: code ${issue.code}`);
  assert.ok(issue.severity === "error" || issue.severity === "warning", label);
  assert.ok(
    issue.message.length > 0 && issue.message.length <= 2000,
    `${label}: message of ${issue.message.length}`,
  );
  if (issue.step !== undefined) {
    assert.ok(issue.step >= 0 && issue.step < Math.max(steps, 1), `${label}: step ${issue.step}`);
  }
  assert.ok(
    issue.layer !== undefined || issue.level !== undefined,
    `${label}: ${issue.code} has no layer or level`,
  );
}

Deno.test({
  name:
    "robustness: 200 mutated plans never crash, always explain, never change a file, and agree with a dry run",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const dir = await authRepo();
    const before = await hashTree(dir);
    const random = prng(2026);
    let passed = 0;
    for (let i = 0; i < 200; i++) {
      const plan = mutate(BASE().filter(() => random() < 0.5), random);
      const steps = Array.isArray(plan) ? plan.length : 0;
      const result = await verifyIn(dir, plan);
      assert.equal(result.passed, result.errors.length === 0);
      for (const issue of [...result.errors, ...result.warnings]) {
        wellFormed(issue, Math.max(steps, 20), `case ${i}`);
      }
      if (result.passed) passed++;
      // Verification and a dry run of the executor agree on whether the plan can be applied.
      const parsed = await parsePlanSteps(plan);
      const dry = parsed.issues.some((issue) => issue.severity === "error")
        ? { success: false, errors: parsed.issues }
        : await executePlan(new DocumentStore(Workspace.open(dir)), parsed.steps, {
          runStep: parsed.runStep,
          dryRun: true,
        });
      assert.equal(
        result.passed,
        dry.success,
        `case ${i}: verify says ${result.passed}, a dry run ${dry.success}: ${
          JSON.stringify([...result.errors, ...dry.errors].map((issue) => issue.message.slice(0, 120)))
        }`,
      );
    }
    assert.ok(passed > 0 && passed < 200, `some plans pass, some fail (${passed} passed)`);
    assert.deepEqual(await hashTree(dir), before);
    await Deno.remove(dir, { recursive: true });
  },
});
