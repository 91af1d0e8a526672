/**
 * The templates on small Python files, exact output text, and every kind of
 * invalid step rejected with a clear issue and no change. Results are also
 * checked with CPython's `ast.parse`.
 */

import assert from "node:assert/strict";
import { assertPythonParses } from "../../../_support/python.ts";
import { apply, reject } from "./_support.ts";

const F = "pkg/mod.py";
const fn = (name: string) => ({ file: F, kind: "function", name });

async function exact(name: string, source: string, params: Record<string, unknown>, expected: string) {
  const { text } = await apply(name, F, source, params);
  assert.equal(text, expected);
  await assertPythonParses(text, `${name} result`);
}

// ---------------------------------------------------------------- guard_clause

const LOAD = `def load(path, strict=False):
    """Load a file."""
    data = read(path)
    # Parse it strictly when asked.
    if strict:  # rare
        return parse(data)
    return data
`;

Deno.test("guard_clause: before a statement, above its comment, at its indentation", async () => {
  await exact(
    "guard_clause",
    LOAD,
    {
      target: { file: F, kind: "if", parent: fn("load") },
      condition: "data is None",
      guard_body: "return None",
    },
    LOAD.replace("    # Parse", "    if data is None:\n        return None\n    # Parse"),
  );
});

Deno.test("guard_clause: a function target puts the guard after the docstring; tabs stay tabs", async () => {
  await exact(
    "guard_clause",
    LOAD,
    { target: fn("load"), condition: "not path", guard_body: "raise ValueError('empty path')" },
    LOAD.replace(
      '"""Load a file."""\n',
      '"""Load a file."""\n    if not path:\n        raise ValueError(\'empty path\')\n',
    ),
  );
  const tabs = "class A:\n\tdef f(self, x):\n\t\treturn x\n";
  await exact(
    "guard_clause",
    tabs,
    { target: { file: F, kind: "method", name: "f" }, condition: "x < 0", guard_body: "x = 0\nlog(x)" },
    "class A:\n\tdef f(self, x):\n\t\tif x < 0:\n\t\t\tx = 0\n\t\t\tlog(x)\n\t\treturn x\n",
  );
});

Deno.test("guard_clause: a statement sharing its line with a header is refused", async () => {
  const issues = await reject("guard_clause", F, "def f(x): return x\n", {
    target: { file: F, kind: "return" },
    condition: "x",
    guard_body: "pass",
  });
  assert.equal(issues[0].code, "template-precondition");
});

// ---------------------------------------------------------------- wrap_try_except

const RENDER = `def render(name):
    # Fill the template.
    text = """Hello
{name}""".format(name=name)  # may fail
    return text
`;

Deno.test("wrap_try_except: target lines move one level in, string content and comments stay", async () => {
  await exact(
    "wrap_try_except",
    RENDER,
    {
      target: { file: F, kind: "assignment", name: "text" },
      exc_type: "(KeyError, ValueError)",
      as_name: "exc",
      handler: "log.debug(exc)\ntext = ''",
      finally_body: "done()",
    },
    `def render(name):
    # Fill the template.
    try:
        text = """Hello
{name}""".format(name=name)  # may fail
    except (KeyError, ValueError) as exc:
        log.debug(exc)
        text = ''
    finally:
        done()
    return text
`,
  );
});

Deno.test("wrap_try_except: applied twice, the second is a no-op with already-present", async () => {
  const params = {
    target: { file: F, kind: "return", index: 0 },
    exc_type: "Exception",
    handler: "return None",
  };
  const first = await apply("wrap_try_except", F, RENDER, params);
  const { TEMPLATES } = await import("../../../../engine/edit/templates/mod.ts");
  const again = await TEMPLATES.wrap_try_except.run(params, first.ctx) as Record<string, unknown>;
  assert.equal(again.changed, false);
  assert.equal((await first.ctx.store.get(F)).file.text, first.text);
  assert.ok(first.ctx.warnings.some((w) => w.code === "already-present"));
});

// ---------------------------------------------------------------- add_parameter

const SIG = `def send(request, timeout=10, *args, verify, **kwargs):
    return request


def area(w, h):
    return w * h


print(area(1, 2), area(w=1, h=2), area(1, 2, 3))
`;

Deno.test("add_parameter: a default parameter goes before *args", async () => {
  await exact(
    "add_parameter",
    SIG,
    { target: fn("send"), name: "stream", default: "False" },
    SIG.replace("timeout=10, *args", "timeout=10, stream=False, *args"),
  );
});

Deno.test("add_parameter: a non-default after defaults is an error; keyword_only places it after *args", async () => {
  const issues = await reject("add_parameter", F, SIG, { target: fn("send"), name: "stream" });
  assert.equal(issues[0].code, "param-order");
  assert.match(issues[0].message, /cannot follow "timeout"/);
  await exact(
    "add_parameter",
    SIG,
    { target: fn("send"), name: "cert", keyword_only: true },
    SIG.replace("verify, **kwargs", "verify, cert, **kwargs"),
  );
  await exact(
    "add_parameter",
    SIG,
    { target: fn("area"), name: "scale", default: "1.0", annotation: "float", keyword_only: true },
    SIG.replace("def area(w, h)", "def area(w, h, *, scale: float = 1.0)"),
  );
});

Deno.test("add_parameter: start skips self; after:NAME; a parameter that exists is an error", async () => {
  const cls = "class S:\n    def get(self, url, params=None):\n        pass\n";
  const method = { file: F, kind: "method", name: "get" };
  await exact(
    "add_parameter",
    cls,
    { target: method, name: "session", position: "start" },
    cls.replace("self, url", "self, session, url"),
  );
  await exact(
    "add_parameter",
    cls,
    { target: method, name: "headers", default: "None", position: "after:params" },
    cls.replace("params=None", "params=None, headers=None"),
  );
  const exists = await reject("add_parameter", F, cls, { target: method, name: "url" });
  assert.equal(exists[0].code, "param-exists");
  assert.match(exists[0].message, /Parameter "url" already exists in "get"/);
  const unknown = await reject("add_parameter", F, cls, {
    target: method,
    name: "x",
    default: "1",
    position: "after:nope",
  });
  assert.match(unknown[0].message, /has no parameter "nope"/);
});

Deno.test("add_parameter: a new required parameter warns about the calls in the file, and changes none", async () => {
  const { text, warnings } = await apply("add_parameter", F, SIG, { target: fn("area"), name: "depth" });
  assert.ok(text.includes("def area(w, h, depth):"));
  assert.ok(text.includes("print(area(1, 2), area(w=1, h=2), area(1, 2, 3))"));
  const warning = warnings.find((w) => w.code === "call-sites-missing-argument");
  assert.ok(warning);
  assert.match(warning.message, /2 call\(s\) of "area"/);
  assert.match(warning.message, /lines 9, 9/);
});

Deno.test("add_parameter: a parameter list laid out one per line keeps its layout", async () => {
  const source = "def connect(\n    host,\n    port=80,\n):\n    pass\n";
  const { text } = await apply("add_parameter", F, source, {
    target: fn("connect"),
    name: "timeout",
    default: "None",
  });
  assert.equal(text, "def connect(\n    host,\n    port=80,\n    timeout=None,\n):\n    pass\n");
  await exact(
    "add_parameter",
    "def ping():\n    pass\n",
    { target: fn("ping"), name: "host" },
    "def ping(host):\n    pass\n",
  );
});

// ---------------------------------------------------------------- replace_expression / modify_condition / change_return_value

Deno.test("replace_expression: parentheses where precedence needs them, none where it does not", async () => {
  const source = "def cost(price, count, extra):\n    total = price * count\n    return total\n";
  const target = { file: F, kind: "identifier", name: "count", parent: { file: F, kind: "assignment" } };
  await exact(
    "replace_expression",
    source,
    { target, expression: "count + extra" },
    source.replace("price * count", "price * (count + extra)"),
  );
  await exact(
    "replace_expression",
    source,
    { target, expression: "count.value" },
    source.replace("price * count", "price * count.value"),
  );
  const statement = await reject("replace_expression", F, source, {
    target: { file: F, kind: "return" },
    expression: "1",
  });
  assert.match(statement[0].message, /must be an expression, got a "return_statement"/);
});

Deno.test("modify_condition: only the condition changes (comments and body stay)", async () => {
  const source = "def wait(done):\n    while not done():  # poll\n        sleep(1)\n";
  await exact(
    "modify_condition",
    source,
    { target: { file: F, kind: "while" }, condition: "not done() and retries > 0" },
    source.replace("not done():", "not done() and retries > 0:"),
  );
  const elif = "if a:\n    x = 1\nelif b:\n    x = 2\n";
  await exact(
    "modify_condition",
    elif,
    { target: { file: F, kind: "elif_clause" }, condition: "b or c" },
    elif.replace("elif b:", "elif b or c:"),
  );
  const wrong = await reject("modify_condition", F, "for x in y:\n    pass\n", {
    target: { file: F, kind: "for" },
    condition: "x",
  });
  assert.match(
    wrong[0].message,
    /must be one of if_statement, elif_clause, while_statement, got a "for_statement"/,
  );
});

Deno.test("change_return_value: a value, or a bare return given one", async () => {
  const source = "def f(x):\n    if x:\n        return\n    return x + 1\n";
  await exact(
    "change_return_value",
    source,
    { target: { file: F, kind: "return", index: 0 }, value: "None" },
    source.replace("        return\n", "        return None\n"),
  );
  await exact(
    "change_return_value",
    source,
    { target: { file: F, kind: "return", index: 1 }, value: "x, 1" },
    source.replace("return x + 1", "return x, 1"),
  );
});

// ---------------------------------------------------------------- extract_variable / inline_variable

Deno.test("extract_variable: assignment before the enclosing statement; the name is used in place", async () => {
  const source = "def area(r):\n    return 3.14159 * r ** 2\n";
  const target = { type: "sexp", file: F, query: '(binary_operator operator: "**") @e' };
  await exact(
    "extract_variable",
    source,
    { target, name: "squared" },
    "def area(r):\n    squared = r ** 2\n    return 3.14159 * squared\n",
  );
  const bound = await reject("extract_variable", F, source, { target, name: "r" });
  assert.equal(bound[0].code, "name-bound");
  assert.match(bound[0].message, /Name "r" is already bound in this scope/);
});

Deno.test("extract_variable: refuses a name the scope reads, and expressions in comprehensions or while conditions", async () => {
  const reads = "def f(a):\n    x = a + 1\n    return len(x)\n";
  const shadow = await reject("extract_variable", F, reads, {
    target: { type: "sexp", file: F, query: "(binary_operator) @e" },
    name: "len",
  });
  assert.match(shadow[0].message, /already used in this scope/);
  const comp = await reject("extract_variable", F, "def f(xs):\n    return [x * 2 for x in xs]\n", {
    target: { type: "sexp", file: F, query: "(binary_operator) @e" },
    name: "doubled",
  });
  assert.match(comp[0].message, /inside a "list_comprehension"/);
  const loop = await reject("extract_variable", F, "def f(q):\n    while q.pop() > 0:\n        pass\n", {
    target: { file: F, kind: "call" },
    name: "item",
  });
  assert.match(loop[0].message, /while_statement" condition/);
});

Deno.test("inline_variable: x = a + b; y = x * 2 gives y = (a + b) * 2", async () => {
  await exact(
    "inline_variable",
    "def f(a, b):\n    x = a + b\n    y = x * 2\n    return y\n",
    { target: fn("f"), name: "x" },
    "def f(a, b):\n    y = (a + b) * 2\n    return y\n",
  );
  await exact(
    "inline_variable",
    "x = a + b; y = x * 2\n",
    { target: { file: F }, name: "x" },
    "y = (a + b) * 2\n",
  );
  await exact(
    "inline_variable",
    "def f(a, b):\n    x = a + b\n    return g(x, x.real)\n",
    { target: fn("f"), name: "x" },
    "def f(a, b):\n    return g(a + b, (a + b).real)\n",
  );
});

Deno.test("inline_variable: needs a single assignment and stable names; a call used twice warns", async () => {
  const twice = await reject("inline_variable", F, "def f():\n    x = 1\n    x = 2\n    return x\n", {
    target: fn("f"),
    name: "x",
  });
  assert.match(twice[0].message, /bound 2 times/);
  const rebound = await reject("inline_variable", F, "def f(a):\n    x = a + 1\n    a = 0\n    return x\n", {
    target: fn("f"),
    name: "x",
  });
  assert.match(rebound[0].message, /"a", read by the value of "x", is rebound/);
  const { warnings } = await apply("inline_variable", F, "def f():\n    x = g()\n    return x + x\n", {
    target: fn("f"),
    name: "x",
  });
  assert.ok(warnings.some((w) => w.code === "duplicated-evaluation"));
  const again = await reject("inline_variable", F, "def f(a):\n    return a\n", {
    target: fn("f"),
    name: "x",
  });
  assert.match(again[0].message, /"x" is not assigned in this scope/);
});

// ---------------------------------------------------------------- branches, bodies, wrapping, decorators, classes

Deno.test("add_conditional_branch: elif before the else, else at the end, a second else refused", async () => {
  const source =
    "def sign(x):\n    if x > 0:\n        return 1\n    else:  # zero or less\n        return 0\n";
  await exact(
    "add_conditional_branch",
    source,
    { target: { file: F, kind: "if" }, condition: "x < 0", body: "return -1" },
    source.replace("    else:", "    elif x < 0:\n        return -1\n    else:"),
  );
  const plain = "if ok:\n    run()\n# done\n";
  await exact(
    "add_conditional_branch",
    plain,
    { target: { file: F, kind: "if" }, body: "log('skipped')\nreturn" },
    "if ok:\n    run()\nelse:\n    log('skipped')\n    return\n# done\n",
  );
  const issues = await reject("add_conditional_branch", F, source, {
    target: { file: F, kind: "if" },
    body: "pass",
  });
  assert.equal(issues[0].code, "branch-exists");
});

Deno.test("replace_function_body: keeps decorators, signature and docstring (unless asked)", async () => {
  const source = '@cached\ndef f(x):\n    """Doc."""\n    y = x\n    return y\n';
  await exact(
    "replace_function_body",
    source,
    { target: fn("f"), body: "if x:\n    return 1\nreturn 2" },
    '@cached\ndef f(x):\n    """Doc."""\n    if x:\n        return 1\n    return 2\n',
  );
  await exact(
    "replace_function_body",
    source,
    { target: fn("f"), body: "return x", keep_docstring: false },
    "@cached\ndef f(x):\n    return x\n",
  );
  await exact(
    "replace_function_body",
    "def g(): return 1\n",
    { target: fn("g"), body: "return 2" },
    "def g():\n    return 2\n",
  );
});

Deno.test("wrap_context_manager: with ... as name, indentation of nested lines kept", async () => {
  const source = "def save(path, data):\n    for row in data:\n        write(row)\n";
  await exact(
    "wrap_context_manager",
    source,
    { target: { file: F, kind: "for" }, context: "open(path, 'w')", as_name: "fh" },
    "def save(path, data):\n    with open(path, 'w') as fh:\n        for row in data:\n            write(row)\n",
  );
});

Deno.test("add_decorator: on top of existing decorators; twice is already-present", async () => {
  const source = "class A:\n    @property\n    def x(self):\n        return 1\n";
  const target = { file: F, kind: "method", name: "x" };
  const { text, ctx } = await apply("add_decorator", F, source, { target, decorator: "functools.cache" });
  assert.equal(text, "class A:\n    @functools.cache\n    @property\n    def x(self):\n        return 1\n");
  const { TEMPLATES } = await import("../../../../engine/edit/templates/mod.ts");
  const again = await TEMPLATES.add_decorator.run({ target, decorator: "@functools.cache" }, ctx) as Record<
    string,
    unknown
  >;
  assert.equal(again.changed, false);
  assert.equal((await ctx.store.get(F)).file.text, text);
  assert.equal(ctx.warnings.at(-1)?.code, "already-present");
  await exact(
    "add_decorator",
    source,
    { target, decorator: "abstractmethod", innermost: true },
    source.replace("    @property\n", "    @property\n    @abstractmethod\n"),
  );
});

Deno.test("add_class_attribute and add_method: placement, placeholders, existing members", async () => {
  const source =
    'class Config:\n    """Settings."""\n\n    debug = False\n\n    def load(self):\n        pass\n';
  const cls = { file: F, kind: "class", name: "Config" };
  await exact(
    "add_class_attribute",
    source,
    { target: cls, name: "retries", value: "3", annotation: "int" },
    source.replace("debug = False\n", "debug = False\n    retries: int = 3\n"),
  );
  const clash = await reject("add_class_attribute", F, source, { target: cls, name: "debug", value: "True" });
  assert.equal(clash[0].code, "attribute-exists");
  await exact(
    "add_method",
    source,
    { target: cls, code: "def save(self):\n    return True" },
    source + "\n    def save(self):\n        return True\n",
  );
  await exact(
    "add_method",
    "class Empty:\n    pass\n",
    { target: { file: F, kind: "class", name: "Empty" }, code: "def go(self):\n    return 1\n" },
    "class Empty:\n    def go(self):\n        return 1\n",
  );
  const exists = await reject("add_method", F, source, {
    target: cls,
    code: "def load(self):\n    return 2",
  });
  assert.equal(exists[0].code, "method-exists");
  const notOne = await reject("add_method", F, source, { target: cls, code: "x = 1" });
  assert.match(notOne[0].message, /exactly one method definition/);
});

Deno.test("add_import_and_use: the import once, the expression in place", async () => {
  const source = "import os\n\n\ndef home():\n    return os.environ['HOME']\n";
  const target = { file: F, kind: "subscript" };
  const { text } = await apply("add_import_and_use", F, source, {
    target,
    import: "from pathlib import Path",
    expression: "str(Path.home())",
  });
  assert.equal(text, "import os\nfrom pathlib import Path\n\n\ndef home():\n    return str(Path.home())\n");
  await assertPythonParses(text);
  const present = await apply("add_import_and_use", F, source, {
    target,
    import: "import os",
    expression: "os.path.expanduser('~')",
  });
  assert.equal(present.text, source.replace("os.environ['HOME']", "os.path.expanduser('~')"));
});

// ---------------------------------------------------------------- invalid steps

Deno.test("invalid steps are rejected with a clear issue and no change", async () => {
  const source = LOAD;
  const target = { file: F, kind: "if", parent: fn("load") };
  // wrong grammatical role
  const role = await reject("modify_condition", F, source, { target, condition: "x = 1" });
  assert.equal(role[0].code, "param-invalid");
  assert.deepEqual(role[0].path, ["params", "condition"]);
  assert.match(
    role[0].message,
    /Parameter "condition" must be a condition \(an expression\), got a statement/,
  );
  const body = await reject("guard_clause", F, source, { target, condition: "x", guard_body: "return (" });
  assert.match(body[0].message, /Parameter "guard_body" must be statements/);
  const ident = await reject("extract_variable", F, source, {
    target: { file: F, kind: "call", index: 0 },
    name: "not",
  });
  assert.match(ident[0].message, /Parameter "name" must be an identifier, got the reserved word "not"/);
  // missing required
  const missing = await reject("guard_clause", F, source, { target, guard_body: "return" });
  assert.equal(missing[0].code, "param-missing");
  assert.match(missing[0].message, /Missing parameter "condition"/);
  // unknown parameter
  const unknown = await reject("guard_clause", F, source, {
    target,
    condition: "x",
    guard_body: "return",
    body: "x",
  });
  assert.equal(unknown[0].code, "param-unknown");
  assert.match(unknown[0].hint!, /target, condition, guard_body/);
  // bad locators: wrong shape, nothing found, ambiguous
  const shape = await reject("guard_clause", F, source, {
    target: { file: F, kind: "if", nam: "x" },
    condition: "x",
    guard_body: "return",
  });
  assert.equal(shape[0].code, "locator-invalid");
  const none = await reject("guard_clause", F, source, {
    target: { file: F, kind: "while" },
    condition: "x",
    guard_body: "return",
  });
  assert.equal(none[0].code, "locator-not-found");
  const many = await reject("change_return_value", F, source, {
    target: { file: F, kind: "return" },
    value: "1",
  });
  assert.equal(many[0].code, "locator-ambiguous");
  // a template on a language it does not support
  const { ctx } = await (await import("../_edit_support.ts")).contextWith({ "a.js": "with (o) { f(); }\n" });
  const { TEMPLATES } = await import("../../../../engine/edit/templates/mod.ts");
  await assert.rejects(
    () => TEMPLATES.add_decorator.run({ target: { file: "a.js", kind: "call" }, decorator: "x" }, ctx),
    (caught: Error & { issues?: { code: string }[] }) => caught.issues?.[0].code === "language-unsupported",
  );
});

Deno.test("inline_variable: parentheses follow Python's precedence table", async () => {
  const cases: [string, string, string][] = [
    ["a < b", "y = x == c", "y = (a < b) == c"],
    ["not a", "y = x and b", "y = not a and b"],
    ["a or b", "y = x and c", "y = (a or b) and c"],
    ["-a", "y = x ** 2", "y = (-a) ** 2"],
    ["a ** 2", "y = -x", "y = -a ** 2"],
    ["lambda: 1", "y = x()", "y = (lambda: 1)()"],
    ["a - b", "y = c - x", "y = c - (a - b)"],
    ["a - b", "y = x - c", "y = a - b - c"],
    ["a if c else b", "y = [x, 1]", "y = [a if c else b, 1]"],
    ["a if c else b", "y = x + 1", "y = (a if c else b) + 1"],
    ["a, b", "y = f(x)", "y = f((a, b))"],
    ["a, b", "y = x", "y = a, b"],
    ["await g()", "y = x.attr", "y = (await g()).attr"],
  ];
  for (const [value, use, expected] of cases) {
    const source = `async def f(a, b, c):\n    x = ${value}\n    ${use}\n    return y\n`;
    const { text } = await apply("inline_variable", F, source, { target: fn("f"), name: "x" });
    assert.equal(text, `async def f(a, b, c):\n    ${expected}\n    return y\n`, `${value} into ${use}`);
    await assertPythonParses(text);
  }
});

Deno.test("CRLF files keep CRLF line endings in constructed blocks", async () => {
  const source = "def f(x):\r\n    y = g(x)  # call\r\n    return y\r\n";
  await exact(
    "wrap_try_except",
    source,
    { target: { file: F, kind: "assignment" }, exc_type: "ValueError", handler: "y = None" },
    "def f(x):\r\n    try:\r\n        y = g(x)  # call\r\n    except ValueError:\r\n        y = None\r\n    return y\r\n",
  );
  await exact(
    "guard_clause",
    source,
    { target: fn("f"), condition: "x is None", guard_body: "return None" },
    "def f(x):\r\n    if x is None:\r\n        return None\r\n    y = g(x)  # call\r\n    return y\r\n",
  );
  await exact(
    "add_conditional_branch",
    "if a:\r\n    b()\r\n",
    { target: { file: F, kind: "if" }, body: "c()" },
    "if a:\r\n    b()\r\nelse:\r\n    c()\r\n",
  );
});

Deno.test("replace_expression: a name slot (attribute, keyword) takes only a name", async () => {
  const source = "def f(url):\n    return url.lower().strip(chars=' ')\n";
  const lower = { file: F, kind: "identifier", name: "lower" };
  await exact(
    "replace_expression",
    source,
    { target: lower, expression: "casefold" },
    source.replace("lower", "casefold"),
  );
  const issues = await reject("replace_expression", F, source, { target: lower, expression: "a + b" });
  assert.match(issues[0].message, /"lower" at line 2 is a name \(attribute, keyword or property\)/);
  const keyword = await reject("replace_expression", F, source, {
    target: { file: F, kind: "identifier", name: "chars" },
    expression: "x.y",
  });
  assert.equal(keyword[0].code, "template-precondition");
});

Deno.test("replace_function_body: comments above the first statement are part of the body; a comment on the def line stays", async () => {
  await exact(
    "replace_function_body",
    "def key(path):  # noqa\n    # Use realpath\n    # to resolve links.\n    path = real(path)\n    return path\n",
    { target: fn("key"), body: "# Resolve the path.\nreturn resolve(path)" },
    "def key(path):  # noqa\n    # Resolve the path.\n    return resolve(path)\n",
  );
});

Deno.test("replace_expression: a multi-line string literal is written as given (its lines are its value)", async () => {
  const source = 'def f():\n    """Doc.\n\n    >>> x\n      a: True\n    """\n    return 1\n';
  await exact(
    "replace_expression",
    source,
    {
      target: { file: F, kind: "string", parent: fn("f") },
      expression: '"""Doc.\n\n    >>> x\n      a: True\n      c: False\n    """',
    },
    'def f():\n    """Doc.\n\n    >>> x\n      a: True\n      c: False\n    """\n    return 1\n',
  );
});
