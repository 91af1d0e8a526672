/**
 * `graphplan locate` as a subprocess: text and JSON output, inline/@FILE/stdin
 * locators, and the exit codes.
 */

import assert from "node:assert/strict";
import { runCli } from "../_support/cli.ts";
import { slow } from "../_support/quick.ts";

const SLOW = slow("tests that start processes (the CLI, a helper, pytest, podman, the bundle)");

const REPO = new URL("../fixtures/locate/", import.meta.url).pathname;

const locate = (args: string[], stdin?: string) => runCli(["locate", ...args], { stdin });

Deno.test("locate prints each match: line range, kind, first line", SLOW, async () => {
  const locator =
    '{"file": "sample.py", "kind": "function", "name": "add", "parent": {"kind": "class", "name": "Inventory"}}';
  const { code, stdout } = await locate([locator, "--repo", REPO]);
  assert.equal(code, 0);
  assert.equal(
    stdout,
    "sample.py:39-44 method: def add(self, item: Item) -> None:\nsample.py:47-48 method: def add(self):\n",
  );
});

Deno.test("locate --json prints the locate primitive's result", SLOW, async () => {
  const { code, stdout } = await locate([
    '{"file": "sample.go", "kind": "method", "name": "Inventory.Get"}',
    "--repo",
    REPO,
    "--json",
  ]);
  assert.equal(code, 0);
  assert.deepEqual(JSON.parse(stdout), {
    found: true,
    count: 1,
    file: "sample.go",
    nodes: [{
      start_line: 31,
      end_line: 34,
      kind: "method",
      type: "method_declaration",
      text_preview: "func (inv *Inventory) Get(name string) (*Item, bool) {",
    }],
  });
});

Deno.test("locate reads the locator from @FILE and from stdin", SLOW, async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(
      `${dir}/loc.json`,
      '{"type": "sexp", "file": "sample.rb", "query": "(module) @m"}',
    );
    const fromFile = await locate([`@${dir}/loc.json`, "--repo", REPO]);
    assert.equal(fromFile.code, 0);
    assert.equal(fromFile.stdout, "sample.rb:4-42 module: module Shop\n");
    const fromStdin = await locate(
      ["-", "--repo", REPO],
      '{"file": "sample.rs", "kind": "impl", "index": -1}',
    );
    assert.equal(fromStdin.code, 0);
    assert.equal(fromStdin.stdout, "sample.rs:56-60 impl: impl Display for Item {\n");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("locate: nothing found exits 1 with the issue and its candidates", SLOW, async () => {
  const text = await locate(['{"file": "sample.py", "kind": "method", "name": "sise"}', "--repo", REPO]);
  assert.equal(text.code, 1);
  assert.equal(text.stdout, "");
  assert.match(
    text.stderr,
    /error\[locator-not-found\] sample\.py: Cannot resolve locator: no method "sise" in "sample\.py"/,
  );
  assert.match(text.stderr, /- sample\.py:36 method: def size\(self\):/);
  const json = await locate([
    '{"file": "sample.py", "kind": "method", "name": "sise"}',
    "--repo",
    REPO,
    "--json",
  ]);
  assert.equal(json.code, 1);
  const result = JSON.parse(json.stdout);
  assert.equal(result.found, false);
  assert.equal(result.errors[0].code, "locator-not-found");
  assert.equal(result.errors[0].candidates[0].line, 36);
});

Deno.test("locate: an invalid locator exits 1, a missing argument 2", SLOW, async () => {
  const invalid = await locate([
    '{"file": "sample.py", "kind": "function", "nme": "f"}',
    "--repo",
    REPO,
    "--json",
  ]);
  assert.equal(invalid.code, 1);
  const result = JSON.parse(invalid.stdout);
  assert.equal(result.errors[0].code, "locator-invalid");
  assert.deepEqual(result.errors[0].path, ["nme"]);
  const badJson = await locate(["{file:", "--repo", REPO]);
  assert.equal(badJson.code, 1);
  assert.match(badJson.stderr, /json-invalid/);
  const usage = await locate(["--repo", REPO]);
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /missing LOCATOR/);
});
