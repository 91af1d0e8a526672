/**
 * Where GraphPlan keeps state that must not show in the repository: the
 * per-repository journal directory under `$XDG_STATE_HOME/graphplan/` (or
 * `~/.local/state/graphplan/`), named by a hash of the repository's real
 * path. A `meta.json` inside names the repository, so a person looking at
 * the state directory can tell which journal is whose. A state directory
 * inside the repository, by its name or through a symlink, is refused.
 *
 * @module
 */

import { fail } from "../base/issue.ts";
import { sha256Hex } from "../base/node_builtins.ts";

/** The GraphPlan state directory (not created here). */
export function stateHome(): string {
  const env = (name: string) => {
    try {
      return Deno.env.get(name) || undefined;
    } catch {
      return undefined;
    }
  };
  const xdg = env("XDG_STATE_HOME");
  if (xdg && xdg.startsWith("/")) return `${xdg.replace(/\/+$/, "")}/graphplan`;
  const home = env("HOME");
  if (!home) {
    fail("state-dir-unknown", "Cannot find a state directory: neither XDG_STATE_HOME nor HOME is set", {
      hint: "set XDG_STATE_HOME to a writable directory outside the repository",
    });
  }
  return `${home.replace(/\/+$/, "")}/.local/state/graphplan`;
}

/** The journal directory of the repository whose real path is `root`. */
export function journalDirFor(root: string): string {
  const key = sha256Hex(root).slice(0, 24);
  const dir = `${stateHome()}/journal-${key}`;
  const real = realPathOfNearest(dir);
  if ([dir, real].some((path) => path === root || path.startsWith(root + "/"))) {
    fail("state-dir-inside-repo", `The state directory "${dir}" is inside the repository "${root}"`, {
      hint: "set XDG_STATE_HOME to a directory outside the repository",
    });
  }
  return dir;
}

/**
 * The real path `path` has or will have: its nearest existing ancestor with
 * symlinks resolved, plus the rest (so a state directory reached through a
 * symlink into the repository is recognised before it is created).
 */
function realPathOfNearest(path: string): string {
  let probe = path;
  let rest = "";
  for (;;) {
    try {
      return Deno.realPathSync(probe) + rest;
    } catch {
      const slash = probe.lastIndexOf("/");
      if (slash <= 0) return path;
      rest = probe.slice(slash) + rest;
      probe = probe.slice(0, slash);
    }
  }
}
