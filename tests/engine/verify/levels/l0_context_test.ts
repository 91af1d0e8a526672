/**
 * L0 beyond the grammar, on real files: plans whose result the grammar
 * parses but CPython refuses (statement contexts) or the repository's Python
 * cannot read (target version) fail verification, change nothing on disk,
 * and CPython's `compile` confirms each verdict. Findings the file already
 * had are not blamed.
 */

import assert from "node:assert/strict";
import type { VerifyResult } from "../../../../engine/verify/mod.ts";
import { PYTHON_SKIP, pythonCompileErrors, pythonSyntaxErrors } from "../../../_support/python.ts";
import { AUTH, CORPUS_SKIP, corpusText, repoWith, verifyIn } from "../plan/_support.ts";

const REQUESTS = "psf__requests-1766";
const fn = (name: string) => ({ file: AUTH, kind: "function", name });
const lastStatementOf = (name: string) => ({ file: AUTH, kind: "statement", parent: fn(name), index: -1 });

function l0(result: VerifyResult): string[] {
  return result.errors.filter((issue) => issue.level === "L0").map((issue) => issue.code);
}

/** What CPython says of `text` with `old` replaced by `replacement` (the plan's intended result). */
async function cpythonOn(text: string, old: string, replacement: string): Promise<string | null> {
  assert.ok(text.includes(old), old);
  const [verdict] = await pythonCompileErrors([text.replace(old, replacement)]);
  return verdict;
}

Deno.test({
  name: "L0 context: `break` appended after a function's return is refused; CPython agrees",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const text = await corpusText(REQUESTS, AUTH);
    const dir = await repoWith({ [AUTH]: text });
    const plan = [{
      op: "insert_after_node",
      params: { locator: lastStatementOf("_basic_auth_str"), code: "break" },
    }];
    const result = await verifyIn(dir, plan);
    assert.deepEqual(l0(result), ["break-outside-loop"]);
    const issue = result.errors[0];
    assert.equal(issue.file, AUTH);
    assert.equal(issue.line, 31);
    assert.match(issue.message, /'break' outside loop/);
    if (!PYTHON_SKIP) {
      const old = ".decode('latin1')\n";
      assert.match(String(await cpythonOn(text, old, old + "    break\n")), /'break' outside loop/);
    }
    await Deno.remove(dir, { recursive: true });
  },
});

Deno.test({
  name:
    "L0 context: a keyword argument before a positional one, a return in a class body, a duplicate parameter",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const text = await corpusText(REQUESTS, AUTH);
    const dir = await repoWith({ [AUTH]: text });
    const call = "_basic_auth_str(self.username, self.password)";
    const cases: [unknown, string, string, string][] = [
      [
        {
          op: "replace_node",
          params: {
            locator: {
              file: AUTH,
              kind: "call",
              name: "_basic_auth_str",
              parent: { kind: "class", name: "HTTPBasicAuth" },
            },
            replacement: "_basic_auth_str(username=self.username, self.password)",
          },
        },
        "argument-order",
        call,
        "_basic_auth_str(username=self.username, self.password)",
      ],
      [
        {
          op: "insert_after_node",
          params: {
            locator: {
              file: AUTH,
              kind: "method",
              name: "__call__",
              parent: { kind: "class", name: "AuthBase" },
            },
            code: "return None",
          },
        },
        "return-outside-function",
        "        raise NotImplementedError('Auth hooks must be callable.')\n",
        "        raise NotImplementedError('Auth hooks must be callable.')\n    return None\n",
      ],
      [
        {
          op: "replace_node",
          params: {
            locator: { file: AUTH, kind: "parameters", parent: fn("_basic_auth_str") },
            replacement: "(username, password, username=None)",
          },
        },
        "duplicate-parameter",
        "def _basic_auth_str(username, password):",
        "def _basic_auth_str(username, password, username=None):",
      ],
    ];
    for (const [step, code, old, replacement] of cases) {
      const result = await verifyIn(dir, [step]);
      assert.deepEqual(l0(result), [code], JSON.stringify(result.errors));
      if (!PYTHON_SKIP) assert.notEqual(await cpythonOn(text, old, replacement), null, code);
    }
    await Deno.remove(dir, { recursive: true });
  },
});

Deno.test({
  name: "L0 context: a violation the file already had is not blamed; a second one of the same kind is",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const text = (await corpusText(REQUESTS, AUTH)) + "\nreturn None\n";
    const dir = await repoWith({ [AUTH]: text });
    const unrelated = [{
      op: "replace_node",
      params: {
        locator: {
          file: AUTH,
          kind: "string",
          parent: { kind: "method", name: "__call__", parent: { kind: "class", name: "AuthBase" } },
        },
        replacement: "'Auth hooks must be callable'",
      },
    }];
    assert.deepEqual((await verifyIn(dir, unrelated)).errors, []);
    // moving the old module-level return is not new either: the same text somewhere else
    const another = [{
      op: "insert_after_node",
      params: { locator: lastStatementOf("_basic_auth_str"), code: "continue" },
    }];
    assert.deepEqual(l0(await verifyIn(dir, another)), ["continue-outside-loop"]);
    await Deno.remove(dir, { recursive: true });
  },
});

Deno.test({
  name:
    "L0 target: a walrus is refused for a 3.7 project, accepted for 3.8, and where the file already uses one",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const text = await corpusText(REQUESTS, AUTH);
    const guard = {
      fragment: {
        kind: "if_statement",
        properties: { condition: "(n := len(username)) > 1000" },
        children: [{ kind: "raise_statement", properties: { exception: "ValueError(n)" } }],
      },
      action: "prepend_to_body",
      target: fn("_basic_auth_str"),
    };
    const old37 = await repoWith({
      [AUTH]: text,
      "setup.py": 'setup(name="requests", python_requires=">=3.7")\n',
    });
    const refused = await verifyIn(old37, [guard]);
    assert.deepEqual(l0(refused), ["syntax-too-new"]);
    assert.match(
      refused.errors[0].message,
      /needs Python 3\.8: the repository supports 3\.7 \(setup\.py python_requires ">=3\.7"\)/,
    );
    const new38 = await repoWith({ [AUTH]: text, "setup.cfg": "[options]\npython_requires = >=3.8\n" });
    assert.deepEqual((await verifyIn(new38, [guard])).errors, []);
    // the project's own choice: a module that already has a walrus may get another
    const uses = await repoWith({
      [AUTH]: text.replace(
        "log = logging.getLogger(__name__)",
        "log = (_log := logging.getLogger(__name__))",
      ),
      "setup.py": 'setup(name="requests", python_requires=">=3.7")\n',
    });
    assert.deepEqual((await verifyIn(uses, [guard])).errors, []);
    for (const dir of [old37, new38, uses]) await Deno.remove(dir, { recursive: true });
  },
});

Deno.test({
  name:
    "L0 target: with no Python version declared, newer syntax is a syntax-too-new warning, not a refusal; declared 3.8 refuses it",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    // CPython's standard library declares no version and uses 3.10's `match` (a release pair's fix did);
    // only an assumed 3.8 stood against it, and CPython compiles the result
    const text = await corpusText(REQUESTS, AUTH);
    const dispatch = {
      op: "insert_after_node",
      params: {
        locator: fn("_basic_auth_str"),
        code: "\n\ndef _auth_kind(auth):\n    match auth:\n        case (user, password):\n" +
          "            return _basic_auth_str(user, password)\n        case _:\n            return auth\n",
      },
    };
    const undeclared = await repoWith({ [AUTH]: text });
    const told = await verifyIn(undeclared, [dispatch]);
    assert.deepEqual(told.errors, []);
    const warned = told.warnings.filter((issue) => issue.code === "syntax-too-new");
    assert.equal(warned.length, 1);
    assert.match(warned[0].message, /needs Python 3\.10: no Python version is declared, 3\.8 is assumed/);
    const declared = await repoWith({ [AUTH]: text, "setup.cfg": "[options]\npython_requires = >=3.8\n" });
    assert.deepEqual(l0(await verifyIn(declared, [dispatch])), ["syntax-too-new"]);
    for (const dir of [undeclared, declared]) await Deno.remove(dir, { recursive: true });
  },
});

const PYTEST = ["pytest-dev__pytest-11143", "src/_pytest/assertion/rewrite.py"] as const;
/** pytest's setup.cfg at that commit declares `python_requires = >=3.8`. */
const PYTEST_CFG = "[options]\npython_requires = >=3.8\n";
const inlineProcPyc = [{
  template: "inline_variable",
  params: { target: { file: PYTEST[1], kind: "function", name: "_write_pyc" }, name: "proc_pyc" },
}];

Deno.test({
  name:
    "inline_variable into an f-string (the issue's xarray shape, on pytest's rewrite.py): inner quotes switched for 3.8",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    // xarray is not in the corpus: pytest's `_write_pyc` has the same shape, a variable holding a
    // double-quoted (f-)string, used inside a double-quoted f-string.
    const text = await corpusText(...PYTEST);
    const dir = await repoWith({ [PYTEST[1]]: text, "setup.cfg": PYTEST_CFG });
    const { executePlan, parsePlanSteps } = await import("../../../../engine/exec/mod.ts");
    const { DocumentStore } = await import("../../../../engine/parse/documents.ts");
    const { Workspace } = await import("../../../../engine/workspace.ts");
    assert.deepEqual((await verifyIn(dir, inlineProcPyc)).errors, []);
    const parsed = await parsePlanSteps(inlineProcPyc);
    const result = await executePlan(new DocumentStore(Workspace.open(dir)), parsed.steps, {
      runStep: parsed.runStep,
      dryRun: true,
    });
    assert.ok(result.success, JSON.stringify(result.errors));
    assert.match(
      result.diff!,
      /\+ {8}state\.trace\(f"error writing pyc file at \{f'\{pyc\}\.\{os\.getpid\(\)\}'\}: errno=\{e\.errno\}"\)/,
    );
    assert.match(result.diff!, /\+ {8}os\.replace\(f"\{pyc\}\.\{os\.getpid\(\)\}", pyc\)/);
    if (!PYTHON_SKIP) {
      const after = text.replace('    proc_pyc = f"{pyc}.{os.getpid()}"\n', "")
        .replace('open(proc_pyc, "wb")', 'open(f"{pyc}.{os.getpid()}", "wb")')
        .replace("at {proc_pyc}:", "at {f'{pyc}.{os.getpid()}'}:")
        .replace("os.replace(proc_pyc, pyc)", 'os.replace(f"{pyc}.{os.getpid()}", pyc)');
      assert.deepEqual(await pythonSyntaxErrors([after]), [null]);
      // what the issue saw: the same-quote form, which CPython before 3.12 refuses
      const reused = after.replace("at {f'{pyc}.{os.getpid()}'}:", 'at {f"{pyc}.{os.getpid()}"}:');
      assert.notEqual((await pythonSyntaxErrors([reused]))[0], null);
    }
    await Deno.remove(dir, { recursive: true });
  },
});

Deno.test({
  name:
    "the same-quote f-string written by hand is refused for 3.8 (syntax-too-new), and a value no quote fits is refused with a hint",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const text = await corpusText(...PYTEST);
    const dir = await repoWith({ [PYTEST[1]]: text, "setup.cfg": PYTEST_CFG });
    const trace = {
      file: PYTEST[1],
      kind: "string",
      parent: { file: PYTEST[1], kind: "function", name: "_write_pyc" },
      index: 3,
    };
    const byHand = [{
      op: "replace_node",
      params: { locator: trace, replacement: 'f"error writing pyc file at {f"{pyc}.x"}: errno={e.errno}"' },
    }];
    const result = await verifyIn(dir, byHand);
    assert.deepEqual(l0(result), ["syntax-too-new"]);
    assert.match(result.errors[0].message, /the f-string's own quote " inside its braces/);
    // replace_expression into the braces: a value holding both quotes cannot be re-quoted
    const both = [{
      template: "replace_expression",
      params: {
        target: { file: PYTEST[1], kind: "identifier", name: "proc_pyc", parent: trace },
        expression: `"it's " + str(proc_pyc)`,
      },
    }];
    const refused = await verifyIn(dir, both);
    assert.deepEqual(refused.errors.map((issue) => issue.code), ["syntax-too-new"]);
    assert.match(refused.errors[0].hint ?? "", /assign the value to a variable before the f-string/);
    // one quote kind only: switched
    const one = [{ ...both[0], params: { ...both[0].params, expression: `"at " + str(proc_pyc)` } }];
    assert.deepEqual((await verifyIn(dir, one)).errors, []);
    await Deno.remove(dir, { recursive: true });
  },
});

Deno.test("L0 context: what a change does to code it did not touch: a nonlocal losing its binding, awaits losing their async def", async () => {
  const source =
    "def outer():\n    count = 0\n\n    def inc():\n        nonlocal count\n        count += 1\n\n    return inc\n\n\n" +
    "async def fetch(client):\n    response = await client.get()\n    return response\n";
  const dir = await repoWith({ "m.py": source });
  const rebind = [{
    op: "replace_code",
    params: { file: "m.py", pattern: "    count = 0\n", replacement: "    total = 0\n" },
  }];
  const unbound = await verifyIn(dir, rebind);
  assert.deepEqual(l0(unbound), ["nonlocal-without-binding"]);
  assert.equal(unbound.errors[0].line, 5);
  const sync = [{
    op: "replace_code",
    params: { file: "m.py", pattern: "async def fetch", replacement: "def fetch" },
  }];
  const awaits = await verifyIn(dir, sync);
  assert.deepEqual(l0(awaits), ["await-outside-async"]);
  assert.equal(awaits.errors[0].line, 12);
  if (!PYTHON_SKIP) {
    assert.deepEqual(
      (await pythonCompileErrors([
        source,
        source.replace("count = 0", "total = 0"),
        source.replace("async def", "def"),
      ]))
        .map((e) => e === null),
      [true, false, false],
    );
  }
  await Deno.remove(dir, { recursive: true });
});
