/**
 * Post-submission patch checks (seed 002, "Phase 5"): the submitted text is
 * a git patch with a `diff --git` header, `---`/`+++` markers and `@@`
 * hunks, it adds something, and `git apply --check` accepts it against the
 * files as the run found them (the baseline tree, `common/baseline.ts`; `HEAD`
 * without one), through a throw-away index, so the working tree that
 * already holds the change is not involved. No test is run.
 *
 * @module
 */

import { join } from "../../engine/base/node_builtins.ts";
import type { Environment } from "../env/mod.ts";
import { shellQuote } from "../env/shell_quote.ts";

/** What the checks found. */
export interface PatchCheck {
  /** No blocking problem. */
  ok: boolean;
  /** Blocking problems, one sentence each. */
  problems: string[];
  /** Observations that do not block (a deletion-only patch). */
  notes: string[];
  /** Files the patch touches (from its `diff --git` headers). */
  files: string[];
}

/** The format checks that need no repository. */
export function checkPatchFormat(patch: string): PatchCheck {
  const problems: string[] = [];
  const notes: string[] = [];
  const lines = patch.split("\n");
  const files = lines
    .map((line) => /^diff --git a\/(.+?) b\/(.+)$/.exec(line))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => match[2]);
  if (patch.trim() === "") {
    return { ok: false, problems: ["the patch is empty: nothing was changed"], notes, files };
  }
  if (files.length === 0) problems.push("no `diff --git a/... b/...` header");
  const binary = lines.some((line) => line.startsWith("Binary files ") || line === "GIT binary patch");
  if (!binary && !lines.some((line) => line.startsWith("--- "))) problems.push("no `--- a/...` marker");
  if (!binary && !lines.some((line) => line.startsWith("+++ "))) problems.push("no `+++ b/...` marker");
  const renameOnly = lines.some((line) => line.startsWith("rename from ") || line.startsWith("new mode "));
  if (!binary && !renameOnly && !lines.some((line) => line.startsWith("@@ "))) problems.push("no `@@` hunk");
  if (!lines.some((line) => line.startsWith("+") && !line.startsWith("+++ "))) {
    notes.push("the patch adds no line (it only deletes)");
  }
  return { ok: problems.length === 0, problems, notes, files };
}

/**
 * All checks, `git apply --check` run in `env` against `options.base` (a
 * tree-ish: the run's baseline tree; default `HEAD`).
 */
export async function checkPatch(
  env: Environment,
  patch: string,
  options: { base?: string } = {},
): Promise<PatchCheck> {
  const base = options.base ?? "HEAD";
  const report = checkPatchFormat(patch);
  if (!report.ok) return report;
  const dir = await Deno.makeTempDir({ prefix: "graphplan_patch_" });
  const name = `/tmp/graphplan_submission_${crypto.randomUUID().slice(0, 8)}`;
  try {
    const local = join(dir, "submission.diff");
    await Deno.writeTextFile(local, patch.endsWith("\n") ? patch : patch + "\n");
    await env.copyIn(local, `${name}.diff`);
    const index = `${name}.index`;
    const result = await env.execute(
      `GIT_INDEX_FILE=${shellQuote(index)} git read-tree ${shellQuote(base)} && ` +
        `GIT_INDEX_FILE=${shellQuote(index)} git apply --check --cached ${shellQuote(`${name}.diff`)}; ` +
        `status=$?; rm -f ${shellQuote(index)} ${shellQuote(`${name}.diff`)}; exit $status`,
      { timeout: 120 },
    );
    if (result.returncode !== 0) {
      report.problems.push(
        `\`git apply --check\` refuses it against ${
          base === "HEAD" ? "HEAD" : "the files as the run found them"
        }: ${result.output.trim().slice(0, 1000)}`,
      );
    }
  } catch (err) {
    report.notes.push(`\`git apply --check\` could not be run: ${(err as Error).message}`);
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
  report.ok = report.problems.length === 0;
  return report;
}
