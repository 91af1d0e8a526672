/**
 * Lift on real gold patches (`../shared/corpus`): a sample across all five
 * repositories, with multi-hunk and multi-file patches, a CRLF copy of an
 * instance, and the same changes written as SEARCH/REPLACE blocks. Each
 * lifted plan must replay byte-exact in memory, and executing it with the
 * real executor on a fresh copy must give the instance's `after` files,
 * which CPython parses; lift writes nothing to the repository.
 */

import assert from "node:assert/strict";
import { CORPUS_SKIP, type CorpusInstance, loadCorpus, materialize } from "../../_support/corpus.ts";
import { assertPythonParses, PYTHON_SKIP } from "../../_support/python.ts";
import { executeOnCopy, gitDiff, liftIn } from "./_support.ts";

const SKIP = CORPUS_SKIP ?? PYTHON_SKIP;

/** A deterministic sample: per repository, evenly spaced instances, plus every multi-file one up to 3. */
function sample(corpus: CorpusInstance[]): CorpusInstance[] {
  const quota: Record<string, number> = {
    "pallets/flask": 3,
    "mwaskom/seaborn": 3,
    "psf/requests": 6,
    "pytest-dev/pytest": 8,
    "sympy/sympy": 10,
  };
  const picked = new Map<string, CorpusInstance>();
  for (const [repo, count] of Object.entries(quota)) {
    const of = corpus.filter((i) => i.repo === repo).sort((a, b) =>
      a.instance_id.localeCompare(b.instance_id)
    );
    for (let k = 0; k < count; k++) {
      const instance = of[Math.floor((k * of.length) / count)];
      picked.set(instance.instance_id, instance);
    }
  }
  for (const instance of corpus.filter((i) => i.files.length > 1).slice(0, 3)) {
    picked.set(instance.instance_id, instance);
  }
  return [...picked.values()];
}

const hunks = (patch: string) => (patch.match(/^@@/gm) ?? []).length;

async function checkInstance(instance: CorpusInstance): Promise<void> {
  const dir = await materialize(instance);
  try {
    const result = await liftIn(dir, { diff: instance.patch });
    assert.deepEqual(result.errors, [], instance.instance_id);
    assert.equal(result.exact, true, instance.instance_id);
    assert.equal(result.hunks.length, hunks(instance.patch));
    assert.ok(result.hunks.every((hunk) => hunk.lifted), instance.instance_id);
    // No step addresses a node by offsets or lines.
    assert.doesNotMatch(JSON.stringify(result.plan), /"(start_byte|end_byte|anchor_line|start_line)"/);
    const before = Object.fromEntries(instance.files.map((file) => [file.path, file.before]));
    const executed = await executeOnCopy(before, result.plan);
    for (const file of instance.files) {
      assert.equal(executed[file.path], file.after, `${instance.instance_id}: ${file.path}`);
      await assertPythonParses(executed[file.path], `${instance.instance_id} ${file.path}`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test({
  name: "lift: a sample of 30+ gold patches across all repositories replays and executes byte-exact",
  ignore: SKIP !== undefined,
  async fn(t) {
    const chosen = sample(await loadCorpus());
    assert.ok(chosen.length >= 30, `sample of ${chosen.length}`);
    assert.equal(new Set(chosen.map((i) => i.repo)).size, 5);
    assert.ok(chosen.filter((i) => hunks(i.patch) > 1).length >= 5, "multi-hunk instances");
    assert.ok(chosen.filter((i) => i.files.length > 1).length >= 2, "multi-file instances");
    for (const instance of chosen) {
      await t.step(instance.instance_id, () => checkInstance(instance));
    }
  },
});

Deno.test({
  name: "lift: a CRLF copy of a corpus instance lifts byte-exact, with a CRLF diff and with an LF diff",
  ignore: SKIP !== undefined,
  async fn() {
    const corpus = await loadCorpus();
    const instance = corpus.find((i) => i.instance_id === "psf__requests-2931")!;
    const file = instance.files[0];
    const crlf = (text: string) => text.replace(/\n/g, "\r\n");
    const { dir, diff } = gitDiff({ [file.path]: crlf(file.before) }, { [file.path]: crlf(file.after) });
    assert.match(diff, /\r\n/, "git's diff of a CRLF file carries the line endings");
    for (const input of [diff, instance.patch]) {
      const result = await liftIn(dir, { diff: input });
      assert.deepEqual(result.errors, []);
      assert.equal(result.exact, true);
      const executed = await executeOnCopy({ [file.path]: crlf(file.before) }, result.plan);
      assert.equal(executed[file.path], crlf(file.after));
    }
  },
});

/** A patch's hunks as SEARCH/REPLACE blocks (old lines → new lines, context included). */
function toBlocks(instance: CorpusInstance): string {
  const out: string[] = [];
  let file = "";
  let search: string[] = [];
  let replace: string[] = [];
  const flush = () => {
    if (search.length || replace.length) {
      out.push(
        file,
        "```python",
        "<<<<<<< SEARCH",
        ...search,
        "=======",
        ...replace,
        ">>>>>>> REPLACE",
        "```",
        "",
      );
    }
    search = [];
    replace = [];
  };
  for (const line of instance.patch.split("\n")) {
    if (line.startsWith("+++ ")) file = line.slice(6);
    else if (line.startsWith("@@")) flush();
    else if (line.startsWith("diff ") || line.startsWith("--- ")) flush();
    else if (line.startsWith(" ")) {
      search.push(line.slice(1));
      replace.push(line.slice(1));
    } else if (line.startsWith("-")) search.push(line.slice(1));
    else if (line.startsWith("+")) replace.push(line.slice(1));
  }
  flush();
  return out.join("\n");
}

Deno.test({
  name: "lift: gold patches written as SEARCH/REPLACE blocks lift to the same files",
  ignore: SKIP !== undefined,
  async fn() {
    const corpus = await loadCorpus();
    for (const id of ["pallets__flask-4992", "psf__requests-2317", "pytest-dev__pytest-5227"]) {
      const instance = corpus.find((i) => i.instance_id === id)!;
      const dir = await materialize(instance);
      try {
        const result = await liftIn(dir, { search_replace: toBlocks(instance) });
        assert.deepEqual(result.errors, [], id);
        assert.equal(result.exact, true, id);
        const before = Object.fromEntries(instance.files.map((file) => [file.path, file.before]));
        const executed = await executeOnCopy(before, result.plan);
        for (const file of instance.files) assert.equal(executed[file.path], file.after, id);
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    }
  },
});

Deno.test({
  name: "lift: the re-laid import (sympy-13877) and the commented new overload (sympy-20438) need no tier 0",
  ignore: SKIP !== undefined,
  async fn(t) {
    const corpus = await loadCorpus();
    const expected: Record<string, string> = {
      "sympy__sympy-13877": "parenthesize_import",
      // the new overload: a fragment, its body, and `set_line_comment` for the def line's `# noqa` (one space
      // before it: `spaces` is a count, which the plan schema refused before; then `copy_node` was the way)
      "sympy__sympy-20438": "set_line_comment",
    };
    for (const [id, kind] of Object.entries(expected)) {
      const instance = corpus.find((i) => i.instance_id === id)!;
      await t.step(id, async () => {
        await checkInstance(instance);
        const dir = await materialize(instance);
        try {
          const result = await liftIn(dir, { diff: instance.patch });
          const tiers = result.hunks.flatMap((hunk) => hunk.tiers);
          assert.ok(tiers.every((tier) => tier > 0), `${id}: tiers ${tiers.join(", ")}`);
          assert.ok(result.hunks.some((hunk) => hunk.kinds.includes(kind)), `${id}: ${kind}`);
        } finally {
          await Deno.remove(dir, { recursive: true });
        }
      });
    }
  },
});
