/**
 * The declared Python of a repository (packaging metadata) and the syntax
 * features with the version they need, against CPython: `ast.parse(src,
 * feature_version=(3, N))` says from which 3.N a snippet is accepted, and
 * CPython 3.11 refuses every 3.12-only f-string form outright.
 */

import assert from "node:assert/strict";
import { lowerBound, pythonTarget } from "../../../engine/analysis/python_version.ts";
import { pythonFeatures } from "../../../engine/analysis/syntax_features.ts";
import { parse } from "../../../engine/parse/mod.ts";
import { PYTHON_SKIP, runPythonJson } from "../../_support/python.ts";
import { CORPUS_SKIP, corpusBeforeFiles } from "../../_support/corpus.ts";

Deno.test("lowerBound: the lowest Python 3 a specifier admits", () => {
  const cases: [string, string | undefined][] = [
    [">=3.6", "3.6"],
    [">=3.6, <4", "3.6"],
    [">3.7", "3.8"],
    ["~=3.9", "3.9"],
    ["^3.8", "3.8"],
    [">=2.7, !=3.0.*, !=3.1.*, !=3.2.*, !=3.3.*", "3.4"],
    [">=3.7,<3.12", "3.7"],
    ["<3.10", undefined],
    ["==3.*", "3.0"],
    [">= 3.10", "3.10"],
  ];
  for (const [spec, expected] of cases) {
    const got = lowerBound(spec);
    assert.equal(got ? `${got.major}.${got.minor}` : undefined, expected, spec);
  }
});

Deno.test("pythonTarget: pyproject, then setup.cfg/setup.py, then classifiers, else 3.8", () => {
  const target = (files: Record<string, string>) => {
    const found = pythonTarget((path) => files[path]);
    return `${found.version.major}.${found.version.minor} ${found.source.split(" ")[0]}`;
  };
  assert.equal(target({ "pyproject.toml": '[project]\nrequires-python = ">=3.9"\n' }), "3.9 pyproject.toml");
  assert.equal(
    target({ "pyproject.toml": '[tool.poetry.dependencies]\npython = "^3.7"\nrequests = "^2"\n' }),
    "3.7 pyproject.toml",
  );
  assert.equal(target({ "setup.cfg": "[options]\npython_requires = >=3.6\n" }), "3.6 setup.cfg");
  // xarray's setup.py of the commit declared 3.6+
  assert.equal(target({ "setup.py": 'setup(name="x", python_requires=">=3.6")\n' }), "3.6 setup.py");
  assert.equal(
    target({
      "setup.py":
        'classifiers=[\n  "Programming Language :: Python :: 3.7",\n  "Programming Language :: Python :: 3.5",\n]',
    }),
    "3.5 classifier",
  );
  assert.equal(target({}), "3.8 default");
  // a requires-python without a lower bound falls through to the classifiers
  assert.equal(
    target({
      "pyproject.toml": 'requires-python = "<4"\nclassifiers = ["Programming Language :: Python :: 3.10"]\n',
    }),
    "3.10 classifier",
  );
});

const ORACLE = `
import ast, json, sys
out = []
for src in json.load(sys.stdin):
    since = None
    for minor in range(0, 12):
        try:
            ast.parse(src, feature_version=(3, minor))
            since = minor
            break
        except SyntaxError:
            pass
    out.append(12 if since is None else since)
print(json.dumps(out))
`;

/** Snippets whose version CPython 3.11's parser can tell (feature_version, or refusal for 3.12). */
const SNIPPETS = [
  "x = 1\n",
  "f'{x}'\n",
  "x: int = 1\n",
  "n = 1_000\n",
  "if (y := 1):\n    pass\n",
  "def f(a, /, b):\n    pass\n",
  "lambda a, /: a\n",
  "match x:\n    case 1:\n        pass\n",
  "try:\n    pass\nexcept* E:\n    pass\n",
  'f"{", ".join(x)}"\n',
  "f'{f'{x}'}'\n",
  "f\"{f'{x}'}\"\n",
  "f'''{'a'}'''\n",
  "f'''{'''a'''}'''\n",
  "f\"{'\\\\n'.join(x)}\"\n",
  'f"{x!r:>{w}}"\n',
  'f"{x:{"w"}}"\n',
  "def f[T](x: T) -> T:\n    return x\n",
  "class A[T]:\n    pass\n",
  "type X = int\n",
  "print(f'{a}' f\"{b}\")\n",
  'f"{f\'{f"{x}"}\'}"\n',
];

Deno.test({
  name: "syntax features: the newest feature found is the version from which CPython accepts the snippet",
  ignore: PYTHON_SKIP !== undefined,
  async fn() {
    const since = await runPythonJson<number[]>(ORACLE, SNIPPETS);
    const mismatches: string[] = [];
    for (let i = 0; i < SNIPPETS.length; i++) {
      const tree = await parse("python", SNIPPETS[i]);
      const found = pythonFeatures(tree.rootNode);
      tree.delete();
      const newest = Math.max(0, ...found.map((f) => f.since.minor));
      if (newest !== since[i]) {
        mismatches.push(
          `${JSON.stringify(SNIPPETS[i])}: CPython from 3.${since[i]}, found 3.${newest} (${
            found.map((f) => f.feature).join(", ")
          })`,
        );
      }
    }
    assert.deepEqual(mismatches, []);
  },
});

Deno.test("syntax features the oracle cannot date: parenthesized with (3.10), PEP 614 decorators, return *a", async () => {
  const cases: [string, string[]][] = [
    ["with (a as b, c as d):\n    pass\n", ["parenthesized-with"]],
    ["with (open(x)) as f:\n    pass\n", []],
    ["with (a, b):\n    pass\n", []],
    ["@x[0]\ndef f():\n    pass\n", ["relaxed-decorator"]],
    ["@a.b(1)\ndef f():\n    pass\n", []],
    ["def f():\n    return *a, b\n", ["unparenthesized-star"]],
    ["def f():\n    return (*a, b)\n", []],
  ];
  for (const [source, features] of cases) {
    const tree = await parse("python", source);
    assert.deepEqual(pythonFeatures(tree.rootNode).map((f) => f.feature), features, source);
    tree.delete();
  }
});

Deno.test({
  name: "syntax features: no corpus file (all compile with CPython 3.11) shows a feature newer than 3.11",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const newest = new Map<string, number>();
    const tooNew: string[] = [];
    for (const file of await corpusBeforeFiles(".py")) {
      const tree = await parse("python", file.text);
      for (const feature of pythonFeatures(tree.rootNode, { atLeast: { major: 3, minor: 8 } })) {
        if (feature.since.minor > 11) tooNew.push(`${file.path}:${feature.line} ${feature.feature}`);
        newest.set(feature.feature, Math.max(newest.get(feature.feature) ?? 0, feature.since.minor));
      }
      tree.delete();
    }
    console.log(`features of 3.8+ in the corpus: ${[...newest.keys()].sort().join(", ") || "none"}`);
    assert.deepEqual(tooNew, []);
  },
});
