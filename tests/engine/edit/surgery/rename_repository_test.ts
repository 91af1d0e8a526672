/**
 * `rename_identifier` with `"scope": "repository"`: a module-level name
 * renamed in its file and in every file that imports it, as one step, with
 * CPython as the oracle (every module still imports, the renamed function
 * is called under its new name, no code spells the old one). The
 * repository is the shape of pallets/click rebuilt small (a `src/` layout,
 * an `__init__` that re-exports, aliased and function-local imports,
 * `module.name` uses, a test importing the package), plus real requests
 * files from the corpus.
 */

import assert from "node:assert/strict";
import { executePlan, parsePlanSteps, type PlanResult } from "../../../../engine/exec/mod.ts";
import { DocumentStore } from "../../../../engine/parse/documents.ts";
import { Workspace } from "../../../../engine/workspace.ts";
import { PYTHON, PYTHON_SKIP, runPythonJson } from "../../../_support/python.ts";
import { CORPUS_SKIP, corpusText, hashTree, repoWith, verifyIn } from "../../verify/plan/_support.ts";
import "../../exec/_support.ts";

const CLICK: Record<string, string> = {
  "src/click/__init__.py": `from .core import Command
from .core import Group
from .decorators import command
from .utils import echo
from .utils import get_text_stream

__version__ = "8.1.0"
`,
  "src/click/utils.py": `import sys


def get_text_stream(name):
    return getattr(sys, name)


def echo(message=None, file=None):
    # echo writes one line; "echo" in strings and comments stays
    return f"{message}\\n"


def _default_out():
    return echo("default")
`,
  "src/click/core.py": `from . import utils
from .utils import echo
from .utils import get_text_stream as _gts


class Command:
    def main(self, echo_twice=False):
        first = echo("x")
        return first + utils.echo("y"), _gts("stdout")


class Group(Command):
    def invoke(self):
        echo = print
        return echo
`,
  "src/click/decorators.py": `from .core import Command


def command(name=None):
    def decorator(f):
        from .utils import echo

        echo(name)
        return Command()

    return decorator
`,
  "src/click/termui.py": `import click.utils
import click.utils as cu


def prompt(text):
    return click.utils.echo(text) + cu.echo("!")
`,
  "tests/test_basic.py": `import click
from click import echo


def test_echo():
    return click.echo("a") + echo("b")
`,
};

const rename = (params: Record<string, unknown>) => [{
  op: "rename_identifier",
  params: { target: { file: "src/click/utils.py", kind: "function", name: "echo" }, ...params },
}];

async function apply(dir: string, plan: unknown[]): Promise<PlanResult> {
  const parsed = await parsePlanSteps(plan);
  return await executePlan(new DocumentStore(Workspace.open(dir)), parsed.steps, { runStep: parsed.runStep });
}

/** What CPython says of the repository: each module imports, and the calls that use the renamed function work. */
const PROBE = String.raw`
import ast, importlib, io, json, os, sys
root = json.load(sys.stdin)
sys.path[:0] = [os.path.join(root, "src"), os.path.join(root, "tests")]
out = {"imports": {}, "names": {}}
for module in ["click", "click.core", "click.decorators", "click.termui", "click.utils", "test_basic"]:
    try:
        importlib.import_module(module)
        out["imports"][module] = None
    except Exception as e:
        out["imports"][module] = f"{type(e).__name__}: {e}"
try:
    import click, click.core, click.termui, test_basic
    out["calls"] = [test_basic.test_echo(), click.core.Command().main()[0], click.termui.prompt("?")]
except Exception as e:
    out["calls"] = f"{type(e).__name__}: {e}"
for dirpath, _, files in os.walk(root):
    for name in files:
        if name.endswith(".py"):
            path = os.path.join(dirpath, name)
            tree = ast.parse(open(path).read())
            spelled = set()
            for node in ast.walk(tree):
                if isinstance(node, ast.Name): spelled.add(node.id)
                elif isinstance(node, ast.Attribute): spelled.add(node.attr)
                elif isinstance(node, ast.alias): spelled.update(filter(None, [node.name, node.asname]))
                elif isinstance(node, ast.FunctionDef): spelled.add(node.name)
            out["names"][os.path.relpath(path, root)] = sorted(spelled)
print(json.dumps(out))
`;

interface Probe {
  imports: Record<string, string | null>;
  calls: string[] | string;
  names: Record<string, string[]>;
}

Deno.test({
  name:
    "repository rename: the click-like package keeps importing, every use follows, one step for all files",
  ignore: PYTHON_SKIP !== undefined,
  async fn() {
    const dir = await repoWith(CLICK);
    const before = await runPythonJson<Probe>(PROBE, dir);
    assert.ok(Object.values(before.imports).every((error) => error === null), JSON.stringify(before.imports));
    // verify agrees, with nothing left to warn about: every importer is part of the step
    const verified = await verifyIn(dir, rename({ new_name: "echo_line", scope: "repository" }));
    assert.deepEqual([...verified.errors, ...verified.warnings], []);
    const result = await apply(dir, rename({ new_name: "echo_line", scope: "repository" }));
    assert.equal(result.success, true, JSON.stringify(result.errors));
    assert.deepEqual(result.files_changed.sort(), [
      "src/click/__init__.py",
      "src/click/core.py",
      "src/click/decorators.py",
      "src/click/termui.py",
      "src/click/utils.py",
      "tests/test_basic.py",
    ]);
    const after = await runPythonJson<Probe>(PROBE, dir);
    assert.deepEqual(after.imports, before.imports);
    assert.deepEqual(after.calls, before.calls);
    for (const [path, names] of Object.entries(after.names)) {
      // Group.invoke's local `echo` is its own variable and stays; nothing else spells the old name
      if (path === "src/click/core.py") assert.deepEqual(names.filter((n) => n === "echo"), ["echo"], path);
      else assert.ok(!names.includes("echo"), `${path} still uses "echo"`);
    }
    const core = await Deno.readTextFile(`${dir}/src/click/core.py`);
    assert.match(core, /from \.utils import echo_line\n/);
    assert.match(core, /first = echo_line\("x"\)\n {8}return first \+ utils\.echo_line\("y"\)/);
    assert.match(core, /def main\(self, echo_twice=False\)/);
    assert.match(core, /echo = print\n {8}return echo\n/);
    const utils = await Deno.readTextFile(`${dir}/src/click/utils.py`);
    assert.match(utils, /# echo writes one line; "echo" in strings and comments stays/);
    await Deno.remove(dir, { recursive: true });
  },
});

Deno.test({
  name:
    "repository rename: the default file scope refuses a name other files import, listing them; nothing written",
  async fn() {
    const dir = await repoWith(CLICK);
    const before = await hashTree(dir);
    const result = await apply(dir, rename({ new_name: "echo_line" }));
    assert.equal(result.success, false);
    assert.deepEqual(result.errors.map((issue) => issue.code), ["rename-imported-elsewhere"]);
    assert.match(
      result.errors[0].message,
      /^Cannot rename "echo" in "src\/click\/utils.py" alone: other files use it: /,
    );
    for (const place of ["src/click/__init__.py:4", "src/click/core.py:2", "src/click/decorators.py:6"]) {
      assert.ok(result.errors[0].message.includes(`"${place}"`), place);
    }
    assert.match(result.errors[0].hint!, /"scope": "repository"/);
    assert.deepEqual(await hashTree(dir), before);
    // a name nobody imports renames as before, without the parameter
    const local = await apply(dir, [{
      op: "rename_identifier",
      params: {
        target: { file: "src/click/utils.py", kind: "function", name: "_default_out" },
        new_name: "_out",
      },
    }]);
    assert.equal(local.success, true, JSON.stringify(local.errors));
    await Deno.remove(dir, { recursive: true });
  },
});

Deno.test({
  name:
    "repository rename: a collision in an importing file refuses the whole step; a bad scope is a param error",
  async fn() {
    const dir = await repoWith(CLICK);
    const before = await hashTree(dir);
    // core.py binds "Command" already: its `from .utils import echo` would become a second Command
    const clash = await apply(dir, rename({ new_name: "Command", scope: "repository" }));
    assert.equal(clash.success, false);
    assert.ok(
      clash.errors.some((issue) => issue.code === "rename-collision" && issue.file === "src/click/core.py"),
      JSON.stringify(clash.errors),
    );
    // the plan schema knows the parameter and its two values
    const bad = await parsePlanSteps(rename({ new_name: "echo_line", scope: "everywhere" }));
    assert.deepEqual(bad.issues.map((issue) => `${issue.code} ${issue.path?.join(".")}`), [
      "invalid-value 0.params.scope",
    ]);
    assert.deepEqual(await hashTree(dir), before);
    await Deno.remove(dir, { recursive: true });
  },
});

Deno.test({
  name:
    "repository rename: requests' get_netrc_auth renamed in utils.py and in sessions.py, which CPython still compiles",
  ignore: CORPUS_SKIP !== undefined || PYTHON_SKIP !== undefined,
  async fn() {
    const dir = await repoWith({
      "requests/utils.py": await corpusText("psf__requests-3362", "requests/utils.py"),
      "requests/sessions.py": await corpusText("psf__requests-1921", "requests/sessions.py"),
    });
    const result = await apply(dir, [{
      op: "rename_identifier",
      params: {
        target: { file: "requests/utils.py", kind: "function", name: "get_netrc_auth" },
        new_name: "netrc_auth",
        scope: "repository",
      },
    }]);
    assert.equal(result.success, true, JSON.stringify(result.errors));
    assert.deepEqual(result.files_changed.sort(), ["requests/sessions.py", "requests/utils.py"]);
    const check = await runPythonJson<Record<string, { compiles: boolean; old: number; new: number }>>(
      String.raw`
import ast, json, sys
out = {}
for path, src in json.load(sys.stdin).items():
    compile(src, path, "exec")
    names = [n.id for n in ast.walk(ast.parse(src)) if isinstance(n, ast.Name)]
    names += [a.name for n in ast.walk(ast.parse(src)) if isinstance(n, ast.ImportFrom) for a in n.names]
    names += [n.name for n in ast.walk(ast.parse(src)) if isinstance(n, ast.FunctionDef)]
    out[path] = {"compiles": True, "old": names.count("get_netrc_auth"), "new": names.count("netrc_auth")}
print(json.dumps(out))
`,
      {
        utils: await Deno.readTextFile(`${dir}/requests/utils.py`),
        sessions: await Deno.readTextFile(`${dir}/requests/sessions.py`),
      },
    );
    assert.deepEqual(check, {
      utils: { compiles: true, old: 0, new: 1 },
      sessions: { compiles: true, old: 0, new: 3 },
    });
    await Deno.remove(dir, { recursive: true });
  },
});

if (!PYTHON) console.log(`skipping the CPython checks of repository renames: ${PYTHON_SKIP}`);

Deno.test({
  name:
    "repository rename: a star importer's uses count for the file scope's refusal and are renamed with the repository",
  ignore: PYTHON_SKIP !== undefined,
  async fn() {
    const files = {
      "lib/shapes.py": "def area(w, h):\n    return w * h\n",
      "lib/report.py":
        "from lib.shapes import *\n\n\ndef total(items):\n    return sum(area(w, h) for w, h in items)\n",
    };
    const plan = (scope?: string) => [{
      op: "rename_identifier",
      params: {
        target: { file: "lib/shapes.py", kind: "function", name: "area" },
        new_name: "surface",
        ...(scope ? { scope } : {}),
      },
    }];
    const dir = await repoWith(files);
    const refused = await apply(dir, plan());
    assert.deepEqual(refused.errors.map((issue) => issue.code), ["rename-imported-elsewhere"]);
    assert.match(refused.errors[0].message, /other files use it: "lib\/report.py:5"$/);
    const done = await apply(dir, plan("repository"));
    assert.equal(done.success, true, JSON.stringify(done.errors));
    const report = await Deno.readTextFile(`${dir}/lib/report.py`);
    assert.equal(report, files["lib/report.py"].replace("area(w, h)", "surface(w, h)"));
    const out = new Deno.Command(PYTHON!, {
      args: [
        "-c",
        "import sys; sys.path.insert(0, sys.argv[1]); from lib import report; print(report.total([(2, 3)]))",
        dir,
      ],
    }).outputSync();
    assert.equal(new TextDecoder().decode(out.stdout).trim(), "6", new TextDecoder().decode(out.stderr));
    await Deno.remove(dir, { recursive: true });
  },
});
