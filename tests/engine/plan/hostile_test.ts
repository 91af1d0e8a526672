/**
 * Hostile plans: 1,200 generated malformed or malicious plan documents
 * (deterministic PRNG) go through parsePlan, then, when they parse, through
 * runStep in a StepContext and through the real executor. None may crash:
 * every failure is an IssueError or an issue list whose issues have a
 * kebab-case code and a short, non-empty message; and no file of the
 * repository (or outside it, behind its symlinks) changes.
 *
 * Families: wrong types anywhere, missing fields, unknown operators
 * (including `constructor`, `__proto__`...), bad locators, paths leaving the
 * root (`../../etc/passwd`, `/etc/passwd`, symlinks), deep nesting,
 * prototype-pollution keys, NaN/Infinity/negative/huge numbers, values that
 * are not JSON and text that is not JSON, top-level garbage, several
 * mutations at once, 10 MB strings and hostile `define_operators`.
 *
 * A second test runs a sample of tests/_support/hostile_plans.ts (plans that
 * ask for unbounded work: fan-out, deep nesting, pathological queries, huge
 * substitutions, wide plans) through verify and execute; the full set is
 * `deno task bench fuzz`.
 */

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { runStep } from "../../../engine/ops/dispatch.ts";
import { StepContext } from "../../../engine/edit/operator.ts";
import { executePlan, hasPendingJournal } from "../../../engine/exec/mod.ts";
import { type Issue, IssueError } from "../../../engine/base/issue.ts";
import { DocumentStore } from "../../../engine/parse/documents.ts";
import { type NormalizedStep, parsePlan, parsePlanText } from "../../../engine/plan/mod.ts";
import { Workspace } from "../../../engine/workspace.ts";
import { QUICK } from "../../_support/quick.ts";
import { CORPUS_SKIP } from "../../_support/corpus.ts";
import { corpusFile } from "../edit/_legacy_support.ts";
import { HOSTILE_REPO, hostileCase, prng, withFailingStep } from "../../_support/hostile_plans.ts";
import { withBudget } from "../../../engine/base/budget.ts";
// Journals go to this test process's private state directory, shared by every test file: the environment is
// the process's, so a file that pointed XDG_STATE_HOME elsewhere and then removed it broke other files' plans.
import "../exec/_support.ts";
import { verifyPlan } from "../../../engine/verify/mod.ts";

const CASES = 1200;
const A = "requests/auth.py";
const JS = "web/app.js";
const KEBAB = /^[a-z0-9]+(-[a-z0-9]+)*$/;

const random = prng(0x5eed_2026);
const int = (n: number) => Math.floor(random() * n);
const pick = <T>(items: readonly T[]): T => items[int(items.length)];

let huge: string | undefined;
/** One shared 10 MB string. */
function tenMegabytes(): string {
  huge ??= "x = 1  # padding\n".repeat(Math.ceil((10 * 1024 * 1024) / 17)).slice(0, 10 * 1024 * 1024);
  return huge;
}

const FN = { file: A, kind: "function", name: "_basic_auth_str" };

/** Valid steps of every kind on the repository's files: the material mutations start from. */
function baseSteps(): Record<string, unknown>[] {
  return [
    { op: "replace_code", params: { file: A, pattern: "import os\n", replacement: "import os  # ok\n" } },
    { op: "insert_code", params: { file: A, anchor_line: 14, position: "after", code: "import sys" } },
    { op: "delete_lines", params: { file: A, start_line: 99, end_line: 100 } },
    {
      op: "wrap_block",
      params: {
        file: A,
        start_line: 169,
        end_line: 170,
        before_code: "try:",
        after_code: "except Exception:\n    pass",
      },
    },
    { op: "rename_symbol", params: { file: A, old_name: "nonce", new_name: "n2" } },
    {
      op: "modify_function_signature",
      params: {
        file: A,
        func_name: "handle_401",
        old_signature: "(self, r, **kwargs)",
        new_signature: "(self, r, *a, **kwargs)",
      },
    },
    { op: "replace_function_body", params: { file: A, func_name: "_basic_auth_str", new_body: "return ''" } },
    { op: "add_import", params: { file: A, import_statement: "import sys" } },
    { op: "add_method", params: { file: A, class: "AuthBase", code: "def x(self):\n    return 1" } },
    { op: "add_class_attribute", params: { file: A, class_name: "AuthBase", attribute: "flag = True" } },
    { op: "replace_node", params: { locator: FN, replacement: "def _basic_auth_str(u, p):\n    return ''" } },
    {
      op: "insert_after_node",
      params: { locator: { file: A, kind: "import", index: -1 }, code: "import sys" },
    },
    { op: "delete_node", params: { locator: { file: A, kind: "class", name: "HTTPProxyAuth" } } },
    { op: "wrap_node", params: { locator: FN, before: "if True:", after: "" } },
    {
      op: "replace_all_matching",
      params: {
        locator: { type: "sexp", file: A, query: '((identifier) @id (#eq? @id "realm"))', capture: "id" },
        replacement: "realm2",
        filter: "not_in_string_or_comment",
      },
    },
    { op: "locate", params: { locator: { file: A, kind: "class" } } },
    { op: "locate_region", params: { locator: { file: A, kind: "class", name: "AuthBase" } } },
    { op: "rename_identifier", params: { target: FN, new_name: "basic" } },
    { op: "delete_node", params: { target: { file: JS, kind: "function", name: "add" } } },
    {
      template: "guard_clause",
      params: { target: FN, condition: "username is None", guard_body: "return ''" },
    },
    {
      fragment: {
        kind: "if_statement",
        properties: { condition: "x" },
        children: [{ kind: "pass_statement" }],
      },
      action: "replace",
      target: FN,
    },
    { op: "replace_code", params: { file: JS, pattern: "return a + b;", replacement: "return a - b;" } },
  ];
}

const BAD_PATHS = [
  "../../etc/passwd",
  "/etc/passwd",
  "requests/../../../etc/passwd",
  "link.py",
  "linkdir/secret.py",
  "linkdir/../../outside.py",
  "C:\\Windows\\win.ini",
  "~/.bashrc",
  "",
  " ",
  ".",
  "requests",
  "requests/",
  "nul\u0000.py",
  "binary.py",
  "notes.txt",
  "missing/file.py",
  "a".repeat(5000) + ".py",
  "requests//auth.py",
  "./requests/auth.py",
  "requests\\auth.py",
];

const BAD_NUMBERS = [NaN, Infinity, -Infinity, -1, -0, 0, 1.5, 1e308, 2 ** 53 + 2, -(2 ** 31), 999_999, 195];

const HOSTILE_NAMES = [
  "constructor",
  "__proto__",
  "toString",
  "hasOwnProperty",
  "valueOf",
  "prototype",
  "",
  " ",
  "replace-code",
  "REPLACE_CODE",
  "rm -rf /",
  "../../etc/passwd",
  "\u0000",
  "😀",
  "$file",
  "eval",
  "x".repeat(10_000),
];

/** A hostile scalar or small structure (no 10 MB strings: those have their own family). */
function hostileValue(): unknown {
  switch (int(14)) {
    case 0:
      return pick([null, true, false]);
    case 1:
      return pick(BAD_NUMBERS);
    case 2:
      return pick(BAD_PATHS);
    case 3:
      return pick(HOSTILE_NAMES);
    case 4:
      return [];
    case 5:
      return [1, "two", null];
    case 6:
      return {};
    case 7:
      return polluted();
    case 8:
      return { file: pick(BAD_PATHS), kind: "function" };
    case 9:
      return "a".repeat(100_000);
    case 10:
      return nested(int(200) + 10);
    case 11:
      return {
        type: "sexp",
        file: A,
        query: pick(["(((", '(identifier) @x (#eq? @x "a" "b" "c")', "(nonexistent_node) @n", ""]),
      };
    case 12:
      return "$__proto__.polluted";
    default:
      return int(1000) - 500;
  }
}

/** An object with an own `__proto__` (or `constructor`) key, as JSON.parse makes them. */
function polluted(): unknown {
  return JSON.parse(
    pick([
      '{"__proto__": {"polluted": true}}',
      '{"constructor": {"prototype": {"polluted": true}}}',
      '{"file": "requests/auth.py", "__proto__": {"kind": "function"}}',
      '{"prototype": {"polluted": 1}}',
    ]),
  );
}

/** Nested objects `depth` deep (locator-like parents). */
function nested(depth: number): unknown {
  let value: Record<string, unknown> = { file: A, kind: "function" };
  for (let i = 0; i < depth; i++) value = { file: A, kind: "class", parent: value };
  return value;
}

type Path = (string | number)[];

/** Every path to a value inside `root` (objects and arrays), the root excluded. */
function paths(root: unknown, prefix: Path = [], out: Path[] = []): Path[] {
  if (root && typeof root === "object") {
    for (const key of Object.keys(root)) {
      const path = [...prefix, Array.isArray(root) ? Number(key) : key];
      out.push(path);
      paths((root as Record<string, unknown>)[key], path, out);
    }
  }
  return out;
}

function container(root: unknown, path: Path): Record<string | number, unknown> | undefined {
  let node = root as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  return node && typeof node === "object" ? node : undefined;
}

function setAt(root: unknown, path: Path, value: unknown): void {
  const parent = container(root, path);
  if (parent) {
    Object.defineProperty(parent, path[path.length - 1], {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
}

function deleteAt(root: unknown, path: Path): void {
  const parent = container(root, path);
  if (!parent) return;
  if (Array.isArray(parent)) parent.splice(Number(path[path.length - 1]), 1);
  else delete parent[path[path.length - 1]];
}

function mutate(step: Record<string, unknown>): void {
  const all = paths(step);
  if (all.length === 0) return;
  const path = pick(all);
  if (random() < 0.3) deleteAt(step, path);
  else setAt(step, path, hostileValue());
}

/** A plan around `steps`: array or object format. */
function wrap(steps: unknown[]): unknown {
  return random() < 0.7 ? steps : { plan: steps };
}

/** A generated case: a value for parsePlan, or text for parsePlanText. */
type Case = { family: string; value?: unknown; text?: string };

function nonJsonValue(): unknown {
  const cyclic: Record<string, unknown> = { op: "locate" };
  cyclic.params = { locator: cyclic };
  const throwing = {
    op: "locate",
    get params(): unknown {
      throw new Error("getter exploded");
    },
  };
  const proxy = new Proxy({}, {
    ownKeys() {
      throw new Error("proxy exploded");
    },
  });
  return pick<unknown>([
    undefined,
    () => [],
    Symbol("plan"),
    10n,
    [cyclic],
    [throwing],
    [proxy],
    new Date(),
    [new Map([["op", "locate"]])],
    [{ op: "locate", params: { locator: new Uint8Array(4) } }],
    // deno-lint-ignore no-sparse-arrays
    [, , { op: "locate" }],
    Object.create(null),
    [Object.assign(Object.create(null), {
      op: "replace_code",
      params: { file: "/etc/passwd", pattern: "a", replacement: "b" },
    })],
    [{ op: "locate", params: { locator: { file: A, kind: "class", index: NaN } } }],
  ]);
}

function garbageText(): string {
  const valid = JSON.stringify(baseSteps());
  return pick([
    "",
    "not json",
    "[{",
    "NaN",
    "[NaN]",
    "\u0000\u0001\u0002",
    valid.slice(0, int(valid.length)),
    "[".repeat(100_000) + "]".repeat(100_000),
    '{"plan": [' + "{".repeat(5000),
    "```json\n" + valid + "\n```",
    valid.replace(/"/g, "'"),
    '[{"op": "replace_code", "params": {"file": "a.py", "pattern": "x", "replacement": "y",}}]',
    String.fromCharCode(...Array.from({ length: 64 }, () => int(0xd800))),
    '[{"op": "locate", "params": {"__proto__": {"locator": {"file": "requests/auth.py", "kind": "class"}}}}]',
    '{"__proto__": [], "plan": [{"op": "locate", "params": {"locator": {"file": "requests/auth.py"}}}]}',
  ]);
}

function hostileDefinitions(): unknown {
  return pick<unknown>([
    [{ define: "loop", params_schema: {}, steps: [{ primitive: "loop", params: {} }] }],
    [{ define: "a", steps: [{ primitive: "b" }] }, { define: "b", steps: [{ primitive: "a" }] }],
    [{ define: "__proto__", steps: [{ primitive: "locate", params: { locator: FN } }] }],
    [{ define: "constructor", steps: [{ primitive: "locate", params: { locator: FN } }] }],
    [{
      define: "x",
      params_schema: { file: "string" },
      steps: [{ if: "$file.__proto__ == 1 and (((", then: [] }],
    }],
    [{
      define: "x",
      params_schema: { file: "nonsense" },
      steps: [{ primitive: "delete_node", params: { locator: { file: "$file" } } }],
    }],
    [{
      define: "x",
      params_schema: { f: "string" },
      steps: [{ primitive: "replace_code", params: { file: "../../etc/passwd" } }],
    }],
    [{ define: "replace_code", steps: [{ primitive: "locate", params: { locator: FN } }] }],
    "not an array",
    [null, 3, "x"],
    [{ define: "deep", steps: [nested(int(100) + 10)] }],
  ]);
}

function generate(i: number): Case {
  const steps = baseSteps();
  const step = () => structuredClone(pick(steps));
  switch (i % 12) {
    case 0: {
      const s = step();
      setAt(s, pick(paths(s)), hostileValue());
      return { family: "wrong-type", value: wrap([s]) };
    }
    case 1: {
      const s = step();
      deleteAt(s, pick(paths(s)));
      return { family: "missing", value: wrap([step(), s]) };
    }
    case 2: {
      const s = step();
      if ("op" in s) s.op = pick(HOSTILE_NAMES);
      else if ("template" in s) s.template = pick(HOSTILE_NAMES);
      else s.op = pick(HOSTILE_NAMES);
      return { family: "unknown-op", value: wrap([s]) };
    }
    case 3: {
      const locators = [
        {},
        { file: A },
        { file: A, kind: "nonexistent_kind" },
        { file: A, kind: "function", name: "no_such_function" },
        { file: A, kind: "class", nth_child: 1e9 },
        { file: A, kind: "class", index: -1e9 },
        { file: A, kind: "class", index: 1.5 },
        { file: A, kind: "function", field: "no_such_field" },
        { file: A, kind: "function", field: "__proto__" },
        { type: "sexp", file: A, query: "(((" },
        { type: "sexp", file: A, query: "(identifier) @id", capture: "nope" },
        { type: "sexp", file: A, query: '((identifier) @id (#match? @id "(((("))' },
        { type: "other", file: A },
        { file: A, kind: "function", parent: { file: "/etc/passwd", kind: "class" } },
        { file: pick(BAD_PATHS), kind: "function" },
        nested(int(60)),
      ];
      const target = pick(locators);
      const s = pick([
        { op: "replace_node", params: { locator: target, replacement: "pass" } },
        { op: "delete_node", params: { locator: target, all: random() < 0.5 } },
        {
          op: "wrap_node",
          params: { locator: target, before: "try:", after: "except Exception:\n    pass" },
        },
        { op: "replace_all_matching", params: { locator: target, replacement: "x" } },
        { op: "locate", params: { locator: target } },
        {
          op: "insert_before_node",
          params: { locator: target, code: "x = 1", separator: pick(["\n", "", ", ", "\n\n\n"]) },
        },
        { op: "delete_node", params: { target } },
        { template: "wrap_try_except", params: { target } },
      ]);
      return { family: "bad-locator", value: wrap([structuredClone(s)]) };
    }
    case 4: {
      const s = step();
      const params = s.params as Record<string, unknown> | undefined;
      const bad = pick(BAD_PATHS);
      if (params && "file" in params) params.file = bad;
      else if (params && params.locator) (params.locator as Record<string, unknown>).file = bad;
      else if (params && params.target) (params.target as Record<string, unknown>).file = bad;
      else if (s.target) (s.target as Record<string, unknown>).file = bad;
      return { family: "path", value: wrap([s]) };
    }
    case 5: {
      const depth = i % 120 === 5 ? 100_000 : int(3000) + 60;
      const shape = int(3);
      if (shape === 0) {
        return { family: "deep", value: [{ op: "locate", params: { locator: nested(depth) } }] };
      }
      if (shape === 1) {
        let arr: unknown = [];
        for (let k = 0; k < depth; k++) arr = [arr];
        return { family: "deep", value: arr };
      }
      let fragment: Record<string, unknown> = { kind: "pass_statement" };
      for (let k = 0; k < depth; k++) fragment = { kind: "if_statement", children: [fragment] };
      return { family: "deep", value: [{ fragment, action: "replace", target: FN }] };
    }
    case 6: {
      const s = step();
      const where = pick([
        [],
        ...paths(s).filter((path) => {
          const parent = container(s, [...path, "x"]);
          return parent && !Array.isArray(parent);
        }),
      ]);
      const target = where.length === 0 ? s : container(s, [...where, "x"])!;
      const key = pick(["__proto__", "constructor", "prototype"]);
      Object.defineProperty(target, key, {
        value: { polluted: true, file: "/etc/passwd" },
        enumerable: true,
        configurable: true,
        writable: true,
      });
      return { family: "prototype", value: wrap([s]) };
    }
    case 7: {
      const s = pick([
        {
          op: "insert_code",
          params: { file: A, anchor_line: pick(BAD_NUMBERS), position: "after", code: "x = 1" },
        },
        {
          op: "delete_lines",
          params: { file: A, start_line: pick(BAD_NUMBERS), end_line: pick(BAD_NUMBERS) },
        },
        {
          op: "wrap_block",
          params: {
            file: A,
            start_line: pick(BAD_NUMBERS),
            end_line: pick(BAD_NUMBERS),
            before_code: "try:",
            after_code: "finally:\n    pass",
          },
        },
        { op: "locate", params: { locator: { file: A, kind: "class", index: pick(BAD_NUMBERS) } } },
        { op: "locate", params: { locator: { file: A, kind: "class", nth_child: pick(BAD_NUMBERS) } } },
        { op: "reorder_children", params: { target: FN, order: [pick(BAD_NUMBERS), pick(BAD_NUMBERS)] } },
      ]);
      return { family: "numbers", value: wrap([structuredClone(s)]) };
    }
    case 8:
      return random() < 0.5
        ? { family: "non-json-value", value: nonJsonValue() }
        : { family: "non-json-text", text: garbageText() };
    case 9:
      return {
        family: "top-level",
        value: pick<unknown>([
          ["src/foo.py", "src/bar.py"],
          [],
          {},
          [[]],
          [1, 2, 3],
          [null],
          "requests/auth.py",
          42,
          true,
          null,
          step(),
          { plan: step() },
          { plan: [], define_operators: [] },
          { steps: [step()] },
          [steps.map((s) => s.op ?? s.template)],
          { plan: [step()], define_operators: "x", extra: 1 },
          Array.from({ length: 20_000 }, () => ({ op: "nope" })),
        ]),
      };
    case 10: {
      const list = Array.from({ length: int(3) + 1 }, step);
      for (let k = int(4) + 2; k > 0; k--) mutate(pick(list));
      return { family: "multi", value: wrap(list) };
    }
    default: {
      const k = Math.floor(i / 12);
      if (k % 16 === 0) {
        // One case of each, in turn (10 MB texts are slow to move around; six are enough).
        const big = tenMegabytes();
        const s = [
          { op: "replace_code", params: { file: A, pattern: big, replacement: "x" } },
          { op: "replace_code", params: { file: A, pattern: "import os\n", replacement: big } },
          { op: "insert_code", params: { file: A, anchor_line: 1, position: "before", code: big } },
          { op: "rename_symbol", params: { file: A, old_name: big, new_name: "y" } },
          { op: "locate", params: { locator: { file: A, kind: "function", name: big } } },
          { op: big, params: {} },
        ][(k / 16) % 6];
        return { family: "huge", value: [s] };
      }
      if (k % 16 === 8) {
        // Just over and well under the 1 MB limit on code parameters.
        const big = "y = 2\n".repeat(pick([166_667, 80_000]));
        const s = pick([
          { op: "replace_code", params: { file: A, pattern: "import os\n", replacement: big } },
          { op: "insert_code", params: { file: A, anchor_line: 1, position: "before", code: big } },
          { op: "replace_node", params: { locator: FN, replacement: big } },
          { op: "add_import", params: { file: A, import_statement: big } },
        ]);
        return { family: "huge", value: [s] };
      }
      return {
        family: "definitions",
        value: { define_operators: hostileDefinitions(), plan: [step(), { op: "loop", params: {} }] },
      };
    }
  }
}

/** Every code seen, with how often (to check the families reach their targets). */
const seen = new Map<string, number>();

/** Every issue has a kebab-case code and a short, non-empty message. */
function checkIssues(issues: Issue[], label: string): void {
  assert.ok(issues.length > 0, `${label}: no issues`);
  for (const issue of issues) {
    seen.set(issue.code, (seen.get(issue.code) ?? 0) + 1);
    assert.match(issue.code ?? "", KEBAB, `${label}: bad code ${JSON.stringify(issue.code)}`);
    assert.ok(
      typeof issue.message === "string" && issue.message.trim().length > 0,
      `${label}: empty message`,
    );
    assert.ok(
      issue.message.length < 2_000,
      `${label}: ${issue.code} message of ${issue.message.length} characters: ${issue.message.slice(0, 300)}`,
    );
    assert.ok(issue.severity === "error" || issue.severity === "warning", `${label}: bad severity`);
  }
}

async function hashTree(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const walk = async (path: string) => {
    for await (const entry of Deno.readDir(path)) {
      const full = `${path}/${entry.name}`;
      if (entry.isSymlink) out.set(full, `link:${await Deno.readLink(full)}`);
      else if (entry.isDirectory) await walk(full);
      else out.set(full, createHash("sha256").update(await Deno.readFile(full)).digest("hex"));
    }
  };
  await walk(dir);
  return out;
}

Deno.test({
  name: `hostile plans: ${CASES} generated cases never crash, always explain, never change a file`,
  ignore: !!CORPUS_SKIP,
  async fn() {
    const root = await Deno.makeTempDir({ prefix: "graphplan-hostile-" });
    const repo = `${root}/repo`;
    const outside = `${root}/outside`;
    try {
      await Deno.mkdir(`${repo}/requests`, { recursive: true });
      await Deno.mkdir(`${repo}/web`, { recursive: true });
      await Deno.mkdir(outside);
      await Deno.writeTextFile(`${repo}/${A}`, (await corpusFile("psf__requests-1766", A)).before);
      await Deno.writeTextFile(`${repo}/${JS}`, "export function add(a, b) {\n  return a + b;\n}\n");
      await Deno.writeFile(`${repo}/binary.py`, new Uint8Array([0x70, 0x00, 0x01, 0xff, 0x00]));
      await Deno.writeTextFile(`${repo}/notes.txt`, "not code\n");
      await Deno.writeTextFile(`${outside}/secret.py`, "SECRET = 1\n");
      await Deno.writeTextFile(`${root}/outside.py`, "OUTSIDE = 1\n");
      await Deno.symlink(`${outside}/secret.py`, `${repo}/link.py`);
      await Deno.symlink(outside, `${repo}/linkdir`);
      const before = await hashTree(root.replace(/\/$/, ""));

      const workspace = Workspace.open(repo);
      const store = new DocumentStore(workspace);
      const sentinel =
        parsePlan([{ op: "delete_lines", params: { file: A, start_line: 1, end_line: 1_000_000 } }]).plan!
          .steps[0];
      const counts = { parsed: 0, rejected: 0, stepFailures: 0, stepSuccesses: 0, executed: 0 };
      const families = new Map<string, number>();

      const timing = new Map<string, number>();
      for (let i = 0; i < CASES; i++) {
        const started = performance.now();
        const c = generate(i);
        const label = `case ${i} (${c.family})`;
        families.set(c.family, (families.get(c.family) ?? 0) + 1);
        let result;
        try {
          result = c.text !== undefined ? parsePlanText(c.text) : parsePlan(c.value);
        } catch (err) {
          assert.fail(`${label}: parsePlan threw ${(err as Error)?.stack ?? err}`);
        }
        if (!result.plan) {
          counts.rejected++;
          checkIssues(result.issues.filter((issue) => issue.severity === "error"), label);
          continue;
        }
        counts.parsed++;
        if (result.issues.length > 0) checkIssues(result.issues, label);
        const plan = result.plan;
        for (const step of plan.steps) {
          const ctx = new StepContext(store, step.index);
          try {
            await runStep(step, ctx, plan);
            counts.stepSuccesses++;
          } catch (err) {
            if (!(err instanceof IssueError)) {
              assert.fail(`${label}: runStep threw ${(err as Error)?.stack ?? err}`);
            }
            counts.stepFailures++;
            checkIssues(err.issues, label);
          }
        }
        // The real executor: the sentinel step always fails, so whatever the plan did is rolled back.
        const steps: NormalizedStep[] = [...plan.steps, { ...sentinel, index: plan.steps.length }];
        let outcome;
        try {
          outcome = await executePlan(store, steps, { runStep: (step, ctx) => runStep(step, ctx, plan) });
        } catch (err) {
          assert.fail(`${label}: executePlan threw ${(err as Error)?.stack ?? err}`);
        }
        counts.executed++;
        assert.equal(outcome.success, false, label);
        assert.equal(outcome.rolled_back, true, label);
        checkIssues(outcome.errors, label);
        timing.set(c.family, (timing.get(c.family) ?? 0) + performance.now() - started);
      }
      if (Deno.env.get("HOSTILE_TIMING")) {
        console.log(Object.fromEntries([...timing].map(([k, v]) => [k, Math.round(v)])));
      }

      assert.equal(hasPendingJournal(workspace), false);
      const after = await hashTree(root);
      assert.deepEqual(after, before, "a file changed");
      assert.equal(({} as Record<string, unknown>).polluted, undefined, "Object.prototype was polluted");
      assert.equal(Object.prototype.hasOwnProperty.call(Object.prototype, "polluted"), false);
      assert.equal(counts.parsed + counts.rejected, CASES);
      assert.ok(counts.rejected > CASES / 2, JSON.stringify(counts));
      assert.ok(counts.executed > 50, JSON.stringify(counts));
      assert.equal(families.size, 14, JSON.stringify([...families]));
      const expected = [
        "plan-invalid",
        "plan-not-json",
        "plan-too-deep",
        "forbidden-key",
        "json-invalid",
        "unknown-operator",
        "unknown-template",
        "missing-parameter",
        "wrong-type",
        "invalid-value",
        "path-outside-repo",
        "path-invalid",
        "line-out-of-range",
        "locator-not-found",
        "locator-invalid",
      ];
      for (const code of expected) {
        assert.ok(seen.has(code), `no case produced "${code}": ${JSON.stringify([...seen])}`);
      }
      console.log(
        `hostile plans: ${JSON.stringify(counts)}; families ${JSON.stringify(Object.fromEntries(families))}`,
      );
      console.log(
        `issue codes: ${JSON.stringify(Object.fromEntries([...seen].sort((a, b) => b[1] - a[1])))}`,
      );
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});

/**
 * The stride through the bench's 2,000 unbounded-work cases: every 23rd in a full run (87 cases), every
 * 69th in the quick tier (29 cases, a third of the time; 69 is coprime with the five families too).
 */
const UNBOUNDED_STRIDE = QUICK ? 69 : 23;

Deno.test(`hostile plans asking for unbounded work (every ${UNBOUNDED_STRIDE}th of the fuzz bench's): bounded, explained, no writes`, async () => {
  const root = await Deno.makeTempDir({ prefix: "graphplan-unbounded-" });
  try {
    const repo = `${root}/repo`;
    for (const [path, text] of Object.entries(HOSTILE_REPO)) {
      await Deno.mkdir(`${repo}/${path.slice(0, path.lastIndexOf("/"))}`, { recursive: true });
      await Deno.writeTextFile(`${repo}/${path}`, text);
    }
    const before = await hashTree(repo);
    const workspace = Workspace.open(repo);
    const store = new DocumentStore(workspace);
    const families = new Map<string, number>();
    // A sample of the bench's 2,000 cases (all five families, different sizes).
    for (let i = 0; i < 2000; i += UNBOUNDED_STRIDE) {
      const c = hostileCase(i);
      families.set(c.family, (families.get(c.family) ?? 0) + 1);
      const label = `unbounded case ${i} (${c.family})`;
      const verified = await withBudget(20, () => verifyPlan(store, c.plan));
      for (const issue of [...verified.errors, ...verified.warnings]) {
        assert.ok(!["internal-error", "step-crashed"].includes(issue.code), `${label}: ${issue.message}`);
      }
      checkIssues(
        verified.errors.length ? verified.errors : verified.warnings.length ? verified.warnings : [
          { code: "no-op-edit", severity: "warning", message: "passed" },
        ],
        label,
      );
      const { plan } = parsePlan(withFailingStep(c.plan));
      if (!plan) continue;
      const outcome = await withBudget(
        20,
        () => executePlan(store, plan.steps, { runStep: (step, ctx) => runStep(step, ctx, plan) }),
      );
      assert.equal(outcome.success, false, label);
      assert.equal(outcome.rolled_back, true, label);
      for (const issue of outcome.errors) {
        assert.ok(!["internal-error", "step-crashed"].includes(issue.code), `${label}: ${issue.message}`);
      }
    }
    assert.equal(families.size, 5, JSON.stringify([...families]));
    assert.equal(hasPendingJournal(workspace), false);
    assert.deepEqual(await hashTree(repo), before, "a file changed");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
