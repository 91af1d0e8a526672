/**
 * L1 kind preservation: a node replaced as a whole is replaced by a node of
 * a compatible kind (a statement by statements, an expression by an
 * expression, a function by a function; see `analysis/kind_compatibility.ts`).
 *
 * Operators say what they replaced through `EditRecord.replacedKinds`; an
 * edit without a kind (a plain text edit, an insertion, a deletion) is not
 * checked here. The replacement's kind is read from the re-parsed file: the
 * nodes that exactly cover the replacement text (whitespace and comments
 * trimmed). A node and the single child spanning the same text count as one
 * (an `expression_statement` and its `call`), a decorated definition or
 * an export counts as what it wraps, and decorators kept as siblings of a
 * member (TypeScript class bodies) count as part of the member.
 *
 * @module
 */

import type { EditRecord } from "../../edit/operator.ts";
import { error, type Issue } from "../../base/issue.ts";
import type { LanguageId, Node } from "../../parse/mod.ts";
import { compatibleKinds, isWrapperKind, kindCategory } from "../../analysis/kind_compatibility.ts";
import type { CheckEnv, FileChange } from "./mod.ts";
import { lineAt } from "./region.ts";
import { clip, typeList, withArticle } from "./quote.ts";

const BLOCK_LEVEL = new Set(["statement", "function", "class", "import", "declaration"]);

/** L1: replaced kinds against their replacements. */
export function checkKinds(change: FileChange, env: CheckEnv): Promise<Issue[]> {
  const issues: Issue[] = [];
  for (const record of change.records) {
    if (record.file !== change.path || !record.replacedKinds) continue;
    for (const item of checkRecord(record, change.path, env.step)) issues.push(item);
  }
  return Promise.resolve(issues);
}

function checkRecord(record: EditRecord, path: string, step: number): Issue[] {
  const issues: Issue[] = [];
  const language = record.after.file.language;
  const text = record.after.file.text;
  const order = record.edits.map((edit, index) => ({ edit, index })).sort((a, b) =>
    a.edit.start - b.edit.start
  );
  let delta = 0;
  const afterStart = new Map<number, number>();
  for (const { edit, index } of order) {
    afterStart.set(index, edit.start + delta);
    delta += edit.replacement.length - (edit.end - edit.start);
  }
  record.edits.forEach((edit, index) => {
    const replaced = record.replacedKinds?.[index];
    // Replacing an empty node (the module of an empty file) inserts code: there is no kind to keep.
    if (!replaced || edit.replacement.trim() === "" || edit.start === edit.end) return;
    let start = afterStart.get(index)!;
    let end = start + edit.replacement.length;
    while (start < end && /\s/.test(text[start])) start++;
    while (end > start && /\s/.test(text[end - 1])) end--;
    const nodes = coveringNodes(record.after.tree.rootNode, start, end);
    const problem = judge(language, replaced, nodes);
    if (problem) {
      issues.push(
        error(
          "kind-changed",
          `Edit replaces ${withArticle(`"${clip(replaced)}"`)} with ${problem} in "${path}"`,
          {
            level: "L1",
            step,
            file: path,
            line: lineAt(text, start),
            hint: `replace ${
              withArticle(kindCategory(language, replaced) ?? `"${clip(replaced)}"`)
            } with a node of the same kind`,
          },
        ),
      );
    }
  });
  return issues;
}

/**
 * The nodes covering exactly [start, end): one node (with the chain of
 * same-span ancestors and descendants as alternatives) or several siblings.
 * Undefined when the span does not fall on node boundaries.
 */
function coveringNodes(root: Node, start: number, end: number): Node[][] | undefined {
  let node: Node | null = root.descendantForIndex(start, Math.max(start, end - 1));
  if (!node) return undefined;
  // climb to the highest node with exactly this span
  while (node.parent && node.parent.startIndex === start && node.parent.endIndex === end) node = node.parent;
  if (node.startIndex === start && node.endIndex === end) return [chainOf(node)];
  // several siblings of one parent
  const parent: Node = node.startIndex <= start && node.endIndex >= end ? node : node.parent ?? node;
  const out: Node[][] = [];
  for (const child of parent.namedChildren) {
    if (!child || child.endIndex <= start || child.startIndex >= end) continue;
    if (child.type === "comment") continue;
    if (child.startIndex < start || child.endIndex > end) return undefined;
    out.push(chainOf(child));
  }
  // TypeScript keeps a member's decorators as its siblings: they belong to the member they precede
  const members = out.filter((chain) => chain[0].type !== "decorator");
  if (members.length > 0) return members;
  return out.length > 0 ? out : undefined;
}

/** A node, the wrapped definition of a wrapper, and its single same-span descendants. */
function chainOf(node: Node): Node[] {
  const chain = [node];
  let current = node;
  for (;;) {
    if (isWrapperKind(current.type)) {
      const inner = current.childForFieldName("definition") ?? current.childForFieldName("declaration");
      if (inner) {
        chain.push(inner);
        current = inner;
        continue;
      }
    }
    const only = current.namedChildCount === 1 ? current.namedChild(0) : null;
    if (only && only.startIndex === current.startIndex && only.endIndex === current.endIndex) {
      chain.push(only);
      current = only;
      continue;
    }
    return chain;
  }
}

/** Why `nodes` cannot replace a `replaced` node, or undefined when they can. */
function judge(language: LanguageId, replaced: string, nodes: Node[][] | undefined): string | undefined {
  if (!nodes) return "text that is not a whole node";
  const fits = (chain: Node[]) =>
    chain.some((node) =>
      compatibleKinds(language, replaced, node.type) ||
      (isWrapperKind(replaced) &&
        ["function", "class", "declaration"].includes(kindCategory(language, node.type)!))
    );
  if (nodes.length === 1) {
    if (fits(nodes[0])) return undefined;
    return withArticle(`"${nodes[0][0].type}"`);
  }
  // several nodes: only block-level code may replace block-level code, and one must match
  const category = kindCategory(language, replaced);
  if (!category || !BLOCK_LEVEL.has(category)) return `${nodes.length} nodes`;
  for (const chain of nodes) {
    const cat = chain.map((node) => kindCategory(language, node.type)).find((c) => c);
    if (!cat || !BLOCK_LEVEL.has(cat)) return withArticle(`"${chain[0].type}"`);
  }
  if (!nodes.some(fits)) return typeList(nodes.map((chain) => chain[0].type));
  return undefined;
}
