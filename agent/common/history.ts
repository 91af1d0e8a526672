/**
 * The repository in a task's container as of its checked-out commit only.
 *
 * A SWE-bench image is made by cloning the project and resetting to
 * `base_commit`: the commits after it (the fix among them) are still in the
 * object store, reachable from the branch's reflog, `ORIG_HEAD`, tags,
 * remote-tracking refs or a stash, and `git log --all` shows them. An agent
 * that looks there reads the answer instead of finding it. So before the
 * model's first command, once per container, this step leaves nothing
 * newer than HEAD reachable:
 *
 * 1. every remote is removed (with its tracking refs): a fetch would bring
 *    the future back;
 * 2. every ref whose commit is not HEAD or an ancestor of it is deleted
 *    (`git for-each-ref --no-merged HEAD`: branches, tags, the stash,
 *    notes, whatever else); older tags stay, as version tools need them;
 * 3. `ORIG_HEAD`, `FETCH_HEAD` and the other pseudo-refs are removed and
 *    every reflog is emptied;
 * 4. the object store is repacked without what is no longer reachable
 *    (`git repack -a -d`, `git prune --expire=now`), so `git fsck
 *    --lost-found` finds no dangling commit either.
 *
 * HEAD, the index and the working tree are not touched: the baseline and
 * the patch (baseline.ts) are what they were. It runs only in containers,
 * which hold a copy: a repository on the user's machine (`--env local`) is
 * never rewritten. A directory that is not a git work tree, or has no
 * commit, has no history to hide and is left alone.
 *
 * @module
 */

import type { Environment } from "../env/mod.ts";

/** What the pruning did, recorded in the trajectory as `info.history`. */
export interface HistoryPrune {
  /** The commit the repository is kept at (HEAD), when there is one. */
  head?: string;
  /** Remotes removed. */
  remotes: string[];
  /** Refs deleted (their commits are not in HEAD's history). */
  refs: string[];
  /** Why nothing was done (not a git work tree, no commit), when so. */
  skipped?: string;
  seconds: number;
}

/** The history could not be pruned: the run must not start with the future in reach. */
export class HistoryPruneError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "HistoryPruneError";
  }
}

const PRUNE = `set -u
say() { printf '%s\\n' "$*"; }
git rev-parse --is-inside-work-tree >/dev/null 2>&1 || { say "skipped not a git work tree"; exit 0; }
head=$(git rev-parse -q --verify 'HEAD^{commit}') || { say "skipped no commit"; exit 0; }
say "head $head"
gitdir=$(git rev-parse --git-dir) || exit 1
for remote in $(git remote); do git remote remove "$remote" >&2 || exit 1; say "remote $remote"; done
git for-each-ref --no-merged "$head" --format='%(refname)' | while IFS= read -r ref; do
  git update-ref -d "$ref" || exit 1
  say "ref $ref"
done || exit 1
for pseudo in ORIG_HEAD FETCH_HEAD MERGE_HEAD CHERRY_PICK_HEAD REVERT_HEAD BISECT_HEAD AUTO_MERGE; do
  rm -f "$gitdir/$pseudo"
done
git reflog expire --expire=now --expire-unreachable=now --all >&2 || exit 1
git -c gc.auto=0 repack -a -d -q >&2 || exit 1
git prune --expire=now >&2 || exit 1
`;

/** Prune the history of the repository at the environment's working directory (see the module notes). */
export async function pruneHistory(env: Environment): Promise<HistoryPrune> {
  const started = performance.now();
  const result = await env.execute(PRUNE, { timeout: 900 });
  const seconds = (performance.now() - started) / 1000;
  if (result.returncode !== 0 || result.timedOut) {
    const why = result.timedOut ? "timed out" : result.output.trim().split("\n").slice(-3).join(" ");
    throw new HistoryPruneError(`Cannot hide the repository's later history in "${env.cwd}": ${why}`);
  }
  const prune: HistoryPrune = { remotes: [], refs: [], seconds };
  for (const line of result.output.split("\n")) {
    const [word, ...rest] = line.split(" ");
    const value = rest.join(" ");
    if (word === "head") prune.head = value;
    else if (word === "remote") prune.remotes.push(value);
    else if (word === "ref") prune.refs.push(value);
    else if (word === "skipped") prune.skipped = value;
  }
  return prune;
}
