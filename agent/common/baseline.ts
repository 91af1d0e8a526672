/**
 * The run's baseline and its final patch: what the agent changed, and only
 * that, without touching the user's git index.
 *
 * At the start of a run the working tree is written as a git tree object
 * through a throw-away index (a copy of the repository's own index, so the
 * tracked set and the ignore rules are exactly what `git add -A` would use;
 * `git read-tree HEAD` when there is no index file): `git add -A` into that
 * copy, then `git write-tree`. Only the object store gains blobs and trees;
 * the index, the working tree and HEAD are left as they were. At submit the
 * working tree is written the same way, and the patch is
 * `git diff --binary BASELINE FINAL`.
 *
 * Worked example: the user has an untracked `notes.txt` and an uncommitted
 * edit in `a.py`; the agent edits `b.py` and creates `c.py`. The baseline
 * holds `notes.txt` and the user's `a.py`, the final tree holds both too plus
 * the agent's `b.py` and `c.py`, so the patch has exactly `b.py` and `c.py`.
 * In a clean checkout (a SWE-bench container) the baseline is HEAD's tree and
 * the index equals HEAD, so the patch is byte for byte what
 * `git add -A && git diff --cached --binary` prints (for text files, what
 * `git add -A && git diff --cached` prints).
 *
 * Both strategies and all environments use it: the commands run through the
 * environment's `execute`.
 *
 * @module
 */

import type { Environment } from "../env/mod.ts";
import { shellQuote } from "../env/shell_quote.ts";

/** Output kept from the diff command: a patch must arrive whole. */
const PATCH_LIMIT = 64 * 1024 * 1024;

/**
 * A shell function printing the working tree's git tree id, written
 * through a temporary index (the repository's index is only read).
 */
const WRITE_TREE = `gp_tree() {
  gp_idx=$(mktemp "\${TMPDIR:-/tmp}/graphplan_index.XXXXXX") || return 1
  rm -f "$gp_idx"
  gp_src=$(git rev-parse --git-path index 2>"$gp_idx.err") || { cat "$gp_idx.err"; rm -f "$gp_idx.err"; return 1; }
  if [ -f "$gp_src" ]; then cp "$gp_src" "$gp_idx"
  elif git rev-parse -q --verify HEAD >/dev/null; then GIT_INDEX_FILE="$gp_idx" git read-tree HEAD; fi
  GIT_INDEX_FILE="$gp_idx" git add -A >/dev/null 2>>"$gp_idx.err" &&
    GIT_INDEX_FILE="$gp_idx" git write-tree 2>>"$gp_idx.err"
  gp_status=$?
  [ "$gp_status" -eq 0 ] || cat "$gp_idx.err"
  rm -f "$gp_idx" "$gp_idx.err" "$gp_idx.lock"
  return "$gp_status"
}
`;

/** The working tree could not be written as a git tree, or the diff failed. */
export class BaselineError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BaselineError";
  }
}

/** The id of a git tree holding the working tree as `git add -A` sees it; the index is not changed. */
export async function snapshotTree(env: Environment): Promise<string> {
  const result = await env.execute(`${WRITE_TREE}gp_tree`, { timeout: 300 });
  const tree = result.output.trim();
  if (result.returncode !== 0 || !/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(tree)) {
    throw new BaselineError(`Cannot record the working tree in git: ${firstLines(result.output)}`);
  }
  return tree;
}

/** What {@linkcode workTreeProblem} found: git says the directory is no work tree, or git cannot run. */
export interface WorkTreeProblem {
  kind: "not-a-work-tree" | "git-unavailable";
  message: string;
}

/**
 * Why the environment's working directory cannot give a patch, or
 * undefined when it is inside a git work tree. Checked before a run starts:
 * without a work tree the baseline cannot be written, so every submission
 * would be empty while the agent's edits stay on disk.
 */
export async function workTreeProblem(env: Environment): Promise<WorkTreeProblem | undefined> {
  const result = await env.execute("git rev-parse --is-inside-work-tree 2>&1", { timeout: 60 });
  const output = result.output.trim();
  if (result.returncode === 0 && output === "true") return undefined;
  if (output === "false" || /not a git repository/i.test(output)) {
    return {
      kind: "not-a-work-tree",
      message: `"${env.cwd}" is not a git work tree: the patch is what the run changed in git's view; ` +
        `make it one first: cd "${env.cwd}" && git init && git add -A && git commit -m base`,
    };
  }
  return { kind: "git-unavailable", message: `Cannot run git in "${env.cwd}": ${firstLines(output)}` };
}

/** Options of {@linkcode changesSince}. */
export interface ChangesOptions {
  /** Only these paths (relative to the repository root); all when absent. */
  paths?: readonly string[];
}

/**
 * The patch from `baseline` (a tree id, or any tree-ish such as `HEAD`) to
 * the working tree as it is now, new files included, as
 * `git diff --binary` prints it; the index is not changed.
 */
export async function changesSince(
  env: Environment,
  baseline: string,
  options: ChangesOptions = {},
): Promise<string> {
  const paths = options.paths ? ` -- ${options.paths.map(shellQuote).join(" ")}` : "";
  const result = await env.execute(
    `${WRITE_TREE}gp_final=$(gp_tree) || { printf '%s\\n' "$gp_final"; exit 1; }
gp_err=$(mktemp "\${TMPDIR:-/tmp}/graphplan_diff.XXXXXX") || exit 1
git diff --binary --no-color --no-ext-diff --no-textconv ${
      shellQuote(baseline)
    } "$gp_final"${paths} 2>"$gp_err"
gp_status=$?
[ "$gp_status" -eq 0 ] || cat "$gp_err"
rm -f "$gp_err"
exit "$gp_status"`,
    { timeout: 300, outputLimit: PATCH_LIMIT },
  );
  if (result.returncode !== 0 || result.timedOut) {
    throw new BaselineError(`Cannot compute the patch since "${baseline}": ${firstLines(result.output)}`);
  }
  if (result.truncated) throw new BaselineError(`The patch is longer than ${PATCH_LIMIT} bytes`);
  return result.output;
}

function firstLines(output: string): string {
  const text = output.trim();
  return text === "" ? "git printed nothing" : text.split("\n").slice(0, 5).join("; ").slice(0, 500);
}
