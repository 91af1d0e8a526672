/**
 * "Did you mean" for misspelt operator, template and parameter names.
 *
 * @module
 */

/** Edit distance (insert, delete, substitute, swap of neighbours). */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length > 200 || b.length > 200) return Math.max(a.length, b.length);
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => {
    const row = new Array<number>(cols).fill(0);
    row[0] = i;
    return row;
  });
  for (let j = 0; j < cols; j++) d[0][j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.length][b.length];
}

/**
 * Up to `limit` names close to `name`: by edit distance (at most a third of
 * the longer name, at least 2), or sharing a word (`replace_function` →
 * `replace_function_body`). Closest first.
 */
export function closestNames(name: string, names: Iterable<string>, limit = 3): string[] {
  const wanted = name.toLowerCase().replace(/[-\s]+/g, "_");
  const words = new Set(wanted.split("_").filter((word) => word.length >= 3));
  const scored: { name: string; score: number }[] = [];
  for (const candidate of new Set(names)) {
    const lower = candidate.toLowerCase();
    const distance = editDistance(wanted, lower);
    const allowed = Math.max(2, Math.floor(Math.max(wanted.length, lower.length) / 3));
    const shared = lower.split("_").filter((word) => words.has(word)).length;
    const contains = wanted.length >= 4 && (lower.includes(wanted) || wanted.includes(lower));
    if (distance <= allowed) scored.push({ name: candidate, score: distance });
    else if (contains) scored.push({ name: candidate, score: allowed + 1 });
    else if (shared > 0) scored.push({ name: candidate, score: allowed + 10 - shared });
  }
  scored.sort((a, b) => a.score - b.score || a.name.localeCompare(b.name));
  return scored.slice(0, limit).map((entry) => entry.name);
}

/** `did you mean "a" or "b"?`, or undefined when there is nothing to suggest. */
export function didYouMean(suggestions: string[]): string | undefined {
  if (suggestions.length === 0) return undefined;
  const quoted = suggestions.map((name) => `"${name}"`);
  const list = quoted.length === 1
    ? quoted[0]
    : `${quoted.slice(0, -1).join(", ")} or ${quoted[quoted.length - 1]}`;
  return `did you mean ${list}?`;
}
