/**
 * Access to `../shared/corpus/model-patches-heldin.jsonl.gz`: 153 patches
 * real systems wrote for SWE-bench Lite (SWE-agent with GPT-4, CodeR), with
 * the before and after text of every file they name (README there). Tests
 * that need it skip, saying why, when it is absent and in the quick tier.
 *
 * `heldOut` splits it for measuring on data nothing was tuned on: a third
 * of the patches, chosen by a hash of `whole-diffs:<instance_id>:<system>`
 * (SHA-256, first byte modulo 3 equal to 0), fixed whatever the file's order.
 *
 * @module
 */

import { sha256Hex } from "../../engine/base/node_builtins.ts";
import { quickSkip } from "./quick.ts";
import { skipReason } from "./skips.ts";

/** One file a model patch names: `before` null when the patch creates it, `after` null when it deletes it. */
export interface ModelPatchFile {
  path: string;
  before: string | null;
  after: string | null;
}

/** One model patch of the corpus. */
export interface ModelPatch {
  instance_id: string;
  repo: string;
  system: string;
  patch: string;
  git_apply_ok: boolean;
  files: ModelPatchFile[];
}

/** Where the model patches live (override with GRAPHPLAN_MODEL_PATCHES). */
export const MODEL_PATCHES_PATH = Deno.env.get("GRAPHPLAN_MODEL_PATCHES") ??
  new URL("../../../shared/corpus/model-patches-heldin.jsonl.gz", import.meta.url).pathname;

function available(): boolean {
  try {
    return Deno.statSync(MODEL_PATCHES_PATH).isFile;
  } catch {
    return false;
  }
}

/** Reason to skip a model-patch test, or undefined when the file is there. */
export const MODEL_PATCHES_SKIP = skipReason(
  quickSkip("corpus sweeps") ??
    (available() ? undefined : `model patches not found (looked for ${MODEL_PATCHES_PATH})`),
);

let cached: ModelPatch[] | undefined;

/** Every model patch (read once per process). */
export async function loadModelPatches(): Promise<ModelPatch[]> {
  if (cached) return cached;
  const file = await Deno.open(MODEL_PATCHES_PATH);
  const text = await new Response(file.readable.pipeThrough(new DecompressionStream("gzip"))).text();
  cached = text.split("\n").filter((line) => line.trim() !== "").map((line) => JSON.parse(line));
  return cached!;
}

/** Whether `patch` belongs to the held-out third (see the module notes). */
export function heldOut(patch: Pick<ModelPatch, "instance_id" | "system">): boolean {
  const digest = sha256Hex(new TextEncoder().encode(`whole-diffs:${patch.instance_id}:${patch.system}`));
  return parseInt(digest.slice(0, 2), 16) % 3 === 0;
}

/**
 * Write the files a patch applies to (every `before` that is not null) into
 * a fresh temporary repository and return its path (the caller removes it).
 */
export async function materializeModelPatch(patch: Pick<ModelPatch, "files">): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "graphplan-model-patch-" });
  for (const file of patch.files) {
    if (file.before === null) continue;
    const target = `${dir}/${file.path}`;
    await Deno.mkdir(target.slice(0, target.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(target, file.before);
  }
  return dir;
}
