/**
 * The one-file bundle: built from the current sources with `deno bundle`,
 * copied to a directory with no deno.json, and run with `--allow-read`
 * only (grammars are embedded: loading them needs no permission). Its
 * `graph --json` output must equal the in-process `buildGraph`, including
 * a run large enough to go through the worker pool, whose workers start the
 * bundle itself.
 */

import { buildBundle } from "../../tools/bundle.ts";
import assert from "node:assert/strict";
import { buildGraph } from "../../engine/graph/mod.ts";
import { POOL_DEBUG_ENV, POOL_DEFAULTS } from "../../engine/graph/pool.ts";
import { Workspace } from "../../engine/workspace.ts";
import { VERSION } from "../../version.ts";
import { CORPUS_SKIP, corpusBeforeFiles } from "../_support/corpus.ts";

if (CORPUS_SKIP) console.log(`bundle_test: corpus tests skipped: ${CORPUS_SKIP}`);

let bundled: Promise<{ bundle: string; dir: string }> | undefined;

/** Build the bundle once for this file, into a temp dir without deno.json. */
function bundle(): Promise<{ bundle: string; dir: string }> {
  bundled ??= (async () => {
    const dir = await Deno.makeTempDir({ prefix: "graphplan-bundle-" });
    const built = await buildBundle(`${dir}/build/graphplan.js`);
    // The copy lives where no deno.json can be found (the bundle must not need one).
    await Deno.mkdir(`${dir}/app`);
    await Deno.copyFile(built, `${dir}/app/graphplan.js`);
    for (let up = `${dir}/app`; up !== "/" && up !== ""; up = up.slice(0, up.lastIndexOf("/")) || "/") {
      for (const name of ["deno.json", "deno.jsonc", "package.json"]) {
        assert.throws(() => Deno.statSync(`${up}/${name}`), `unexpected ${up}/${name}`);
      }
    }
    return { bundle: `${dir}/app/graphplan.js`, dir };
  })();
  return bundled;
}

async function runBundle(
  args: string[],
  options: { cwd?: string; permissions?: string[]; env?: Record<string, string> } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const { bundle: path } = await bundle();
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", ...(options.permissions ?? ["--allow-read"]), path, ...args],
    cwd: options.cwd,
    env: options.env,
    stdout: "piped",
    stderr: "piped",
  }).output();
  return {
    code: out.code,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
  };
}

Deno.test("the bundle is all ASCII, so Deno hands its source to V8 without a copy", async () => {
  // A non-ASCII character anywhere costs a converted copy of the whole source at every start (~860
  // page faults, 10-13 ms for 3.5 MB); one above U+00FF (a "\u2192" in a kept comment) also makes V8
  // store it as UTF-16: measured +70 MB peak RSS and +60 ms on a 23 MB bundle.
  const { bundle: path } = await bundle();
  const text = await Deno.readTextFile(path);
  const found: string[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length && found.length < 5; i++) {
    const at = lines[i].search(/[\u0080-\uffff]/);
    if (at === -1) continue;
    // The source module is named by the bundler's "// path.ts" header above the line.
    let module = "?";
    for (let j = i; j >= 0; j--) {
      if (/^\/\/ \S+\.(ts|js|mjs|cjs|json)$/.test(lines[j])) {
        module = lines[j].slice(3);
        break;
      }
    }
    found.push(`${module}: ${JSON.stringify(lines[i].slice(Math.max(0, at - 30), at + 10).trim())}`);
  }
  assert.deepEqual(found, [], "tools/bundle.ts asciiOnly() should have escaped these");
});

Deno.test("the bundle starts without Node's compatibility layer, and loads it when a command needs it", async () => {
  // A static import of any node: module starts Node's compatibility layer at every start, workers
  // included (~7 ms for path, url and util; ~11 ms more for crypto and module).
  const { bundle: path, dir } = await bundle();
  const text = await Deno.readTextFile(path);
  const eager = text.match(/^import [^;]* from "node:[^"]*";$/gm) ?? [];
  assert.deepEqual(eager, [], "use engine/base/node_builtins.ts, which loads them on first use");
  // The embedded wasm files arrive as base64 text that grammars/mod.ts decodes natively: no
  // `with { type: "bytes" }` import is left for the bundler's JavaScript base64 loop.
  assert.doesNotMatch(text, /__toBinary\("/);
  // `run --help` loads the yaml package, which requires node:process through the lazy require.
  const help = await runBundle(["run", "--help"]);
  assert.equal(help.code, 0, help.stderr);
  assert.match(help.stdout, /graphplan run/);
  // apply and rollback hash files (node:crypto on first use).
  const repo = `${dir}/repo-apply`;
  await Deno.mkdir(repo, { recursive: true });
  await Deno.writeTextFile(`${repo}/m.py`, "def f():\n    return 1\n");
  const plan = [{
    op: "replace_code",
    params: { file: "m.py", pattern: "return 1", replacement: "return 2" },
  }];
  await Deno.writeTextFile(`${dir}/plan.json`, JSON.stringify(plan));
  const state = `${dir}/state`;
  const permissions = ["--allow-read", "--allow-write", "--allow-env"];
  const env = { XDG_STATE_HOME: state };
  const applied = await runBundle(["apply", `${dir}/plan.json`, "--repo", repo, "--json"], {
    permissions,
    env,
  });
  assert.equal(applied.code, 0, applied.stderr + applied.stdout);
  assert.equal(await Deno.readTextFile(`${repo}/m.py`), "def f():\n    return 2\n");
});

Deno.test("the bundle run without read permission says which flag it needs, and exits 1", async () => {
  const { dir } = await bundle();
  const repo = `${dir}/repo-denied`;
  await Deno.mkdir(repo, { recursive: true });
  await Deno.writeTextFile(`${repo}/m.py`, "def f():\n    return 1\n");
  const text = await runBundle(["graph", "m.py"], { cwd: repo, permissions: [] });
  assert.equal(text.code, 1, text.stderr);
  assert.match(text.stderr, /^error\[permission-missing\] .*--allow-read/m);
  assert.match(text.stderr, /hint: run the bundle with all permissions: deno run -A/);
  const json = await runBundle(["graph", "m.py", "--json"], { cwd: repo, permissions: [] });
  assert.equal(json.code, 1, json.stderr);
  const report = JSON.parse(json.stdout);
  assert.equal(report.success, false);
  assert.deepEqual(report.errors.map((issue: { code: string }) => issue.code), ["permission-missing"]);
});

Deno.test("the bundle prints its version and lists every command", async () => {
  const version = await runBundle(["--version"], { permissions: [] });
  assert.equal(version.code, 0, version.stderr);
  assert.equal(version.stdout.trim(), VERSION);
  const help = await runBundle(["--help"], { permissions: [] });
  assert.equal(help.code, 0, help.stderr);
  for (const name of ["graph", "locate", "apply", "rollback", "schema", "helper"]) {
    assert.match(help.stdout, new RegExp(`^  ${name}\\s`, "m"));
  }
});

Deno.test({
  name: "graph --json from the bundle equals buildGraph in-process, for good, broken and missing files",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const { dir } = await bundle();
    const repo = `${dir}/repo-small`;
    await Deno.mkdir(`${repo}/pkg`, { recursive: true });
    const [first] = await corpusBeforeFiles(".py");
    await Deno.writeTextFile(`${repo}/pkg/real.py`, first.text);
    await Deno.writeTextFile(`${repo}/pkg/broken.py`, "import os\n\ndef f(:\n    return os.sep\n");
    const files = ["pkg/real.py", "pkg/broken.py"];
    const good = await runBundle(["graph", ...files, "--json"], { cwd: repo });
    assert.equal(good.code, 0, good.stderr);
    const expected = await buildGraph(Workspace.open(repo), files);
    assert.deepEqual(JSON.parse(good.stdout), JSON.parse(JSON.stringify(expected)));
    assert.ok(expected.symbols.some((symbol) => symbol.file === "pkg/real.py"));
    assert.ok(
      expected.errors.some((issue) => issue.file === "pkg/broken.py" && issue.severity === "warning"),
    );

    // A missing file is an error issue and exit 1; --repo works from another directory.
    const missing = await runBundle(["graph", "--repo", repo, "--json", "pkg/real.py", "pkg/gone.py"], {
      cwd: dir,
    });
    assert.equal(missing.code, 1, missing.stderr);
    const graph = JSON.parse(missing.stdout);
    assert.ok(
      graph.errors.some((issue: { file?: string; severity: string }) => issue.file === "pkg/gone.py"),
    );
    assert.ok(graph.symbols.length > 0);
  },
});

Deno.test({
  name: "graph from the bundle runs the worker pool on a large input and matches in-process",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const { dir } = await bundle();
    const repo = `${dir}/repo-large`;
    const paths: string[] = [];
    let bytes = 0;
    for (const file of await corpusBeforeFiles(".py")) {
      const rel = `${file.id}/${file.path}`;
      await Deno.mkdir(`${repo}/${rel.slice(0, rel.lastIndexOf("/"))}`, { recursive: true });
      await Deno.writeTextFile(`${repo}/${rel}`, file.text);
      paths.push(rel);
      bytes += new TextEncoder().encode(file.text).length;
      if (bytes > POOL_DEFAULTS.minBytes + 500_000) break;
    }
    const run = await runBundle(["graph", "--json", "--workers", "2", ...paths], {
      cwd: repo,
      permissions: ["--allow-read", `--allow-env=${POOL_DEBUG_ENV}`],
      env: { [POOL_DEBUG_ENV]: "1" },
    });
    assert.equal(run.code, 0, run.stderr);
    // The pool says how it ran: 2 workers, nothing left to the main thread at the end; the
    // JSON in a pipe comes from per-file text (the graphText job).
    const report = JSON.parse(/graphplan pool: graphText: (\{.*\})/.exec(run.stderr)?.[1] ?? "null");
    assert.equal(report?.workers, 2, run.stderr);
    assert.equal(report?.inProcess, 0, run.stderr);
    const expected = await buildGraph(Workspace.open(repo), paths);
    assert.equal(run.stdout, JSON.stringify(expected) + "\n");
  },
});

Deno.test({
  name: "graph from the bundle falls back in-process when it may read the repository but not itself",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const { dir } = await bundle();
    const repo = `${dir}/repo-scoped`;
    await Deno.mkdir(repo);
    const paths: string[] = [];
    let bytes = 0;
    for (const file of await corpusBeforeFiles(".py")) {
      const rel = `f${paths.length}.py`;
      await Deno.writeTextFile(`${repo}/${rel}`, file.text);
      paths.push(rel);
      bytes += new TextEncoder().encode(file.text).length;
      if (bytes > POOL_DEFAULTS.minBytes + 500_000) break;
    }
    const run = await runBundle(["graph", "--json", ...paths], {
      cwd: repo,
      permissions: [`--allow-read=${repo}`, `--allow-env=${POOL_DEBUG_ENV}`],
      env: { [POOL_DEBUG_ENV]: "1" },
    });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /"reason":"no read permission on the entry module"/);
    const expected = await buildGraph(Workspace.open(repo), paths);
    assert.equal(run.stdout, JSON.stringify(expected) + "\n");
  },
});

Deno.test({
  name: "cleanup: remove the bundle directory",
  async fn() {
    if (!bundled) return;
    const { dir } = await bundled;
    await Deno.remove(dir, { recursive: true });
  },
});
