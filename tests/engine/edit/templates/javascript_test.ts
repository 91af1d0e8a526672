/**
 * The templates on JavaScript (checked with `node --check`) and TypeScript
 * (checked with the tree-sitter TypeScript grammar), through the same code
 * as Python with the JS language table.
 */

import assert from "node:assert/strict";
import { parse, syntaxProblems } from "../../../../engine/parse/mod.ts";
import { assertNodeParses, nodeSkip } from "../_edit_support.ts";
import { apply, reject } from "./_support.ts";

const FIXTURES = new URL("../../../fixtures/templates/", import.meta.url);
const JS = "web/client.js";
const TS = "web/client.ts";
const js = await Deno.readTextFile(new URL(JS, FIXTURES));
const ts = await Deno.readTextFile(new URL(TS, FIXTURES));
const jsFn = (name: string) => ({ file: JS, kind: "function", name });
const tsFn = (name: string) => ({ file: TS, kind: "function", name });

async function assertTypeScriptParses(source: string): Promise<void> {
  const tree = await parse("typescript", source);
  const problems = syntaxProblems(tree);
  tree.delete();
  assert.deepEqual(problems, [], `tree-sitter rejects the TypeScript:\n${source}`);
}

async function jsExact(name: string, params: Record<string, unknown>, expected: string) {
  const { text } = await apply(name, JS, js, params);
  assert.equal(text, expected);
  await assertNodeParses(text);
}

Deno.test({
  name: "js guard_clause: if (cond) { ... } first in the function body",
  ignore: nodeSkip() !== undefined,
  fn: async () => {
    await jsExact(
      "guard_clause",
      { target: jsFn("fetchJson"), condition: "!url", guard_body: 'throw new Error("url is required");' },
      js.replace(
        "retries = 3) {\n",
        'retries = 3) {\n  if (!url) {\n    throw new Error("url is required");\n  }\n',
      ),
    );
  },
});

Deno.test({
  name: "js wrap_try_except: try { } catch (e) { instanceof check; handler } finally { }",
  ignore: nodeSkip() !== undefined,
  fn: async () => {
    await jsExact(
      "wrap_try_except",
      {
        target: { file: JS, kind: "return", parent: jsFn("fetchJson") },
        exc_type: "SyntaxError",
        as_name: "err",
        handler: 'log.warn("bad JSON", err);\nreturn null;',
        finally_body: "log.flush();",
      },
      js.replace(
        "  return response.json();\n",
        "  try {\n    return response.json();\n  } catch (err) {\n    if (!(err instanceof SyntaxError)) throw err;\n" +
          '    log.warn("bad JSON", err);\n    return null;\n  } finally {\n    log.flush();\n  }\n',
      ),
    );
    const { text, ctx } = await apply("wrap_try_except", JS, js, {
      target: { file: JS, kind: "return", parent: jsFn("buildUrl") },
      exc_type: "*",
      handler: "return base;",
    });
    assert.ok(
      text.includes("  try {\n    return base + path;\n  } catch (error) {\n    return base;\n  }\n"),
    );
    const { TEMPLATES } = await import("../../../../engine/edit/templates/mod.ts");
    const again = await TEMPLATES.wrap_try_except.run({
      target: { file: JS, kind: "return", parent: jsFn("buildUrl"), index: 0 },
      exc_type: "*",
      handler: "return base;",
    }, ctx) as Record<string, unknown>;
    assert.equal(again.changed, false);
  },
});

Deno.test({
  name: "js add_parameter: defaults kept last, rest parameter last, no keyword-only",
  ignore: nodeSkip() !== undefined,
  fn: async () => {
    await jsExact(
      "add_parameter",
      { target: jsFn("buildUrl"), name: "query", default: '""' },
      js.replace("buildUrl(base, path)", 'buildUrl(base, path, query = "")'),
    );
    const order = await reject("add_parameter", JS, js, { target: jsFn("fetchJson"), name: "signal" });
    assert.equal(order[0].code, "param-order");
    const kw = await reject("add_parameter", JS, js, {
      target: jsFn("buildUrl"),
      name: "q",
      default: "1",
      keyword_only: true,
    });
    assert.match(kw[0].message, /javascript has no keyword-only parameters/);
    const annotated = await reject("add_parameter", JS, js, {
      target: jsFn("buildUrl"),
      name: "q",
      annotation: "string",
    });
    assert.match(annotated[0].message, /JavaScript has no type annotations/);
    const rest = "function log(level, ...parts) {\n  return parts;\n}\n";
    const { text } = await apply("add_parameter", "r.js", rest, {
      target: { file: "r.js", kind: "function", name: "log" },
      name: "sep",
      default: '" "',
    });
    assert.equal(text, rest.replace("level, ...parts", 'level, sep = " ", ...parts'));
  },
});

Deno.test({
  name: "js replace_expression, modify_condition, change_return_value, add_import_and_use",
  ignore: nodeSkip() !== undefined,
  fn: async () => {
    const plus = { type: "sexp", file: JS, query: "(binary_expression) @e", parent: jsFn("buildUrl") };
    await jsExact(
      "replace_expression",
      { target: plus, expression: "new URL(path, base).href" },
      js.replace("return base + path;", "return new URL(path, base).href;"),
    );
    await jsExact(
      "modify_condition",
      {
        target: { file: JS, kind: "if", parent: jsFn("fetchJson") },
        condition: "response.status >= 500 && retries > 0",
      },
      js.replace("if (response.status >= 500)", "if (response.status >= 500 && retries > 0)"),
    );
    await jsExact(
      "change_return_value",
      { target: { file: JS, kind: "return", parent: jsFn("buildUrl") }, value: "`${base}/${path}`" },
      js.replace("return base + path;", "return `${base}/${path}`;"),
    );
    await jsExact(
      "add_import_and_use",
      { target: plus, import: 'import { join } from "./path.js";', expression: "join(base, path)" },
      js.replace('"./logger.js";\n', '"./logger.js";\nimport { join } from "./path.js";\n')
        .replace("return base + path;", "return join(base, path);"),
    );
    // precedence: a sum replacing the left operand of `*` gets parentheses
    const { text } = await apply("replace_expression", JS, js, {
      target: { file: JS, kind: "attribute", name: "item.price" },
      expression: "item.price + item.tax",
    });
    assert.ok(text.includes("sum += (item.price + item.tax) * item.count;"));
    await assertNodeParses(text);
  },
});

Deno.test({
  name: "js add_conditional_branch, replace_function_body, extract_variable, add_method",
  ignore: nodeSkip() !== undefined,
  fn: async () => {
    const cond = { file: JS, kind: "if", parent: jsFn("fetchJson") };
    await jsExact(
      "add_conditional_branch",
      { target: cond, condition: "response.status === 404", body: "return null;" },
      js.replace(
        '    log.warn("server error", response.status);\n  }\n',
        '    log.warn("server error", response.status);\n  } else if (response.status === 404) {\n    return null;\n  }\n',
      ),
    );
    await jsExact(
      "add_conditional_branch",
      { target: cond, body: 'log.info("ok");' },
      js.replace(
        '    log.warn("server error", response.status);\n  }\n',
        '    log.warn("server error", response.status);\n  } else {\n    log.info("ok");\n  }\n',
      ),
    );
    await jsExact(
      "replace_function_body",
      {
        target: jsFn("total"),
        body: "return items.reduce((sum, item) => sum + item.price * item.count, 0);",
      },
      js.replace(
        /export function total\(items\) \{[\s\S]*\n\}\n$/,
        "export function total(items) {\n  return items.reduce((sum, item) => sum + item.price * item.count, 0);\n}\n",
      ),
    );
    const product = {
      type: "sexp",
      file: JS,
      query: '(binary_expression operator: "*") @e',
      parent: jsFn("total"),
    };
    await jsExact(
      "extract_variable",
      { target: product, name: "cost" },
      js.replace(
        "    sum += item.price * item.count;",
        "    const cost = item.price * item.count;\n    sum += cost;",
      ),
    );
    const bound = await reject("extract_variable", JS, js, { target: product, name: "sum" });
    assert.equal(bound[0].code, "name-bound");
    const cls = "export class Cart {\n  items = [];\n\n  add(item) {\n    this.items.push(item);\n  }\n}\n";
    const { text } = await apply("add_method", "cart.js", cls, {
      target: { file: "cart.js", kind: "class", name: "Cart" },
      code: "clear() {\n  this.items = [];\n}",
    });
    assert.equal(text, cls.replace("  }\n}\n", "  }\n\n  clear() {\n    this.items = [];\n  }\n}\n"));
    await assertNodeParses(text);
  },
});

Deno.test("js/ts wrap_try_except refuses a const declaration: its name would vanish from the code after it", async () => {
  const issues = await reject("wrap_try_except", TS, ts, {
    target: { file: TS, kind: "variable", name: "response" },
    exc_type: "TypeError",
    handler: "throw error;",
  });
  assert.equal(issues[0].code, "template-precondition");
  assert.match(issues[0].message, /lexical_declaration/);
});

Deno.test("ts templates: annotations in parameters and class fields, guards, try, conditions", async () => {
  const steps: [string, Record<string, unknown>, string][] = [
    [
      "add_parameter",
      { target: tsFn("buildUrl"), name: "query", annotation: "Record<string, string>", default: "{}" },
      "export function buildUrl(base: string, path: string, query: Record<string, string> = {}): string {",
    ],
    [
      "guard_clause",
      { target: tsFn("buildUrl"), condition: '!path.startsWith("/")', guard_body: "path = `/${path}`;" },
      '  if (!path.startsWith("/")) {\n    path = `/${path}`;\n  }\n  return base + path;',
    ],
    [
      "wrap_try_except",
      {
        target: { file: TS, kind: "if", parent: tsFn("fetchJson") },
        exc_type: "TypeError",
        handler: "throw new Error(`logging failed: ${url}`);",
      },
      '  try {\n    if (response.status >= 500) {\n      log.warn("server error", response.status);\n    }\n' +
      "  } catch (error) {\n    if (!(error instanceof TypeError)) throw error;",
    ],
    [
      "add_class_attribute",
      {
        target: { file: TS, kind: "class", name: "Client" },
        name: "timeoutMs",
        value: "5000",
        annotation: "number",
      },
      "  private opts: Options;\n  timeoutMs: number = 5000;\n",
    ],
    [
      "modify_condition",
      { target: { file: TS, kind: "if" }, condition: "response.status >= 500 || response.status === 429" },
      "if (response.status >= 500 || response.status === 429) {",
    ],
    [
      "change_return_value",
      {
        target: { file: TS, kind: "return", parent: tsFn("fetchJson") },
        value: "(await response.json()) as unknown",
      },
      "return (await response.json()) as unknown;",
    ],
    [
      "add_import_and_use",
      {
        target: { type: "sexp", file: TS, query: "(binary_expression) @e", parent: tsFn("buildUrl") },
        import: 'import { join } from "./path";',
        expression: "join(base, path)",
      },
      'import { Logger } from "./logger";\nimport { join } from "./path";\n',
    ],
  ];
  for (const [name, params, expected] of steps) {
    const { text } = await apply(name, TS, ts, params);
    assert.ok(text.includes(expected), `${name}:\n${text}`);
    await assertTypeScriptParses(text);
  }
});

Deno.test("js replace_expression: parentheses follow JavaScript's precedence table", async () => {
  const cases: [string, string, string][] = [
    ["a || b", "x ?? c", "(a || b) ?? c"],
    ["a ?? b", "x || c", "(a ?? b) || c"],
    ["a ? b : c", "x + 1", "(a ? b : c) + 1"],
    ["-a", "x ** 2", "(-a) ** 2"],
    ["a, b", "f(x)", "f((a, b))"],
    ["a + b", "c - x", "c - (a + b)"],
    ["a + b", "x - c", "a + b - c"],
    ["await g()", "x.y", "(await g()).y"],
    ["a = 1", "[x]", "[a = 1]"],
  ];
  for (const [expression, context, expected] of cases) {
    const source = `async function f(a, b, c, g) {\n  return ${context};\n}\n`;
    const target = { type: "sexp", file: "p.js", query: '((identifier) @x (#eq? @x "x"))' };
    const { text } = await apply("replace_expression", "p.js", source, { target, expression });
    assert.equal(
      text,
      `async function f(a, b, c, g) {\n  return ${expected};\n}\n`,
      `${expression} into ${context}`,
    );
    await assertNodeParses(text);
  }
});
