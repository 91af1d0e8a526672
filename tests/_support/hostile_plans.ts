/**
 * Hostile plans that ask for unbounded work (issue 18), as a seeded
 * generator shared by the hostile-plan test (a sample) and `deno task bench
 * fuzz` (the full set): every plan must be refused or carried out within
 * its budget, never crash, never hang, never leave a write behind.
 *
 * Families (each case targets `app/service.py` of `HOSTILE_REPO`):
 * - `fan-out`: operators calling the next 2–10 times, 3–20 levels deep,
 *   ending in a locate, an insert or a `warn`, after 0–2 real steps;
 * - `deep`: chains of up to 3,000 operators, `if`s nested in operators,
 *   locators with deep `parent` chains;
 * - `query`: S-expression locators that are unbalanced (`)`, `]`), use
 *   catastrophic or unsupported `#match?` regexes, match everything, or are
 *   long and deeply nested;
 * - `substitution`: parameters that grow by repeated `$x$x` references
 *   through the levels, or a large code parameter used many times;
 * - `wide`: thousands of plain steps, and steps whose composed calls add up.
 *
 * @module
 */

/** The file every case targets. */
export const HOSTILE_FILE = "app/service.py";

/** The repository the cases run against (small, realistic Python). */
export const HOSTILE_REPO: Record<string, string> = {
  [HOSTILE_FILE]: `import os
import sys


class Service:
    """A service."""

    def run(self, aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa):
        if aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa:
            return [1, [2, [3, [4]]]]
        return os.path.join("a", "b")

    def stop(self):
        return None


def helper(x, y):
    total = 0
    for i in range(x):
        total += i * y
    return total
`,
  "app/__init__.py": "",
};

/** One generated case: a plan document and its family. */
export interface HostileCase {
  family: "fan-out" | "deep" | "query" | "substitution" | "wide";
  plan: unknown;
}

/** mulberry32: a small deterministic PRNG. */
export function prng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const F = HOSTILE_FILE;
const LOCATE = { primitive: "locate", params: { locator: { file: "$file", kind: "class" } } };
const INSERT = {
  primitive: "insert_after_node",
  params: { locator: { file: "$file", kind: "import", index: 0 }, code: "import json" },
};
const WARN = { primitive: "warn", params: { message: "step" } };
const REAL_STEPS = [
  { op: "insert_code", params: { file: F, anchor_line: 2, position: "after", code: "import re" } },
  { op: "replace_code", params: { file: F, pattern: "return None", replacement: "return 0" } },
];

const CATASTROPHIC = [
  "^(a+)+$",
  "^(a|a)+$",
  "^(a|aa)+$",
  "^(.*a){12}$",
  "(a*)*b",
  "^(\\\\w+\\\\s?)+$",
  "(a)\\\\1",
  "a(?=b)",
  "(?<=a)b",
  "[",
  "(",
  "a{99999}",
  "(((((((((((a)))))))))))*",
  "^(a{1,30}){1,30}$",
];

/** The generated case number `i` of the sequence seeded by `seed`. */
export function hostileCase(i: number, seed = 0x18_2026): HostileCase {
  const random = prng(seed + i * 7919);
  const int = (n: number) => Math.floor(random() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)];
  switch (i % 5) {
    case 0: {
      const fanOut = 2 + int(9);
      const levels = 3 + int(18);
      const leaf = pick([LOCATE, INSERT, WARN]);
      const defs: Record<string, unknown>[] = [];
      for (let k = 0; k < levels; k++) {
        defs.push({
          define: `op${k}`,
          params_schema: { file: "string" },
          steps: Array.from(
            { length: fanOut },
            () => ({ primitive: `op${k + 1}`, params: { file: "$file" } }),
          ),
        });
      }
      defs.push({ define: `op${levels}`, params_schema: { file: "string" }, steps: [leaf] });
      const before = REAL_STEPS.slice(0, int(3));
      return {
        family: "fan-out",
        plan: { define_operators: defs, plan: [...before, { op: "op0", params: { file: F } }] },
      };
    }
    case 1: {
      const shape = int(3);
      if (shape === 0) {
        const length = pick([20, 200, 1000, 3000]);
        const defs: Record<string, unknown>[] = Array.from({ length }, (_, k) => ({
          define: `c${k}`,
          params_schema: { file: "string" },
          steps: [{ primitive: `c${k + 1}`, params: { file: "$file" } }],
        }));
        defs.push({
          define: `c${length}`,
          params_schema: { file: "string" },
          steps: [pick([LOCATE, INSERT])],
        });
        return {
          family: "deep",
          plan: { define_operators: defs, plan: [{ op: "c0", params: { file: F } }] },
        };
      }
      if (shape === 1) {
        let step: Record<string, unknown> = LOCATE;
        for (let k = 0, n = 5 + int(40); k < n; k++) {
          step = { if: "$file != ''", then: [step, LOCATE], else: [WARN] };
        }
        return {
          family: "deep",
          plan: {
            define_operators: [{ define: "nested", params_schema: { file: "string" }, steps: [step] }],
            plan: [{ op: "nested", params: { file: F } }],
          },
        };
      }
      let locator: Record<string, unknown> = { file: F, kind: "function" };
      for (let k = 0, n = 5 + int(60); k < n; k++) locator = { file: F, kind: "class", parent: locator };
      return { family: "deep", plan: [{ op: "locate", params: { locator } }] };
    }
    case 2: {
      const regex = pick(CATASTROPHIC);
      const query = pick([
        ")",
        "]",
        ") (identifier) @id",
        "(identifier) @id ]",
        `((identifier) @id (#match? @id "${regex}"))`,
        `(identifier) @id (#not-match? @id "${regex}")`,
        "(_) @any",
        "(_ (_) @a . (_)* . (_) @b . (_)* . (_) @c)",
        "[" + Array.from({ length: 300 + int(3000) }, (_, k) => `(identifier) @i${k % 50}`).join(" ") + "]",
        "(".repeat(30 + int(200)) + "identifier" + ")".repeat(30 + int(200)) + " @x",
        `((string) @s (#match? @s "${"(a|b|c)*".repeat(1 + int(40))}d"))`,
      ]);
      const op = pick(["locate", "replace_all_matching", "delete_node"]);
      const params: Record<string, unknown> = { locator: { type: "sexp", file: F, query } };
      if (op === "replace_all_matching") params.replacement = "x";
      if (op === "delete_node") params.all = true;
      return { family: "query", plan: [{ op, params }] };
    }
    case 3: {
      const levels = 2 + int(12);
      const copies = 2 + int(6);
      const defs: Record<string, unknown>[] = [];
      for (let k = 0; k < levels; k++) {
        defs.push({
          define: `grow${k}`,
          params_schema: { file: "string", code: "string" },
          steps: [{ primitive: `grow${k + 1}`, params: { file: "$file", code: "$code".repeat(copies) } }],
        });
      }
      defs.push({
        define: `grow${levels}`,
        params_schema: { file: "string", code: "string" },
        steps: [{
          primitive: "insert_after_node",
          params: { locator: { file: "$file", kind: "import", index: 0 }, code: "$code" },
        }],
      });
      const code = pick(["x = 1\n", "y = 2  # " + "z".repeat(int(100_000)) + "\n"]);
      return {
        family: "substitution",
        plan: { define_operators: defs, plan: [{ op: "grow0", params: { file: F, code } }] },
      };
    }
    default: {
      if (int(2) === 0) {
        const n = pick([1000, 3000, 10_001]);
        const steps = Array.from({ length: n }, (_, k) => ({
          op: "locate",
          params: { locator: { file: F, kind: pick(["class", "function", "import"]), index: k % 2 } },
        }));
        return { family: "wide", plan: steps };
      }
      const calls = 100 + int(1500);
      const defs = [{ define: "three", params_schema: { file: "string" }, steps: [LOCATE, LOCATE, WARN] }];
      return {
        family: "wide",
        plan: {
          define_operators: defs,
          plan: Array.from({ length: calls }, () => ({ op: "three", params: { file: F } })),
        },
      };
    }
  }
}

/** A step that always fails (appended so an executed plan ends in a rollback). */
export const FAILING_STEP = { op: "delete_lines", params: { file: F, start_line: 1, end_line: 1_000_000 } };

/** `plan` with `FAILING_STEP` appended to its steps. */
export function withFailingStep(plan: unknown): unknown {
  if (Array.isArray(plan)) return [...plan, FAILING_STEP];
  const doc = plan as { plan: unknown[] };
  return { ...doc, plan: [...doc.plan, FAILING_STEP] };
}
