/**
 * L3 dangling references: uses left without their binding are errors, on
 * real requests files (corpus) and on the cases issue 17 reported (a
 * module constant, `import re`, a function another module imports), judged
 * on the whole plan; and the cases that must stay quiet (another binding, a
 * guarded import, `global`, class scoping, strings, star imports).
 */

import assert from "node:assert/strict";
import { executePlan, parsePlanSteps } from "../../../../engine/exec/mod.ts";
import type { Issue } from "../../../../engine/base/issue.ts";
import { DocumentStore } from "../../../../engine/parse/documents.ts";
import { Workspace } from "../../../../engine/workspace.ts";
import { CORPUS_SKIP, corpusText, hashTree, repoWith, verifyIn } from "../plan/_support.ts";
import "../../exec/_support.ts";

const corpus = { ignore: CORPUS_SKIP !== undefined };

const del = (file: string, target: Record<string, unknown>) => ({
  op: "delete_node",
  params: { target: { file, ...target } },
});

const summary = (issues: Issue[]) =>
  issues.map((issue) => `${issue.code}@${issue.step} ${issue.file}:${issue.line}`);

/** requests' utils.py (3362) with sessions.py (1921), which imports get_netrc_auth from it. */
async function requestsRepo(): Promise<string> {
  return await repoWith({
    "requests/utils.py": await corpusText("psf__requests-3362", "requests/utils.py"),
    "requests/sessions.py": await corpusText("psf__requests-1921", "requests/sessions.py"),
  });
}

Deno.test({
  name: "dangling: deleting a module constant or an import still used is an error naming each use",
  ...corpus,
  async fn() {
    const dir = await requestsRepo();
    const constant = await verifyIn(dir, [
      del("requests/utils.py", { kind: "assignment", name: "NETRC_FILES" }),
    ]);
    assert.equal(constant.passed, false);
    // lines are those of the result: the statement and the blank line after it are gone (104 -> 102)
    assert.deepEqual(summary(constant.errors), ["dangling-reference@0 requests/utils.py:102"]);
    assert.equal(
      constant.errors[0].message,
      'Name "NETRC_FILES" is still used after its last binding was removed: "requests/utils.py:102"',
    );
    assert.equal(constant.errors[0].level, "L3");
    const re = await verifyIn(dir, [del("requests/utils.py", { kind: "import", name: "re" })]);
    assert.deepEqual(summary(re.errors), ["dangling-reference@0 requests/utils.py:329"]);
    assert.match(re.errors[0].message, /"re" .*"requests\/utils.py:329", "requests\/utils.py:330", .*:628"$/);
    await Deno.remove(dir, { recursive: true });
  },
});

Deno.test({
  name: "dangling: deleting a function another module imports is an error at the import and each call there",
  ...corpus,
  async fn() {
    const dir = await requestsRepo();
    const result = await verifyIn(dir, [
      del("requests/utils.py", { kind: "function", name: "get_netrc_auth" }),
    ]);
    assert.deepEqual(summary(result.errors), ["dangling-import@0 requests/sessions.py:26"]);
    assert.match(result.errors[0].message, /:26", "requests\/sessions.py:165", "requests\/sessions.py:283"$/);
    assert.match(result.errors[0].hint!, /"scope": "repository"/);
    // the plan that also updates the importer passes: judged on the whole plan
    const sessions = await Deno.readTextFile(`${dir}/requests/sessions.py`);
    const fixed = await verifyIn(dir, [
      del("requests/utils.py", { kind: "function", name: "get_netrc_auth" }),
      {
        op: "replace_code",
        params: {
          file: "requests/sessions.py",
          pattern: "from .utils import requote_uri, get_environ_proxies, get_netrc_auth",
          replacement: "from .utils import requote_uri, get_environ_proxies\nget_netrc_auth = None",
        },
      },
    ]);
    assert.deepEqual(fixed.errors, []);
    assert.equal(await Deno.readTextFile(`${dir}/requests/sessions.py`), sessions);
    await Deno.remove(dir, { recursive: true });
  },
});

Deno.test({
  name: "dangling: apply refuses the plan and leaves every file byte-identical; a later step may repair it",
  ...corpus,
  async fn() {
    const dir = await requestsRepo();
    const before = await hashTree(dir);
    const apply = async (plan: unknown[]) => {
      const parsed = await parsePlanSteps(plan);
      return await executePlan(new DocumentStore(Workspace.open(dir)), parsed.steps, {
        runStep: parsed.runStep,
      });
    };
    const broken = await apply([del("requests/utils.py", { kind: "assignment", name: "NETRC_FILES" })]);
    assert.equal(broken.success, false);
    assert.equal(broken.rolled_back, true);
    assert.equal(broken.failed_step, 0);
    assert.deepEqual(summary(broken.errors), ["dangling-reference@0 requests/utils.py:102"]);
    assert.deepEqual(await hashTree(dir), before);
    // deleting the constant, then the loop that read it, leaves nothing dangling
    const repaired = await apply([
      del("requests/utils.py", { kind: "assignment", name: "NETRC_FILES" }),
      {
        op: "replace_code",
        params: {
          file: "requests/utils.py",
          pattern: "for f in NETRC_FILES:",
          replacement: "for f in ('.netrc',):",
        },
      },
    ]);
    assert.equal(repaired.success, true, JSON.stringify(repaired.errors));
    assert.ok(!(await Deno.readTextFile(`${dir}/requests/utils.py`)).includes("NETRC_FILES"));
    await Deno.remove(dir, { recursive: true });
  },
});

const QUIET = `import os
from .compat import *
try:
    import simplejson as json
except ImportError:
    import json

DEBUG = False
if os.environ.get("DEBUG"):
    DEBUG = True
    print("debugging")
__all__ = ["render", "LIMIT"]
LIMIT = 10


def configure():
    global REGISTRY
    REGISTRY = {}


REGISTRY = None


class View:
    LIMIT = 5
    doubled = LIMIT * 2

    def render(self):
        return json.dumps(REGISTRY), "LIMIT"


def render(LIMIT=None):
    return [LIMIT for LIMIT in range(3)]
`;

Deno.test({
  name:
    "dangling: other bindings, guarded imports, global, class scope, strings and shadowing are not dangling",
  async fn() {
    const dir = await repoWith({ "app/views.py": QUIET.replace("from .compat import *\n", "") });
    const cases: [string, Record<string, unknown>][] = [
      // the other arm of the try still binds json
      ["json (try arm)", { type: "sexp", query: "(import_statement) @i", capture: "i", index: 1 }],
      // the first assignment still binds DEBUG
      ["DEBUG (second)", { kind: "assignment", name: "DEBUG", index: 1 }],
      // configure() binds REGISTRY with `global`
      ["REGISTRY", { kind: "assignment", name: "REGISTRY", index: 1 }],
      // View.doubled reads the class's LIMIT; with it gone it finds the module's
      ["View.LIMIT", { kind: "assignment", name: "LIMIT", parent: { kind: "class", name: "View" } }],
    ];
    for (const [what, target] of cases) {
      const result = await verifyIn(dir, [del("app/views.py", target)]);
      assert.deepEqual(result.errors, [], what);
    }
    // the module's LIMIT: only a string, a parameter and a comprehension variable spell it, and __all__ lists it
    const limit = await verifyIn(dir, [del("app/views.py", { kind: "assignment", name: "LIMIT", index: 0 })]);
    assert.deepEqual(limit.errors, []);
    assert.deepEqual(limit.warnings.map((issue) => issue.code), ["export-removed"]);
    // a star import may supply any name: unknown, not dangling
    const starDir = await repoWith({ "app/views.py": QUIET });
    const star = await verifyIn(starDir, [del("app/views.py", { kind: "import", name: "os" })]);
    assert.deepEqual(star.errors, []);
    const noStar = await verifyIn(dir, [del("app/views.py", { kind: "import", name: "os" })]);
    assert.deepEqual(summary(noStar.errors), ["dangling-reference@0 app/views.py:7"]);
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(starDir, { recursive: true });
  },
});

Deno.test({
  name: "dangling: an import inside try/except ImportError elsewhere is a fallback, not a break",
  async fn() {
    const dir = await repoWith({
      "pkg/speedups.py": "def fast():\n    return 1\n\n\ndef other():\n    return fast()\n",
      "pkg/api.py": "try:\n    from .speedups import fast\nexcept ImportError:\n    fast = None\n",
      "pkg/cli.py": "from pkg.speedups import fast as go\n\n\ndef main():\n    return go()\n",
    });
    const result = await verifyIn(dir, [
      del("pkg/speedups.py", { kind: "function", name: "fast" }),
      del("pkg/speedups.py", { kind: "function", name: "other" }),
    ]);
    assert.deepEqual(summary(result.errors), ["dangling-import@0 pkg/cli.py:1"]);
    assert.match(result.errors[0].message, /"pkg\/cli.py:1", "pkg\/cli.py:5"$/);
    await Deno.remove(dir, { recursive: true });
  },
});

Deno.test({
  name: "dangling: removing a star import leaves the names only it supplied dangling; __all__ settles",
  async fn() {
    const dir = await repoWith({
      "app/consts.py": "RED = 1\nBLUE = 2\n",
      "app/paint.py":
        "from .consts import *\n\n__all__ = ['paint', 'mix']\n\n\ndef paint():\n    return RED\n\n\ndef mix():\n    return paint()\n",
    });
    const star = await verifyIn(dir, [del("app/paint.py", { kind: "import", index: 0 })]);
    assert.deepEqual(summary(star.errors), ["dangling-reference@0 app/paint.py:5"]);
    assert.match(star.errors[0].message, /^Name "RED" /);
    // deleting a listed function warns about __all__; removing it from __all__ in a later step settles that
    const listed = await verifyIn(dir, [del("app/paint.py", { kind: "function", name: "mix" })]);
    assert.deepEqual(listed.errors, []);
    assert.deepEqual(listed.warnings.map((issue) => issue.code), ["export-removed"]);
    const both = await verifyIn(dir, [
      del("app/paint.py", { kind: "function", name: "mix" }),
      {
        op: "replace_code",
        params: { file: "app/paint.py", pattern: "'paint', 'mix'", replacement: "'paint'" },
      },
    ]);
    assert.deepEqual([...both.errors, ...both.warnings], []);
    await Deno.remove(dir, { recursive: true });
  },
});

Deno.test({
  name: "dangling: a module __getattr__ may still supply a removed name to its importers",
  async fn() {
    const dir = await repoWith({
      "pkg/compat.py": "OLD = 1\n\n\ndef __getattr__(name):\n    return 2\n",
      "pkg/use.py": "from pkg.compat import OLD\n",
    });
    const result = await verifyIn(dir, [del("pkg/compat.py", { kind: "assignment", name: "OLD" })]);
    assert.deepEqual(result.errors, []);
    const plain = await repoWith({
      "pkg/compat.py": "OLD = 1\n",
      "pkg/use.py": "from pkg.compat import OLD\n",
    });
    const broken = await verifyIn(plain, [del("pkg/compat.py", { kind: "assignment", name: "OLD" })]);
    assert.deepEqual(summary(broken.errors), ["dangling-import@0 pkg/use.py:1"]);
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(plain, { recursive: true });
  },
});
