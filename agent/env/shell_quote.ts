/**
 * One word quoted for a POSIX shell (`sh`, `bash`): every command the
 * orchestrator builds for an environment, a batch script or a container
 * sweep quotes its values here, so they all behave the same way.
 *
 * A word of only `[A-Za-z0-9_@%+=:,./-]` is left bare (it means itself to the
 * shell, and commands in a trajectory stay readable); anything else, the
 * empty word included, is put in single quotes, inside which the shell gives
 * no character a meaning, and each `'` of the text becomes `'\''` (close the
 * quotes, an escaped quote, open them again). Newlines, `$`, backticks,
 * backslashes and non-ASCII text need nothing more inside single quotes.
 *
 * @module
 */

/** Characters that mean themselves to the shell in any position of a word. */
const BARE = /^[\w@%+=:,./-]+$/;

/** `text` as one shell word that the shell reads back as exactly `text`. */
export function shellQuote(text: string): string {
  return BARE.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}
