/**
 * `deno task compile` (tools/compile.ts): the `deno compile` invocation it
 * builds, its errors, and that deno accepts every flag. A real executable
 * cannot be produced here (denort is downloaded, and the machine is
 * offline), so the last test hands deno its own binary as DENORT_BIN: deno
 * then writes a file, which proves the arguments, not a working program.
 */

import assert from "node:assert/strict";
import { compileCommand, CompileError, unusedGrammarFiles } from "../../tools/compile.ts";

const REPO_ROOT = new URL("../../", import.meta.url).pathname.replace(/\/$/, "");
const TOOL = `${REPO_ROOT}/tools/compile.ts`;

async function runTool(args: string[], env: Record<string, string> = {}) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", TOOL, ...args],
    env,
    stdout: "piped",
    stderr: "piped",
  }).output();
  return {
    code: out.code,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
  };
}

Deno.test("compileCommand builds dist/graphplan from main.ts with raw imports and the repository config", () => {
  const { args, env, cwd } = compileCommand();
  assert.equal(cwd, REPO_ROOT);
  assert.deepEqual(env, {});
  assert.equal(args[0], "compile");
  assert.ok(args.includes("--allow-all"));
  assert.ok(args.includes("--unstable-raw-imports"));
  assert.equal(args[args.indexOf("--config") + 1], `${REPO_ROOT}/deno.json`);
  assert.equal(args[args.indexOf("--output") + 1], `${REPO_ROOT}/dist/graphplan`);
  assert.equal(args[args.length - 1], `${REPO_ROOT}/main.ts`);
  assert.ok(!args.includes("--no-check"));

  const cross = compileCommand({
    target: "aarch64-unknown-linux-gnu",
    denort: Deno.execPath(),
    output: "/tmp/gp",
    noCheck: true,
    exclude: ["/x/a.wasm"],
  });
  assert.equal(cross.args[cross.args.indexOf("--target") + 1], "aarch64-unknown-linux-gnu");
  assert.equal(cross.args[cross.args.indexOf("--output") + 1], "/tmp/gp");
  assert.equal(cross.args[cross.args.indexOf("--exclude") + 1], "/x/a.wasm");
  assert.ok(cross.args.includes("--no-check"));
  assert.deepEqual(cross.env, { DENORT_BIN: Deno.execPath() });
});

Deno.test("compileCommand refuses a DENORT_BIN that is missing or not a file", async () => {
  assert.throws(
    () => compileCommand({ denort: "/no/such/denort" }),
    (err: unknown) =>
      err instanceof CompileError && err.message === 'DENORT_BIN names a missing file: "/no/such/denort"',
  );
  const dir = await Deno.makeTempDir();
  try {
    assert.throws(() => compileCommand({ denort: dir }), /DENORT_BIN is not a file/);
    await Deno.writeTextFile(`${dir}/denort`, "");
    await Deno.chmod(`${dir}/denort`, 0o644);
    assert.throws(() => compileCommand({ denort: `${dir}/denort` }), /DENORT_BIN is not executable/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("unusedGrammarFiles leaves out every grammar of the npm package: the embedded ones come from grammars/wasm", async () => {
  const unused = await unusedGrammarFiles();
  const names = unused.map((path) => path.slice(path.lastIndexOf("/") + 1));
  for (const entry of Deno.readDirSync(`${REPO_ROOT}/grammars`)) {
    if (!entry.name.endsWith(".ts")) continue;
    const text = Deno.readTextFileSync(`${REPO_ROOT}/grammars/${entry.name}`);
    assert.doesNotMatch(
      text,
      /tree-sitter-wasms\/out\//,
      `${entry.name} should embed grammars/wasm/*.wasm.br.b64`,
    );
  }
  if (unused.length > 0) {
    // The package ships 36 grammars: none of them needs to be in the executable.
    assert.ok(names.includes("tree-sitter-python.wasm"));
    assert.ok(names.includes("tree-sitter-kotlin.wasm"));
    assert.ok(names.every((name) => /^tree-sitter-\w+\.wasm$/.test(name)));
  }
});

Deno.test("the compile task reports usage errors and a bad DENORT_BIN clearly, and --dry-run prints the command", async () => {
  const bad = await runTool([], { DENORT_BIN: "/no/such/denort" });
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /compile: DENORT_BIN names a missing file: "\/no\/such\/denort"/);

  const usage = await runTool(["--bogus"]);
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /Unknown option '--bogus'/);

  const dry = await runTool(["--dry-run", "--denort", Deno.execPath(), "--output", "/tmp/x/graphplan"]);
  assert.equal(dry.code, 0, dry.stderr);
  assert.match(dry.stdout, /^DENORT_BIN=\S+ deno compile --allow-all --unstable-raw-imports /);
  assert.match(dry.stdout, / --output \/tmp\/x\/graphplan /);
  assert.match(dry.stdout, /main\.ts\n$/);
});

Deno.test("deno accepts every flag of the compile command (deno's own binary standing in for denort)", async () => {
  const dir = await Deno.makeTempDir({ prefix: "graphplan-compile-" });
  try {
    const out = `${dir}/bin/graphplan`;
    const run = await runTool(["--denort", Deno.execPath(), "--no-check", "--output", out]);
    assert.equal(run.code, 0, run.stderr);
    const info = await Deno.stat(out);
    assert.ok(info.isFile && info.size > 10_000_000, `${info.size} bytes`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
