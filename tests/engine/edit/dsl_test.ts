import assert from "node:assert/strict";
import {
  evaluate,
  expandComposed,
  type OperatorDefinition,
  parseExpression,
  runComposed,
  substitute,
  truthy,
  validateDefinitions,
} from "../../../engine/edit/dsl.ts";
import { type Issue, IssueError } from "../../../engine/base/issue.ts";
import { assertPythonParses } from "../../_support/python.ts";
import { contextWith, CORPUS_SKIP, corpusFile, textOf } from "./_edit_support.ts";
import { tempRepo, verifyAt } from "../../_support/plans.ts";

const AUTH_FILE = "requests/auth.py";

const codes = (issues: Issue[]) => issues.filter((i) => i.severity === "error").map((i) => i.code);

// The seed's own example, plus a conditional one.
const CACHED: OperatorDefinition = {
  define: "add_cached_property",
  params_schema: { file: "string", class_name: "string", prop_name: "string", body: "string" },
  steps: [
    {
      primitive: "insert_after_node",
      params: {
        locator: { kind: "class", name: "$class_name", file: "$file", field: "body", nth_child: -1 },
        code: "\n    @cached_property\n    def $prop_name(self):\n$body",
      },
    },
  ],
};

const ENSURE: OperatorDefinition = {
  define: "ensure_method",
  params_schema: { file: "string", class_name: "string", name: "string", code: "string", note: "string?" },
  steps: [
    {
      primitive: "locate",
      params: {
        locator: {
          kind: "method",
          name: "$name",
          file: "$file",
          parent: { kind: "class", name: "$class_name" },
        },
      },
      bind: "found",
    },
    {
      if: "$found.count > 0",
      then: {
        primitive: "warn",
        params: { code: "method-exists", message: "$name exists at line $found.nodes" },
      },
      else: [
        {
          primitive: "add_method",
          params: { file: "$file", class_name: "$class_name", method_code: "$code" },
        },
        {
          primitive: "locate",
          params: { locator: { kind: "method", name: "$name", file: "$file" } },
          bind: "added",
        },
      ],
    },
  ],
};

Deno.test("dsl: substitution of $param and $var.field in strings, objects and arrays; whole strings keep types", () => {
  const env = {
    file: "a.py",
    out: { count: 2, nodes: [{ start_line: 7 }] },
    loc: { kind: "class", name: "A" },
  };
  assert.deepEqual(
    substitute({
      a: "$file",
      b: ["$out.count", "n=$out.count!"],
      c: "$loc",
      d: "$file.bak",
      e: "$$x $missing",
    }, env),
    { a: "a.py", b: [2, "n=2!"], c: { kind: "class", name: "A" }, d: "a.py.bak", e: "$x $missing" },
  );
  assert.equal(substitute("$out.nodes", env), env.out.nodes);
  assert.equal(substitute("lines: $out.nodes", env), 'lines: [{"start_line":7}]');
});

Deno.test("dsl: if-expressions: comparisons, truthiness, and/or/not, parentheses, strings", () => {
  const env = { v: { count: 2, found: true, kind: "class", list: [] as number[] }, n: 0 };
  const check = (source: string) => truthy(evaluate(parseExpression(source), env));
  assert.equal(check("$v.count > 0"), true);
  assert.equal(check("$v.count >= 3"), false);
  assert.equal(check("$v.count == 2 and $v.found"), true);
  assert.equal(check("$v.kind == 'class' && !$n"), true);
  assert.equal(check('not ($v.kind != "class" or $v.list)'), true);
  assert.equal(check("$v.list"), false);
  assert.equal(check("$v.missing == null"), true);
  assert.equal(check("$v.count < 1 || $v.count <= 2"), true);
  for (
    const bad of [
      "",
      "$v.count >",
      "count > 0",
      "$v.count = 1",
      "($v.found",
      "$v.found and",
      "1 2",
      "eval('x')",
    ]
  ) {
    assert.throws(() => parseExpression(bad), Error, bad);
  }
});

Deno.test("dsl: validation accepts the seed's example and a conditional operator calling a built-in", () => {
  assert.deepEqual(validateDefinitions([CACHED, ENSURE]), []);
});

Deno.test("dsl: every validation error is reported before running, with a JSON path", () => {
  const defs = [
    {
      define: "bad_vars",
      params_schema: { file: "string" },
      steps: [
        {
          primitive: "locate",
          params: { locator: { kind: "class", name: "$klass", file: "$file" } },
          bind: "c",
        },
        { if: "$c.count > 0 and $nope", then: { primitive: "warn", params: { message: "$c.count" } } },
        { primitive: "frobnicate", params: {} },
        { primitive: "replace_node", params: { locator: { file: "$file" } } },
        { if: "$c.count >", then: { primitive: "warn", params: { message: "x" } } },
      ],
    },
    {
      define: "ping",
      params_schema: { file: "string" },
      steps: [{ primitive: "pong", params: { file: "$file" } }],
    },
    {
      define: "pong",
      params_schema: { file: "string" },
      steps: [{ primitive: "ping", params: { file: "$file" } }],
    },
    { define: "self_call", params_schema: {}, steps: [{ primitive: "self_call", params: {} }] },
    {
      define: "needs",
      params_schema: { file: "string", code: "string" },
      steps: [{ primitive: "needs_caller", params: {} }],
    },
    { define: "needs_caller", params_schema: {}, steps: [{ primitive: "replace_node", params: {} }] },
    { define: "caller2", params_schema: {}, steps: [{ primitive: "ensure_x", params: {} }] },
    { define: "replace_node", params_schema: {}, steps: [{ primitive: "locate", params: { locator: {} } }] },
    { define: "ping", params_schema: { x: "strin" }, steps: [] },
  ];
  const issues = validateDefinitions(defs);
  const byCode = (code: string) => issues.filter((i) => i.code === code).map((i) => JSON.stringify(i.path));
  assert.deepEqual(byCode("dsl-unknown-variable"), [
    '["define_operators",0,"steps",0,"params","locator"]',
    '["define_operators",0,"steps",1,"if"]',
  ]);
  assert.deepEqual(byCode("dsl-unknown-operator"), [
    '["define_operators",0,"steps",2,"primitive"]',
    '["define_operators",6,"steps",0,"primitive"]',
  ]);
  assert.deepEqual(byCode("dsl-missing-param"), [
    '["define_operators",0,"steps",3,"params"]',
    '["define_operators",5,"steps",0,"params"]',
    '["define_operators",5,"steps",0,"params"]',
  ]);
  assert.deepEqual(byCode("dsl-bad-expression"), ['["define_operators",0,"steps",4,"if"]']);
  assert.deepEqual(byCode("dsl-recursion").length, 2);
  assert.ok(issues.some((i) => i.code === "dsl-recursion" && i.message.includes("ping → pong → ping")));
  assert.ok(issues.some((i) => i.code === "dsl-recursion" && i.message.includes("self_call → self_call")));
  assert.deepEqual(byCode("dsl-name-reserved"), ['["define_operators",7,"define"]']);
  assert.deepEqual(byCode("dsl-duplicate"), ['["define_operators",8,"define"]']);
  assert.deepEqual(byCode("dsl-bad-type"), ['["define_operators",8,"params_schema","x"]']);
  assert.ok(
    issues.some((i) =>
      i.code === "dsl-invalid" && JSON.stringify(i.path) === '["define_operators",8,"steps"]'
    ),
  );
  assert.deepEqual(codes(validateDefinitions({ define: "x" })), ["dsl-invalid"]);
});

Deno.test("dsl: a variable bound in only one branch is unknown after the if", () => {
  const issues = validateDefinitions([{
    define: "branchy",
    params_schema: { file: "string" },
    steps: [
      {
        if: "$file == 'a.py'",
        then: { primitive: "locate", params: { locator: { file: "$file" } }, bind: "x" },
      },
      { primitive: "warn", params: { message: "$x.count" } },
    ],
  }]);
  assert.deepEqual(codes(issues), ["dsl-unknown-variable"]);
});

Deno.test("dsl: runComposed refuses invalid definitions and missing params before touching anything", async () => {
  const { ctx } = await contextWith({ "a.py": "class A:\n    pass\n" });
  await assert.rejects(
    () =>
      runComposed("add_cached_property", { file: "a.py", class_name: "A", prop_name: "p" }, ctx, [CACHED]),
    (err: unknown) => err instanceof IssueError && err.issues[0].code === "dsl-missing-param",
  );
  await assert.rejects(
    () =>
      runComposed("loop", {}, ctx, [{
        define: "loop",
        params_schema: {},
        steps: [{ primitive: "loop", params: {} }],
      }]),
    (err: unknown) => err instanceof IssueError && err.issues[0].code === "dsl-recursion",
  );
  await assert.rejects(
    () => runComposed("nothing", {}, ctx, []),
    (err: unknown) => err instanceof IssueError && err.issues[0].code === "unknown-operator",
  );
  assert.equal(ctx.records.length, 0);
});

Deno.test("dsl: the seed's add_cached_property runs, each step seeing the previous one's result", async () => {
  const source = "class QuerySet:\n    def count(self):\n        return 0\n";
  const { ctx } = await contextWith({ "q.py": source });
  await runComposed(
    "add_cached_property",
    {
      file: "q.py",
      class_name: "QuerySet",
      prop_name: "_key",
      body: "        return hash(self.query)",
    },
    ctx,
    [CACHED],
  );
  const after = await textOf(ctx, "q.py");
  assert.equal(
    after,
    source + "\n    @cached_property\n    def _key(self):\n        return hash(self.query)\n",
  );
  await assertPythonParses(after);
});

Deno.test("dsl: bind + if/else + nested composed operator", async () => {
  const source = "class A:\n    def f(self):\n        return 1\n";
  const { ctx } = await contextWith({ "a.py": source });
  const first = await runComposed(
    "ensure_method",
    {
      file: "a.py",
      class_name: "A",
      name: "g",
      code: "def g(self):\n    return 2",
    },
    ctx,
    [ENSURE],
  );
  assert.equal((first.outputs.added as { count: number }).count, 1);
  assert.equal(await textOf(ctx, "a.py"), source + "\n    def g(self):\n        return 2\n");
  const second = await runComposed(
    "ensure_method",
    {
      file: "a.py",
      class_name: "A",
      name: "g",
      code: "def g(self):\n    return 3",
    },
    ctx,
    [ENSURE],
  );
  assert.equal(second.outputs.added, undefined);
  assert.equal(ctx.warnings.length, 1);
  assert.equal(ctx.warnings[0].code, "method-exists");
  assert.ok(ctx.warnings[0].message.startsWith("g exists at line [{"));
});

Deno.test("dsl: expandComposed substitutes params, inlines nested operators, keeps ifs", () => {
  const steps = expandComposed("ensure_method", {
    file: "a.py",
    class_name: "A",
    name: "g",
    code: "def g(): $x",
  }, [
    ENSURE,
  ]);
  assert.equal(steps.length, 2);
  type Step = { primitive?: string; params?: Record<string, unknown>; if?: string; else?: Step[] };
  const branch = steps[1] as Step;
  assert.equal(branch.if, "$found.count > 0");
  // add_method is inlined: its class_body_anchor and its own if.
  assert.deepEqual(branch.else!.map((s) => s.primitive ?? `if ${s.if}`), [
    "class_body_anchor",
    "if $slot.position == 'empty'",
    "locate",
  ]);
  // Parameter values are inserted once: "$x" inside the code stays as written.
  assert.equal(branch.else![0].params!.code, "def g(): $x");
  assert.equal(branch.else![1].else![0].else![0].params!.code, "def g(): $x");
});

Deno.test("dsl: expansion puts scalar parameters into if-expressions as literals", () => {
  const def: OperatorDefinition = {
    define: "maybe",
    params_schema: { file: "string", n: "number" },
    steps: [
      { primitive: "locate", params: { locator: { file: "$file" } }, bind: "r" },
      {
        if: "$file == 'a.py' and $n > 1 and $r.found",
        then: { primitive: "warn", params: { message: "$file" } },
      },
    ],
  };
  const steps = expandComposed("maybe", { file: "a.py", n: 2 }, [def]);
  assert.equal((steps[1] as { if: string }).if, `"a.py" == 'a.py' and 2 > 1 and $r.found`);
  assert.equal(evaluate(parseExpression(`"a.py" == 'a.py' and 2 > 1`), {}), true);
});

Deno.test({
  name: "dsl: warn given a whole object (a locate result) shows it as JSON, not [object Object]",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const dir = await tempRepo({ [AUTH_FILE]: await corpusFile("psf__requests-1766", AUTH_FILE) });
    try {
      const result = await verifyAt(dir, {
        define_operators: [{
          define: "report_methods",
          params_schema: { file: "string", class_name: "string" },
          steps: [
            {
              primitive: "locate",
              params: {
                locator: { kind: "method", file: "$file", parent: { kind: "class", name: "$class_name" } },
              },
              bind: "found",
            },
            { primitive: "warn", params: { code: "methods", message: "$found" } },
          ],
        }],
        plan: [{ op: "report_methods", params: { file: AUTH_FILE, class_name: "HTTPDigestAuth" } }],
      });
      const warned = result.warnings.find((issue) => issue.code === "dsl-warning");
      assert.ok(warned, JSON.stringify(result));
      assert.doesNotMatch(warned.message, /\[object Object\]/);
      assert.match(
        warned.message,
        /^Step 0 \([^)]*\): methods: /,
        "the author's own label leads the message",
      );
      const shown = JSON.parse(warned.message.replace(/^Step 0 \([^)]*\): methods: /, ""));
      assert.equal(shown.count, 4); // __init__, build_digest_header, handle_401, __call__
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
