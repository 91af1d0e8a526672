/**
 * File modes as git sees them. Git records a regular file as `100644` or
 * `100755` (executable); the file system keeps all permission bits. A plan
 * says which of git's two modes a file gets (`create_file`, `set_mode`), and
 * this module maps between the two views: making a file executable adds an
 * execute bit wherever it has a read bit (what `chmod +x` does under a 022
 * umask), making it non-executable clears every execute bit, and the other
 * bits stay as they were.
 *
 * @module
 */

/** A git mode of a regular file. */
export type GitMode = "100644" | "100755";

/** The git modes a plan may give a file. */
export const GIT_MODES: readonly GitMode[] = ["100644", "100755"];

/** The mode bits of a new file with git mode `git` (no umask: the repository's files are shared). */
export function newFileMode(git: GitMode | undefined): number {
  return git === "100755" ? 0o100755 : 0o100644;
}

/** Git's view of `mode` (`st_mode` bits): executable when any execute bit is set; null when unknown. */
export function gitModeOf(mode: number | null | undefined): GitMode | null {
  if (mode === null || mode === undefined) return null;
  return (mode & 0o111) !== 0 ? "100755" : "100644";
}

/** `mode` changed to git mode `git`, keeping its other bits (see the module notes). */
export function withGitMode(mode: number | null, git: GitMode): number {
  const current = mode ?? 0o100644;
  if (git === "100644") return current & ~0o111;
  return current | ((current & 0o444) >> 2) | 0o100;
}
