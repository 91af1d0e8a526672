/**
 * The warm Deno cache for the helper bundle (agent/common/deno_seed.ts):
 * made once at a path that is the same on the host and in a container, and
 * found by Deno when it is copied to another `DENO_DIR`. Deno's own debug
 * log is the oracle: it says whether the bundle's V8 code cache was a hit,
 * so nothing here depends on how fast Deno starts.
 */

import assert from "node:assert/strict";
import { CODE_CACHE_HIT, denoSeed, ensureBundle } from "../../../agent/common/mod.ts";
import { slow } from "../../_support/quick.ts";

const SLOW = slow("tests that start processes (the CLI, a helper, pytest, podman, the bundle)");

/** `helper version` of `bundle` with `denoDir`: its answer and whether its code cache was a hit. */
async function start(bundle: string, denoDir: string): Promise<{ version: string; hit: boolean }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--log-level=debug", "-A", "--no-config", bundle, "helper", "version"],
    env: { DENO_DIR: denoDir, DENO_NO_UPDATE_CHECK: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const answer = JSON.parse(new TextDecoder().decode(out.stdout)) as { result: { version: string } };
  const log = new TextDecoder().decode(out.stderr);
  return { version: answer.result.version, hit: log.includes(`${CODE_CACHE_HIT}file://${bundle}`) };
}

Deno.test(
  "deno seed: a copy of the warm cache gives the bundle's code cache; an empty one does not",
  SLOW,
  async () => {
    const bundle = await ensureBundle();
    const seed = await denoSeed(Deno.execPath(), bundle, { NO_COLOR: "1" });
    assert.ok(seed, "the seed was made");
    assert.match(seed.bundle, /^\/tmp\/graphplan-helper-[0-9a-f]{16}-[^/]+\/graphplan\.js$/);
    assert.deepEqual(await Deno.readFile(seed.bundle), await Deno.readFile(bundle), "the bundle's copy");
    assert.equal(await denoSeed(Deno.execPath(), bundle), seed, "made once per process");
    const scratch = await Deno.makeTempDir({ prefix: "gp_seed_" });
    try {
      const copied = `${scratch}/copied`;
      const cp = await new Deno.Command("cp", { args: ["-R", seed.denoDir, copied] }).output();
      assert.equal(cp.code, 0);
      const warm = await start(seed.bundle, copied);
      assert.equal(warm.version, "0.1.0");
      assert.equal(warm.hit, true, "the copied seed holds the bundle's code cache");
      const cold = await start(seed.bundle, `${scratch}/empty`);
      assert.equal(cold.hit, false, "an empty cache has none (the oracle can fail)");
    } finally {
      await Deno.remove(scratch, { recursive: true });
    }
  },
);

Deno.test(
  "deno seed: while another process makes it there is none, and the next call finds it made",
  SLOW,
  async () => {
    const scratch = await Deno.makeTempDir({ prefix: "gp_seed_busy_" });
    // A bundle of its own (its text differs, so its seed directory does too).
    const bundle = `${scratch}/graphplan.js`;
    await Deno.writeTextFile(bundle, `${await Deno.readTextFile(await ensureBundle())}\n// ${scratch}\n`);
    const first = await denoSeed(Deno.execPath(), bundle);
    assert.ok(first, "the seed was made");
    const root = first.denoDir.replace(/\/deno_dir$/, "");
    try {
      // A process that finds the directory taken (another is making the seed) gets none, and its next call,
      // after the other finished or gave up, makes or finds it: the null is not kept.
      await Deno.remove(root, { recursive: true });
      const again = await new Deno.Command(Deno.execPath(), {
        args: [
          "eval",
          `const m = await import(${
            JSON.stringify(new URL("../../../agent/common/deno_seed.ts", import.meta.url).href)
          });
        await Deno.mkdir(${JSON.stringify(root)});
        const busy = await m.denoSeed(Deno.execPath(), ${JSON.stringify(bundle)});
        await Deno.remove(${JSON.stringify(root)});
        const made = await m.denoSeed(Deno.execPath(), ${JSON.stringify(bundle)});
        console.log(JSON.stringify([busy, made]))`,
        ],
        stdout: "piped",
      }).output();
      const [busy, made] = JSON.parse(new TextDecoder().decode(again.stdout)) as [
        unknown,
        { denoDir: string },
      ];
      assert.equal(busy, null, "none while the directory is another's");
      assert.equal(made?.denoDir, first.denoDir, "made by the next call of the same process");
    } finally {
      await Deno.remove(root, { recursive: true }).catch(() => {});
      await Deno.remove(scratch, { recursive: true });
    }
  },
);
