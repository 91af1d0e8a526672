/**
 * The quick tier's rule, pinned by reading the sources: a test file in the
 * quick folders (`QUICK_FOLDERS` of `tools/test.ts`) that starts podman,
 * real pytest, the `graphplan` CLI, another `deno` or builds the bundle
 * marks those tests slow with `slow` from `tests/_support/quick.ts`
 * (skipped by `deno task test:quick`, run by `deno task test`).
 *
 * A file starts such a process when its code (comments left out) has one of
 * the `STARTS` patterns, or calls a function of a test support module
 * (`tests/**\/_*.ts`, `tests/_support/`) that does, directly or through
 * another support function. The rule is per file: which of its tests are
 * slow is the author's call, but a file cannot start one of these
 * processes without the marker.
 *
 * @module
 */

import assert from "node:assert/strict";
import { dirname, join, normalize, relative } from "node:path";
import { QUICK_FOLDERS } from "../../tools/test.ts";
import { importsOf } from "../_support/import_graph.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/** Code that starts a slow process, with what it starts. */
const STARTS: [RegExp, string][] = [
  [/\brunCli\(|\bspawnCli\(/, "the graphplan CLI"],
  // Called or held: `const deno = Deno.execPath;` and `const { execPath } = Deno` start it later.
  [/\bDeno\.execPath\b|\{[^}]*\bexecPath\b[^}]*\}\s*=\s*Deno\b/, "another deno"],
  [/new Deno\.Command\("podman"|\bbuildMinimalImage\(|\bpodmanEnv\(/, "podman"],
  [/"-m",\s*"pytest"|\bPYTEST_SKIP\b/, "real pytest"],
  [/\bensureBundle\(/, "the bundle"],
];

/**
 * Whether `text` uses `name`: called, or held and passed on (`new Deno.Command(DENO, ...)` with a
 * support module's `DENO = Deno.execPath()`). `text` is code without its import statements.
 */
function uses(text: string, name: string): boolean {
  // An identifier, not a word of a path or a string ("_support/cli.ts", "cli").
  return new RegExp(`(?<![\\w$./"'\`-])${name}(?![\\w$"'\`]|\\.ts\\b)`).test(text);
}

/** `source` without its import statements (an imported name is not yet a use). */
function withoutImports(source: string): string {
  return source.replace(/^\s*import\s[^;]*?from\s*"[^"]+";?/gm, "");
}

/** `source` without its comments (strings kept: a command name is a string). */
function code(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
}

function starts(text: string): string | undefined {
  return STARTS.find(([pattern]) => pattern.test(text))?.[1];
}

/** The top-level declarations of a module: name → its text up to the next declaration. */
function declarations(text: string): Map<string, string> {
  const out = new Map<string, string>();
  const matches = [
    ...text.matchAll(/^(?:export\s+)?(?:async\s+)?(?:function\*?\s+|const\s+|let\s+|class\s+)(\w+)/gm),
  ];
  matches.forEach((match, k) =>
    out.set(match[1], text.slice(match.index, matches[k + 1]?.index ?? text.length))
  );
  return out;
}

async function walk(dir: string, keep: (path: string) => boolean): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) out.push(...await walk(path, keep));
    else if (keep(path)) out.push(path);
  }
  return out.sort();
}

/** Support module (repository-relative) → the names it declares that start a slow process. */
async function startingSupport(): Promise<Map<string, Set<string>>> {
  const modules = await walk(join(ROOT, "tests"), (path) => {
    const name = path.slice(path.lastIndexOf("/") + 1);
    return name.endsWith(".ts") && !name.endsWith("_test.ts") &&
      (name.startsWith("_") || path.includes("/tests/_support/"));
  });
  const texts = new Map<string, string>();
  for (const path of modules) texts.set(relative(ROOT, path), await Deno.readTextFile(path));
  const found = new Map<string, Set<string>>([...texts.keys()].map((file) => [file, new Set<string>()]));
  for (let changed = true; changed;) {
    changed = false;
    for (const [file, source] of texts) {
      const callable = calledElsewhere(file, source, found);
      for (const [name, body] of declarations(withoutImports(code(source)))) {
        if (found.get(file)!.has(name)) continue;
        const local = [...found.get(file)!].some((other) => new RegExp(`\\b${other}\\b`).test(body));
        if (starts(body) || local || callable.some((other) => uses(body, other))) {
          found.get(file)!.add(name);
          changed = true;
        }
      }
    }
  }
  return found;
}

/** The repository-relative files `file` imports by relative paths. */
function importedFiles(file: string, source: string): string[] {
  return importsOf(source).filter((edge) => edge.specifier.startsWith("."))
    .map((edge) => normalize(join(dirname(file), edge.specifier)));
}

/** The local names under which `file` imports starting functions of support modules (`a as b` gives `b`). */
function calledElsewhere(file: string, source: string, found: Map<string, Set<string>>): string[] {
  const names: string[] = [];
  for (const match of source.matchAll(/import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*"(\.[^"]+)"/g)) {
    const starting = found.get(normalize(join(dirname(file), match[2])));
    if (!starting) continue;
    for (const item of match[1].split(",")) {
      const [name, local] = item.trim().split(/\s+as\s+/);
      if (starting.has(name)) names.push(local ?? name);
    }
  }
  return names;
}

Deno.test("quick tier: every quick-tier test file that starts podman, pytest, the CLI, deno or the bundle marks it slow", async () => {
  const support = await startingSupport();
  assert.ok(support.get("tests/_support/cli.ts")?.has("runCli"), "runCli is known to start the CLI");
  const files = (await Promise.all(
    QUICK_FOLDERS.map((folder) => walk(join(ROOT, folder), (p) => p.endsWith("_test.ts"))),
  ))
    .flat();
  assert.ok(files.length > 100, `the quick folders hold the unit tests (${files.length} files)`);
  const unmarked: string[] = [];
  let marked = 0;
  for (const path of files) {
    const file = relative(ROOT, path);
    const source = await Deno.readTextFile(path);
    const text = code(source);
    const via = calledElsewhere(file, source, support).find((name) => uses(withoutImports(text), name));
    const what = starts(text) ?? (via && `${via}()`);
    if (what === undefined) continue;
    const usesSlow = importedFiles(file, source).includes("tests/_support/quick.ts") &&
      /\bslow\(/.test(text);
    if (usesSlow) marked++;
    else unmarked.push(`${file}: starts ${what} but marks no test slow (tests/_support/quick.ts)`);
  }
  assert.deepEqual(unmarked, []);
  assert.ok(marked >= 30, `the files that start processes were found (${marked})`);
});

Deno.test("quick tier: the rule sees a CLI call through a support module and ignores one in a comment", () => {
  const found = new Map([["tests/_support/cli.ts", new Set(["runCli"])]]);
  const calling = "import { run" + 'Cli } from "../_support/cli.ts";\nawait ' + "run" + 'Cli(["--help"]);\n';
  assert.deepEqual(calledElsewhere("tests/x/a_test.ts", calling, found), ["runCli"]);
  const aliased = "import { assert, run" + 'Cli as cli } from "../_support/cli.ts";\n';
  assert.deepEqual(calledElsewhere("tests/x/a_test.ts", aliased, found), ["cli"]);
  assert.equal(starts(code("// Deno." + "execPath() is not called here\nconst x = 1;\n")), undefined);
  assert.equal(starts(code('await new Deno.Command("' + 'podman", { args: ["ps"] }).output();')), "podman");
  // Deno's executable held in a variable, then started: in the file itself, or through a support module.
  assert.equal(
    starts(code("const deno = Deno." + "execPath;\nnew Deno.Command(deno(), { args });\n")),
    "another deno",
  );
  assert.equal(starts(code("const { exec" + "Path } = Deno;\n")), "another deno");
  const held = new Map([["tests/_support/trials.ts", new Set(["DENO"])]]);
  const passing =
    'import { DENO } from "../_support/trials.ts";\nnew Deno.Command(DENO, { args: ["run"] }).spawn();\n';
  const imported = calledElsewhere("tests/x/a_test.ts", passing, held);
  assert.deepEqual(imported, ["DENO"]);
  assert.ok(uses(withoutImports(code(passing)), "DENO"), "a held executable passed to Deno.Command is a use");
  assert.ok(
    !uses(withoutImports(code('import { DENO } from "../_support/trials.ts";\n')), "DENO"),
    "an import alone is not",
  );
  assert.equal(
    [...declarations("export async function a() {\n  b();\n}\nconst c = 1;\n").keys()].join(","),
    "a,c",
  );
});
