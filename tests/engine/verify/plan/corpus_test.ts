/**
 * Gold patches as plans (one `replace_code` per hunk, as in
 * `tests/bench/verify_plan.ts`): verification agrees with a dry run of the
 * executor on every plan, and nearly all of them verify (a gold patch is
 * correct code; the few that do not name a real limit, e.g. a hunk whose
 * context occurs twice is `pattern-ambiguous`).
 */

import assert from "node:assert/strict";
import { executePlan, parsePlanSteps } from "../../../../engine/exec/mod.ts";
import { DocumentStore } from "../../../../engine/parse/documents.ts";
import { Workspace } from "../../../../engine/workspace.ts";
import { loadCorpus, materialize } from "../../../_support/corpus.ts";
import { planFromPatch } from "../../../bench/verify_plan.ts";
import { CORPUS_SKIP, hashTree, verifyIn } from "./_support.ts";
// Journals of the real executions below go to a private state directory, never the real home.
import "../../exec/_support.ts";

Deno.test({
  name: "corpus: gold-patch plans of 60 instances verify as a dry run executes them, and most pass",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const instances = (await loadCorpus()).filter((_, i) => i % 3 === 0).slice(0, 60);
    let plans = 0;
    let passed = 0;
    for (const instance of instances) {
      const plan = planFromPatch(instance);
      if (plan.length === 0) continue;
      const dir = await materialize(instance);
      const before = await hashTree(dir);
      const result = await verifyIn(dir, plan);
      const parsed = await parsePlanSteps(plan);
      const dry = await executePlan(new DocumentStore(Workspace.open(dir)), parsed.steps, {
        runStep: parsed.runStep,
        dryRun: true,
      });
      assert.equal(result.passed, dry.success, `${instance.instance_id}: verify and a dry run disagree`);
      if (result.passed) {
        // Verified plans reproduce the gold files.
        const store = new DocumentStore(Workspace.open(dir));
        await executePlan(store, parsed.steps, { runStep: parsed.runStep });
        for (const file of instance.files) {
          if (!plan.some((step) => (step as { params: { file: string } }).params.file === file.path)) {
            continue;
          }
          assert.equal(
            await Deno.readTextFile(`${dir}/${file.path}`),
            file.after,
            `${instance.instance_id}: ${file.path}`,
          );
        }
      } else {
        assert.deepEqual(await hashTree(dir), before);
      }
      plans++;
      if (result.passed) passed++;
      await Deno.remove(dir, { recursive: true });
    }
    console.log(`gold-patch plans: ${passed}/${plans} verified`);
    assert.ok(plans >= 50);
    assert.ok(passed >= plans - 3, `${passed}/${plans} verified`);
  },
});
