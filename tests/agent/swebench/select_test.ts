import assert from "node:assert/strict";
import { parseSlice, selectInstances, SelectionError, shuffled } from "../../../agent/swebench/mod.ts";
import { sweRows } from "./_rows.ts";

const ROWS = sweRows(23);
const ids = (rows: { instance_id: string }[]) => rows.map((row) => row.instance_id);

Deno.test("select: slices follow Python's rules", () => {
  const list = Array.from({ length: 10 }, (_, i) => i);
  for (
    const [text, start, end] of [
      [":3", 0, 3],
      ["7:", 7, 10],
      ["-3:", 7, 10],
      ["2:-2", 2, 8],
      ["5:99", 5, 10],
      [
        ":",
        0,
        10,
      ],
    ] as const
  ) {
    assert.deepEqual(parseSlice(text, 10), [start, end], text);
    assert.deepEqual(list.slice(...parseSlice(text, 10)), list.slice(start, end));
  }
  assert.throws(() => parseSlice("1-3", 10), SelectionError);
});

Deno.test("select: filter, then slice, keep dataset order", () => {
  const picked = selectInstances(ROWS, { filter: "^django__", slice: "1:3" });
  const django = ids(ROWS).filter((id) => id.startsWith("django__"));
  assert.deepEqual(ids(picked), django.slice(1, 3));
  assert.throws(() => selectInstances(ROWS, { filter: "(" }), /Invalid --filter "\("/);
});

Deno.test("select: the shuffle is a seeded permutation, the same on every run", () => {
  const a = selectInstances(ROWS, { shuffle: true, seed: 7 });
  const b = selectInstances(ROWS, { shuffle: true, seed: 7 });
  const c = selectInstances(ROWS, { shuffle: true, seed: 8 });
  assert.deepEqual(ids(a), ids(b));
  assert.notDeepEqual(ids(a), ids(c));
  assert.notDeepEqual(ids(a), ids(ROWS));
  assert.deepEqual([...ids(a)].sort(), [...ids(ROWS)].sort());
  // The default seed is 42.
  assert.deepEqual(ids(selectInstances(ROWS, { shuffle: true })), ids(shuffled(ROWS, 42)));
});

Deno.test("select: shards are disjoint, cover the selection and differ in size by at most one", () => {
  const base = selectInstances(ROWS, { shuffle: true, seed: 3, slice: ":20" });
  for (const n of [1, 2, 3, 7, 25]) {
    const shards = Array.from(
      { length: n },
      (_, k) => ids(selectInstances(ROWS, { shuffle: true, seed: 3, slice: ":20", shard: `${k}/${n}` })),
    );
    assert.deepEqual(shards.flat().sort(), ids(base).sort(), `${n} shards cover`);
    assert.equal(new Set(shards.flat()).size, base.length, `${n} shards are disjoint`);
    const sizes = shards.map((s) => s.length);
    assert.ok(Math.max(...sizes) - Math.min(...sizes) <= 1, `${n} shards: ${sizes}`);
  }
  for (const bad of ["2/2", "1/0", "a/b", "3"]) {
    assert.throws(() => selectInstances(ROWS, { shard: bad }), /Invalid --shard/, bad);
  }
});

Deno.test("select: --instances keeps the listed ids and refuses unknown ones", () => {
  const wanted = [ROWS[5].instance_id, ROWS[1].instance_id];
  assert.deepEqual(ids(selectInstances(ROWS, { instances: wanted })), [
    ROWS[1].instance_id,
    ROWS[5].instance_id,
  ]);
  assert.throws(
    () => selectInstances(ROWS, { instances: [...wanted, "nope__nope-1"] }),
    /1 listed instance is not in the dataset: "nope__nope-1"/,
  );
});
