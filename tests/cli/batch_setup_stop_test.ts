/**
 * A batch whose containers cannot start (a wrong `--image`) stops starting
 * instances after `--max-setup-failures` (default 3) in a row end in the
 * same setup error, says why and exits 1; running the command again runs
 * the instances it did not start. A fake container CLI fails every `run`
 * the way a missing image does, with the instance's image and container
 * name in its message.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { parse } from "yaml";
import { setupErrorKey } from "../../agent/swebench/mod.ts";
import { graphplan } from "../e2e/_support.ts";
import { fakeDocker, scriptedBatch } from "./_batch_support.ts";
import { slow } from "../_support/quick.ts";

const SLOW = slow("tests that start processes (the CLI, a helper, pytest, podman, the bundle)");

const IDS = ["a__b-1", "a__b-2", "a__b-3", "a__b-4", "a__b-5"];

async function setup() {
  const dir = await Deno.makeTempDir({ prefix: "gp_batch_setup_" });
  const dataset = join(dir, "d.jsonl");
  await Deno.writeTextFile(
    dataset,
    IDS.map((id) => JSON.stringify({ instance_id: id, problem_statement: "Fix it" })).join("\n") + "\n",
  );
  // `run` fails naming its whole argv (container name, labels, image); the sweep's `ps`/`rm` find nothing.
  const docker = await fakeDocker(
    dir,
    `if [ "$1" = run ]; then echo "Error: image not known: $*" >&2; exit 125; fi\nexit 0`,
  );
  const args = (out: string, extra: string[] = []) =>
    scriptedBatch(dataset, docker, out, [
      "--image",
      "docker.io/library/graphplan-no-such-image:latest",
      ...extra,
    ]);
  return { dir, args, cleanup: () => Deno.remove(dir, { recursive: true }) };
}

Deno.test(
  "batch: three instances in a row that cannot start their container stop the batch; a rerun runs the rest",
  SLOW,
  async () => {
    const { dir, args, cleanup } = await setup();
    try {
      const out = join(dir, "out");
      const first = await graphplan(args(out));
      assert.equal(first.code, 1, first.stderr);
      const ended = first.stderr.match(/^batch: a__b-\d: EnvironmentError/gm) ?? [];
      assert.equal(ended.length, 3, first.stderr);
      assert.doesNotMatch(first.stderr, /^batch: a__b-4: started/m);
      assert.match(
        first.stderr,
        /^batch: 3 instances in a row could not start their container: Cannot start a container from image "docker\.io\/library\/graphplan-no-such-image:latest" with .*: Error: image not known: run -d .*; check --image\/--env, then run the same command again \(2 instance\(s\) not started\)$/m,
      );
      assert.match(
        first.stderr,
        /^batch: 5 instance\(s\) have no prediction yet: run the same command again/m,
      );
      const statuses = parse(await Deno.readTextFile(join(out, "exit_statuses.yaml"))) as Record<
        string,
        string[]
      >;
      assert.deepEqual(statuses, { EnvironmentError: IDS.slice(0, 3) });

      // Run again (0 = never stop): nothing is in the predictions, so all five start.
      const again = await graphplan(args(out, ["--max-setup-failures", "0"]));
      assert.equal(again.code, 1, again.stderr);
      assert.match(again.stderr, /^batch: 5 selected, 0 already in preds, 5 to run with 1 worker$/m);
      assert.equal(again.stderr.match(/^batch: a__b-\d: EnvironmentError/gm)?.length, 5, again.stderr);
      assert.doesNotMatch(again.stderr, /in a row could not start/);
    } finally {
      await cleanup();
    }
  },
);

Deno.test("batch: --max-setup-failures must be a whole number; 2 stops after two", SLOW, async () => {
  const { dir, args, cleanup } = await setup();
  try {
    const bad = await graphplan(args(join(dir, "bad"), ["--max-setup-failures=-1"]));
    assert.equal(bad.code, 2, bad.stderr);
    assert.match(bad.stderr, /--max-setup-failures must be a whole number, 0 for never: got "-1"/);
    const two = await graphplan(args(join(dir, "two"), ["--max-setup-failures", "2"]));
    assert.equal(two.code, 1, two.stderr);
    assert.equal(two.stderr.match(/^batch: a__b-\d: EnvironmentError/gm)?.length, 2, two.stderr);
    assert.match(two.stderr, /^batch: 2 instances in a row could not start their container: /m);
  } finally {
    await cleanup();
  }
});

Deno.test("batch: setupErrorKey leaves out the instance's image, id and container name, nothing else", () => {
  const key = (id: string, image: string, error: string) => setupErrorKey(error, { id, image });
  assert.equal(
    key(
      "x__y-1",
      "img/x__y-1:v",
      'Cannot start a container from image "img/x__y-1:v": graphplan-k-x__y-1-abc123 no',
    ),
    key(
      "x__y-2",
      "img/x__y-2:v",
      'Cannot start a container from image "img/x__y-2:v": graphplan-k-x__y-2-def456 no',
    ),
  );
  assert.notEqual(
    key("a", "img", "Cannot start a container: permission denied"),
    key("b", "img", "Cannot start a container: no space left on device"),
  );
  assert.equal(key("a", "img", "first line\nsecond line"), "first line");
});
