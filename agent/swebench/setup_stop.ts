/**
 * When a batch stops starting instances because their containers do not
 * start: the default count and the key that makes two setup errors "the
 * same". Kept apart from `batch.ts` so the CLI's option checks can use them
 * without loading the batch runner and its live view.
 *
 * @module
 */

/** Instances in a row with the same setup error that stop a batch, unless told otherwise. */
export const DEFAULT_MAX_SETUP_FAILURES = 3;

/**
 * What makes two setup errors "the same": the error's first line with the
 * instance's own words (its image, its id, the batch's container names) left
 * out, so that one wrong image template fails every instance with one key.
 */
export function setupErrorKey(error: string, instance: { id: string; image: string }): string {
  let line = (error.split("\n").map((l) => l.trim()).find(Boolean) ?? "").replace(
    /graphplan-[\w.-]+/g,
    "{container}",
  );
  for (const word of [instance.image, instance.id]) if (word) line = line.replaceAll(word, "{}");
  return line;
}
