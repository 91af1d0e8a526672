/**
 * Query text repair for S-expression locators: the seed writes predicates
 * after a pattern at the top level, which tree-sitter reads as a separate,
 * empty pattern (so the predicate would never apply).
 *
 * @module
 */

/**
 * Attach predicates written after a pattern at the top level to that pattern:
 * `(identifier) @id (#eq? @id "foo")` (the seed's spelling) becomes
 * `((identifier) @id (#eq? @id "foo"))`. Tree-sitter would otherwise read the
 * predicate as a pattern of its own and never apply it.
 */
export function attachTopLevelPredicates(query: string): string {
  const items: { pattern: string; predicates: string[] }[] = [];
  let i = 0;
  let rewritten = false;
  const n = query.length;
  const skipString = (at: number) => {
    let j = at + 1;
    while (j < n && query[j] !== '"') j += query[j] === "\\" ? 2 : 1;
    return j + 1;
  };
  while (i < n) {
    const c = query[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === ";") {
      while (i < n && query[i] !== "\n") i++;
      continue;
    }
    const start = i;
    if (c === "(" || c === "[") {
      let depth = 0;
      while (i < n) {
        const ch = query[i];
        if (ch === '"') {
          i = skipString(i);
          continue;
        }
        if (ch === ";") {
          while (i < n && query[i] !== "\n") i++;
          continue;
        }
        if (ch === "(" || ch === "[") depth++;
        if (ch === ")" || ch === "]") depth--;
        i++;
        if (depth === 0) break;
      }
    } else if (c === '"') {
      i = skipString(i);
    } else if (c === ")" || c === "]") {
      // A closer without an opener: kept as an item of its own (tree-sitter refuses it), and passed.
      i++;
    } else {
      while (i < n && !/[\s()\[\]"]/.test(query[i])) i++;
    }
    const text = query.slice(start, i);
    const isPredicate = /^\(\s*#/.test(text);
    const isSuffix = /^[@*+?!]/.test(text);
    const last = items[items.length - 1];
    if (isPredicate && last) {
      last.predicates.push(text);
      rewritten = true;
    } else if (isSuffix && last && last.predicates.length === 0) {
      last.pattern += ` ${text}`;
    } else {
      items.push({ pattern: text, predicates: [] });
    }
  }
  if (!rewritten) return query;
  return items
    .map((item) =>
      item.predicates.length > 0 ? `(${item.pattern} ${item.predicates.join(" ")})` : item.pattern
    )
    .join("\n");
}
