/**
 * Instance ids from a dataset never lead a write or a removal outside
 * `-o`: hostile ids (`..`, `.`, empty, `../../x`, `a/b`, 300 characters,
 * NUL, a leading `-`) are refused when the dataset is read, through the
 * real CLI, and the whole parent of `-o` (earlier results, the batch lock,
 * a sibling's files) is byte for byte what it was.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { graphplan } from "../e2e/_support.ts";
import { fakeDocker, SCRIPTED, scriptedBatch } from "./_batch_support.ts";
import { tree } from "./_tree.ts";
import { slow } from "../_support/quick.ts";

const SLOW = slow("tests that start processes (the CLI, a helper, pytest, podman, the bundle)");

const HOSTILE: [string, RegExp][] = [
  ["..", /"\.\.": it names a directory/],
  [".", /"\.": it names a directory/],
  ["", /"": it is empty/],
  ["../../x", /"\.\.\/\.\.\/x": it starts with "\."/],
  ["a/b", /"a\/b": it holds "\/" or "\\"/],
  ["x".repeat(300), /"x{60}\.\.\.": it is 300 bytes long/],
  ["a\u0000b", /"a\\u0000b": it holds a control character/],
  ["-rf", /"-rf": it starts with "-"/],
];

/** A parent directory holding `-o` with earlier results in it, and a sibling directory. */
async function parentWithOutput(): Promise<{ root: string; parent: string; out: string }> {
  const root = await Deno.makeTempDir({ prefix: "gp_batch_ids_" });
  const parent = join(root, "runs");
  const out = join(parent, "lite");
  await Deno.mkdir(join(out, "a__b-1"), { recursive: true });
  await Deno.writeTextFile(
    join(out, "preds.json"),
    JSON.stringify({ "a__b-1": { instance_id: "a__b-1", model_name_or_path: "m", model_patch: "diff" } }),
  );
  await Deno.writeTextFile(join(out, "a__b-1", "a__b-1.traj.json"), '{"info": {}}\n');
  await Deno.mkdir(join(parent, "other"));
  await Deno.writeTextFile(join(parent, "other", "keep.txt"), "the user's file\n");
  await Deno.writeTextFile(join(parent, "notes.md"), "# notes\n");
  return { root, parent, out };
}

Deno.test(
  "batch: hostile instance ids are refused when the dataset is read; nothing outside or inside -o changes",
  SLOW,
  async () => {
    const { root, parent, out } = await parentWithOutput();
    try {
      // A container CLI that would start anything: the refusal must come before it is asked.
      const docker = await fakeDocker(root, "echo started >> '" + join(root, "docker.log") + "'\nexit 0");
      const before = tree(root);
      for (const [index, [id, problem]] of HOSTILE.entries()) {
        for (const form of ["jsonl", "json"]) {
          const dataset = join(root, `hostile-${index}.${form}`);
          const rows = [{ instance_id: "a__b-2", problem_statement: "Fix it" }, {
            instance_id: id,
            problem_statement: "Fix it",
          }];
          await Deno.writeTextFile(
            dataset,
            form === "json" ? JSON.stringify(rows) : rows.map((row) => JSON.stringify(row)).join("\n") + "\n",
          );
          const result = await graphplan(scriptedBatch(dataset, docker, out));
          const label = `${form} id ${JSON.stringify(id.slice(0, 20))}`;
          assert.equal(result.code, 2, `${label}: ${result.stderr}`);
          const where = form === "json" ? "Row 2" : "Line 2";
          assert.match(
            result.stderr,
            new RegExp(`${where} of ".*hostile-${index}\\.${form}" has an unusable`),
            label,
          );
          assert.match(result.stderr, problem, label);
          assert.match(result.stderr, /an instance id must be one file name: 1 to 200 bytes/, label);
          assert.doesNotMatch(result.stderr, /^\s+at /m, `${label}: no stack`);
          await Deno.remove(dataset);
          assert.deepEqual(tree(root), before, `${label}: the parent of -o is unchanged`);
        }
      }
      void parent;
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
);

Deno.test(
  "run: an --instance whose dataset row has a hostile id is refused before anything is written",
  SLOW,
  async () => {
    const root = await Deno.makeTempDir({ prefix: "gp_run_ids_" });
    try {
      const dataset = join(root, "d.jsonl");
      await Deno.writeTextFile(
        dataset,
        JSON.stringify({ instance_id: "..", problem_statement: "Fix it" }) + "\n",
      );
      const out = join(root, "out");
      const before = tree(root);
      const result = await graphplan([
        "run",
        "--instance",
        "..",
        "--dataset",
        dataset,
        ...SCRIPTED,
        "-o",
        out,
      ]);
      assert.equal(result.code, 2, result.stderr);
      assert.match(
        result.stderr,
        /Line 1 of ".*d\.jsonl" has an unusable "instance_id" "\.\.": it names a directory/,
      );
      assert.deepEqual(tree(root), before);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
);

Deno.test("run: a hostile --id is a usage error before the repository or -o is touched", SLOW, async () => {
  const root = await Deno.makeTempDir({ prefix: "gp_run_id_opt_" });
  try {
    const repo = join(root, "repo");
    await Deno.mkdir(repo);
    await Deno.writeTextFile(join(repo, "app.py"), "def f():\n    return 1\n");
    const out = join(root, "out");
    const before = tree(root);
    // argv cannot carry a NUL byte, so that id only comes from datasets
    for (const [id, reason] of HOSTILE.filter(([id]) => !id.includes("\u0000"))) {
      const result = await graphplan([
        "run",
        "--repo",
        repo,
        "--task",
        "Fix f",
        `--id=${id}`, // "=": a leading "-" must reach the check, not the option parser
        ...SCRIPTED,
        "-o",
        out,
      ]);
      assert.equal(result.code, 2, `${JSON.stringify(id)}: ${result.stderr}`);
      assert.match(result.stderr, reason, JSON.stringify(id));
      assert.match(result.stderr, /Invalid --id/, JSON.stringify(id));
      assert.deepEqual(tree(root), before, JSON.stringify(id));
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
