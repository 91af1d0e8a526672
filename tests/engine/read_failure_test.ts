/**
 * `readFailure` on the errors Deno's file reads really throw, and the
 * messages of `graphplan run` built with it: the reason in words, the path
 * quoted once, no "(os error N): readfile '...'".
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { readFailure } from "../../engine/base/read_failure.ts";
import { graphplanRun } from "../e2e/_support.ts";
import { slow } from "../_support/quick.ts";

const SLOW = slow("tests that start processes (the CLI, a helper, pytest, podman, the bundle)");

const thrown = (path: string) => Deno.readTextFile(path).then(() => undefined, (err) => err);

Deno.test("readFailure: a missing file, a directory, and messages that are no OS error", async () => {
  const dir = await Deno.makeTempDir({ prefix: "gp_read_failure_" });
  try {
    assert.equal(readFailure(await thrown(join(dir, "nope.yaml"))), "no such file");
    assert.equal(readFailure(await thrown(dir)), "it is a directory");
    assert.equal(readFailure(new Error("Not a directory (os error 20): readfile '/a/b'")), "not a directory");
    assert.equal(readFailure(new SyntaxError("Unexpected token 'x'")), "Unexpected token 'x'");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test(
  "graphplan run: a config file or dataset that is a directory or missing is named with the reason in words",
  SLOW,
  async () => {
    const dir = await Deno.makeTempDir({ prefix: "gp_read_failure_" });
    try {
      const config = await graphplanRun(["--task", "x", "--repo", dir, "-c", dir]);
      assert.equal(config.code, 2, config.stderr);
      assert.match(config.stderr, new RegExp(`Cannot read "${dir}": it is a directory`));
      const dataset = await graphplanRun([
        "--instance",
        "a__b-1",
        "--dataset",
        join(dir, "d.jsonl"),
        "--repo",
        dir,
      ]);
      assert.equal(dataset.code, 2, dataset.stderr);
      assert.match(dataset.stderr, new RegExp(`Cannot read dataset "${join(dir, "d.jsonl")}": no such file`));
      for (const run of [config, dataset]) assert.doesNotMatch(run.stderr, /os error|readfile/);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);
