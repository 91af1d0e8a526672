import assert from "node:assert/strict";
import { join } from "node:path";
import { lazyNodeImports } from "../../tools/bundle.ts";

Deno.test("lazyNodeImports: default and namespace node: imports become stand-ins that behave alike", async () => {
  const source = [
    'import os from "node:os";',
    'import * as pathNs from "node:path";',
    'import { join as joinPath, sep } from "node:path";', // named: left as it is
    'import process2 from "node:process";',
    "export const eol = os.EOL;",
    'export const joined = joinPath("a", "b");',
    'export const viaNs = pathNs.join("c", "d");',
    "export const separator = String(sep);",
    'export const hasEnv = "env" in process2;',
    "export const pid = process2.pid;",
    "",
  ].join("\n");
  const lazy = lazyNodeImports(source);
  assert.deepEqual(lazy.match(/^import .*$/gm), ['import { join as joinPath, sep } from "node:path";']);
  assert.equal(
    lazyNodeImports("const x = 1;\n"),
    "const x = 1;\n",
    "a text without node: imports is unchanged",
  );
  const dir = await Deno.makeTempDir({ prefix: "gp_lazy_node_" });
  try {
    const file = join(dir, "mod.js");
    await Deno.writeTextFile(file, lazy);
    const mod = await import(`file://${file}`);
    assert.deepEqual(
      { ...mod },
      { eol: "\n", joined: "a/b", viaNs: "c/d", separator: "/", hasEnv: true, pid: Deno.pid },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
