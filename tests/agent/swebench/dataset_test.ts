import assert from "node:assert/strict";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import {
  datasetCacheDir,
  DatasetError,
  huggingFaceFiles,
  loadInstances,
  readInstanceFile,
} from "../../../agent/swebench/mod.ts";
import { parquetBytes, sweRows } from "./_rows.ts";

async function scratch(): Promise<string> {
  return await Deno.makeTempDir({ prefix: "gp_dataset_" });
}

Deno.test("dataset: a parquet file made here reads back row for row (hyparquet)", async () => {
  const dir = await scratch();
  try {
    const rows = sweRows(25);
    const path = join(dir, "lite.parquet");
    await Deno.writeFile(path, parquetBytes(rows));
    const read = await loadInstances(path);
    assert.deepEqual(read, rows);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("dataset: .json list, .jsonl and .jsonl.gz give the same rows", async () => {
  const dir = await scratch();
  try {
    const rows = sweRows(6);
    const jsonl = rows.map((row) => JSON.stringify(row)).join("\n") + "\n";
    await Deno.writeTextFile(join(dir, "a.json"), JSON.stringify(rows));
    await Deno.writeTextFile(join(dir, "a.jsonl"), jsonl);
    await Deno.writeFile(join(dir, "a.jsonl.gz"), gzipSync(new TextEncoder().encode(jsonl)));
    for (const name of ["a.json", "a.jsonl", "a.jsonl.gz"]) {
      assert.deepEqual(await readInstanceFile(join(dir, name)), rows, name);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("dataset: bad files are errors that name the file and the row", async () => {
  const dir = await scratch();
  try {
    await Deno.writeTextFile(join(dir, "obj.json"), '{"instance_id": "x"}');
    await assert.rejects(readInstanceFile(join(dir, "obj.json")), /"[^"]*obj\.json" is not a JSON list/);
    await Deno.writeTextFile(join(dir, "noid.json"), '[{"instance_id": "a"}, {"id": 2}]');
    await assert.rejects(
      readInstanceFile(join(dir, "noid.json")),
      /Row 2 of "[^"]*noid\.json" has no "instance_id"/,
    );
    await Deno.writeTextFile(join(dir, "junk.parquet"), "PAR1 not really");
    await assert.rejects(readInstanceFile(join(dir, "junk.parquet")), DatasetError);
    await assert.rejects(
      loadInstances("no such thing"),
      /neither a file nor a Hugging Face name: give a path/,
    );
    await assert.rejects(loadInstances("Verfied"), /did you mean "verified"\?/);
    // A missing file under a folder looks like "owner/name": it is a mistyped path, never downloaded.
    for (const path of ["data/ds.jsonl", "data/ds.json", "data/ds.jsonl.gz", "data/lite.parquet"]) {
      let asked = false;
      await assert.rejects(
        loadInstances(path, {
          cacheDir: dir,
          fetch: (() => (asked = true, Promise.reject(new Error("no network")))) as typeof fetch,
        }),
        new RegExp(`No dataset file "${path.replace(/\./g, "\\.")}": no such file`),
      );
      assert.equal(asked, false, path);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("dataset: a Hugging Face name is downloaded once as parquet, then read from the cache", async () => {
  const dir = await scratch();
  const first = sweRows(4);
  const second = sweRows(9).slice(4);
  const files: Record<string, Uint8Array> = {
    "/f0.parquet": parquetBytes(first),
    "/f1.parquet": parquetBytes(second),
  };
  const seen: string[] = [];
  const server: Deno.HttpServer = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (request) => {
      const path = new URL(request.url).pathname;
      seen.push(`${path} ${request.headers.get("authorization") ?? "-"}`);
      if (path === "/api/datasets/princeton-nlp/SWE-bench_Lite/parquet/default/test") {
        const base = `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}`;
        return Response.json([`${base}/f0.parquet`, `${base}/f1.parquet`]);
      }
      const body = files[path];
      return body ? new Response(body as BodyInit) : new Response("missing", { status: 404 });
    },
  );
  const endpoint = `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}`;
  Deno.env.set("HF_TOKEN", "hf_test");
  try {
    const lines: string[] = [];
    const rows = await loadInstances("lite", { cacheDir: dir, endpoint, log: (line) => lines.push(line) });
    assert.deepEqual(rows, [...first, ...second]);
    assert.deepEqual(seen, [
      "/api/datasets/princeton-nlp/SWE-bench_Lite/parquet/default/test Bearer hf_test",
      "/f0.parquet Bearer hf_test",
      "/f1.parquet Bearer hf_test",
    ]);
    assert.equal(lines.length, 2);
    const cached = datasetCacheDir("princeton-nlp/SWE-bench_Lite", "test", dir);
    assert.deepEqual([...Deno.readDirSync(cached)].map((e) => e.name).sort(), [
      "0000.parquet",
      "0001.parquet",
      "files.json",
    ]);
    // Second load: no network at all.
    const offline = (() => Promise.reject(new TypeError("network is off"))) as typeof fetch;
    assert.deepEqual(
      await loadInstances("princeton-nlp/SWE-bench_Lite", { cacheDir: dir, fetch: offline }),
      rows,
    );
    // A file lost from the cache means a new download; without network that is an error saying what to do.
    await Deno.remove(join(cached, "0001.parquet"));
    await assert.rejects(
      huggingFaceFiles("princeton-nlp/SWE-bench_Lite", { cacheDir: dir, fetch: offline }),
      /Cannot download dataset "princeton-nlp\/SWE-bench_Lite".*network is off.*local \.parquet/,
    );
    // An unknown split is the server's 404, reported as such.
    await assert.rejects(
      loadInstances("lite", { cacheDir: dir, endpoint, split: "nope" }),
      /HTTP 404/,
    );
  } finally {
    Deno.env.delete("HF_TOKEN");
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
