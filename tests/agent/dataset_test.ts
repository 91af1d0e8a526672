import assert from "node:assert/strict";
import { join } from "node:path";
import { DatasetError, dockerInstanceId, findInstance, readDataset } from "../../agent/dataset.ts";
import { loadConfig } from "../../agent/config.ts";
import { instanceImage } from "../../agent/run.ts";

import { CORPUS_PATH as CORPUS, CORPUS_SKIP } from "../_support/corpus.ts";

Deno.test("dataset: plain and gzipped JSONL rows; an unknown id lists some known ones", async () => {
  const dir = await Deno.makeTempDir({ prefix: "gp_dataset_" });
  try {
    const rows = [
      { instance_id: "a__b-1", problem_statement: "First", repo: "a/b", base_commit: "1" },
      { instance_id: "c__d-2", problem_statement: "Second", repo: "c/d", base_commit: "2" },
    ];
    const text = rows.map((row) => JSON.stringify(row)).join("\n") + "\n\n";
    await Deno.writeTextFile(join(dir, "plain.jsonl"), text);
    const gz = await new Response(new Blob([text]).stream().pipeThrough(new CompressionStream("gzip")))
      .arrayBuffer();
    await Deno.writeFile(join(dir, "packed.jsonl.gz"), new Uint8Array(gz));
    assert.deepEqual(await readDataset(join(dir, "plain.jsonl")), rows);
    assert.deepEqual(await readDataset(join(dir, "packed.jsonl.gz")), rows);
    assert.equal((await findInstance(join(dir, "packed.jsonl.gz"), "c__d-2")).problem_statement, "Second");
    await assert.rejects(
      findInstance(join(dir, "plain.jsonl"), "x__y-3"),
      (err: Error) =>
        err instanceof DatasetError && err.message.endsWith('(2 rows, e.g. "a__b-1", "c__d-2")'),
    );
    await Deno.writeTextFile(join(dir, "bad.jsonl"), '{"instance_id": "a"}\n{oops\n');
    await assert.rejects(readDataset(join(dir, "bad.jsonl")), /Line 2 of ".*bad\.jsonl" is not JSON/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name: "dataset: the held-in SWE-bench corpus reads, and instance images follow the SWE-bench names",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const rows = await readDataset(CORPUS);
    assert.equal(rows.length, 187);
    const row = await findInstance(CORPUS, rows[0].instance_id);
    assert.ok(row.problem_statement.length > 20);
    assert.equal(typeof row.base_commit, "string");
    const config = await loadConfig();
    assert.equal(dockerInstanceId("astropy__astropy-12907"), "astropy_1776_astropy-12907");
    assert.equal(
      instanceImage(config, "Django__django-11099"),
      "docker.io/swebench/sweb.eval.x86_64.django_1776_django-11099:latest",
    );
  },
});
