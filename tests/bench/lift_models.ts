/**
 * Lift on the patches real systems wrote (`model-patches-heldin.jsonl.gz`:
 * SWE-agent with GPT-4 and CodeR on SWE-bench Lite): every patch `git
 * apply` accepts is lifted against its `before` files, and the plan is
 * replayed in memory and compared with the corpus's `after` files (an
 * oracle independent of lift: what `git apply` wrote), a created file's
 * text and a deleted file's absence included. Reports the share lifted
 * (goal >= 98%), the share replayed byte-exact, tiers, and the time per
 * patch; `part` picks the held-out third, the other two thirds, or all
 * (`tests/_support/model_patches.ts` says which third is held out).
 *
 * @module
 */

import { lift } from "../../engine/lift/mod.ts";
import { replayPlan } from "../../engine/lift/replay.ts";
import { DocumentStore } from "../../engine/parse/documents.ts";
import { Workspace } from "../../engine/workspace.ts";
import {
  heldOut,
  loadModelPatches,
  materializeModelPatch,
  type ModelPatch,
} from "../_support/model_patches.ts";

/** Which model patches to lift. */
export type ModelPart = "all" | "held-out" | "held-in";

/** One model patch's outcome. */
export interface ModelLiftOutcome {
  id: string;
  system: string;
  /** The lift succeeded (every hunk lifted, replay exact by lift's own check). */
  lifted: boolean;
  /** Replaying the plan gives the corpus's `after` files byte for byte (deleted files gone). */
  exact: boolean;
  /** Every step is tier 1-3. */
  formal: boolean;
  /** The patch creates, deletes or renames a file. */
  wholeFile: boolean;
  tiers: number[];
  ms: number;
  /** Error codes and messages of a patch not lifted. */
  errors: string[];
}

/** The model patches `git apply` accepts, of `part`. */
export async function modelPatches(part: ModelPart = "all"): Promise<ModelPatch[]> {
  return (await loadModelPatches()).filter((patch) =>
    patch.git_apply_ok && (part === "all" || heldOut(patch) === (part === "held-out"))
  );
}

/** Lift each of `patches` (at most `limit`). */
export async function benchModelLift(
  patches: readonly ModelPatch[],
  options: { limit?: number } = {},
): Promise<ModelLiftOutcome[]> {
  const outcomes: ModelLiftOutcome[] = [];
  for (const patch of patches.slice(0, options.limit ?? Infinity)) {
    const dir = await materializeModelPatch(patch);
    try {
      const store = new DocumentStore(Workspace.open(dir));
      const started = performance.now();
      const result = await lift(store, { diff: patch.patch });
      const ms = performance.now() - started;
      const replay = await replayPlan(new DocumentStore(Workspace.open(dir)), result.plan);
      const exact = !replay.failed &&
        patch.files.every((file) =>
          file.after === null
            ? replay.removed.has(file.path)
            : (replay.texts.get(file.path) ?? file.before) === file.after
        );
      const tiers = result.hunks.flatMap((hunk) => hunk.tiers);
      outcomes.push({
        id: patch.instance_id,
        system: patch.system,
        lifted: result.success,
        exact,
        formal: exact && tiers.every((tier) => tier > 0),
        wholeFile: patch.files.some((file) => file.before === null || file.after === null),
        tiers,
        ms,
        errors: result.errors.map((issue) => `${issue.code}: ${issue.message}`),
      });
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  }
  return outcomes;
}

if (import.meta.main) {
  const part = (Deno.args.find((arg) => arg.startsWith("--part="))?.slice(7) ?? "held-in") as ModelPart;
  const at = Deno.args.indexOf("--limit");
  const limit = at >= 0 ? Number(Deno.args[at + 1]) : undefined;
  const only = Deno.args.find((arg) => arg.startsWith("--only="))?.slice(7);
  const chosen = (await modelPatches(part)).filter((patch) => !only || patch.instance_id === only);
  const outcomes = await benchModelLift(chosen, { limit });
  for (const o of outcomes) {
    if (!o.lifted || !o.exact) {
      console.log(`${o.id} (${o.system}) lifted=${o.lifted} exact=${o.exact}: ${o.errors.join(" | ")}`);
    }
  }
  const times = outcomes.map((o) => o.ms).sort((a, b) => a - b);
  const slowest = [...outcomes].sort((a, b) => b.ms - a.ms).slice(0, 5);
  console.log(`slowest: ${slowest.map((o) => `${o.id} (${o.system}) ${Math.round(o.ms)} ms`).join(", ")}`);
  console.log(
    `${part}: ${outcomes.length} patches, lifted ${outcomes.filter((o) => o.lifted).length}, exact ${
      outcomes.filter((o) => o.exact).length
    }, tiers 1-3 only ${outcomes.filter((o) => o.formal).length}, median ${
      Math.round(times[Math.floor(times.length / 2)] ?? 0)
    } ms, max ${Math.round(times.at(-1) ?? 0)} ms`,
  );
}
