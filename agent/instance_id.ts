/**
 * The rule every instance id obeys before a batch or a run uses it: an id
 * names a folder (`OUT/ID`), a trajectory (`OUT/ID/ID.traj.json`), a
 * container and an image, and it comes from a file the user downloaded. So
 * it must be one safe path component:
 *
 * - 1 to {@linkcode MAX_INSTANCE_ID_BYTES} bytes of UTF-8 (a file name may
 *   be 255 bytes, and the longest name made from an id,
 *   `.ID.traj.json.XXXXXXXX.tmp`, adds 24);
 * - neither `.` nor `..`, not starting with `.` (hidden) or `-` (read as an
 *   option by the tools it is given to);
 * - no `/`, `\`, NUL or other control character.
 *
 * Every real SWE-bench id (`astropy__astropy-12907`) obeys it. The check is
 * made where a dataset is read, so a bad row is refused before anything is
 * written; the paths built from ids are checked once more where they are
 * written (agent/trajectory/inside_root.ts).
 *
 * @module
 */

/** The longest id in UTF-8 bytes. */
export const MAX_INSTANCE_ID_BYTES = 200;

/** The rule in words, for messages. */
export const INSTANCE_ID_RULE =
  `an instance id must be one file name: 1 to ${MAX_INSTANCE_ID_BYTES} bytes, ` +
  `not "." or "..", not starting with "." or "-", without "/", "\\" or control characters`;

/** Why `id` breaks the rule (a short phrase), or undefined when it is a valid instance id. */
export function instanceIdProblem(id: unknown): string | undefined {
  if (typeof id !== "string") return "it is not a string";
  if (id === "") return "it is empty";
  if (id === "." || id === "..") return "it names a directory";
  if (id.startsWith(".")) return 'it starts with "."';
  if (id.startsWith("-")) return 'it starts with "-"';
  if (/[/\\]/.test(id)) return 'it holds "/" or "\\"';
  // deno-lint-ignore no-control-regex
  if (/[\x00-\x1f\x7f]/.test(id)) return "it holds a control character";
  const bytes = new TextEncoder().encode(id).length;
  if (bytes > MAX_INSTANCE_ID_BYTES) return `it is ${bytes} bytes long`;
  return undefined;
}

/** `id` as a message shows it: JSON-quoted (control characters visible), cut after 60 characters. */
export function quoteId(id: unknown): string {
  const text = typeof id === "string" ? id : String(id);
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}...` : text);
}
