/**
 * L2 containment: nothing outside the edit region changes.
 *
 * The text outside the changed spans is identical by construction, so what
 * can change is how it parses. Two symptoms cover the ways an edit leaks:
 *
 * - the tokens next to the region change: an unclosed string or bracket
 *   swallows the code after it, a stray quote turns code into a string;
 * - the statements next to the region change parents: an indentation
 *   change or a dangling header (`else:`) re-parents the following code.
 *
 * For each span we take the `WINDOW` tokens (leaves) before it and after it
 * that do not touch it, in both trees, up to the neighbouring span (the
 * text between two spans is the same in both trees, so both windows end at
 * the same place), and compare them by type, extent (extents before the
 * edit mapped through it) and the chain of block-level ancestors
 * (statements, blocks, definitions), each by type and mapped start (a block
 * by its owner's start: a block begins at its first statement, which the
 * edit may have replaced; so is a statement list that starts at its first
 * statement, as Ruby's `body_statement` of a module). Ancestor ends are not compared: an edit that
 * appends a method to a class legitimately grows the class, and an
 * expression edit may wrap a neighbour (`im(a)` → `im(a).is_zero`).
 *
 * A block-level ancestor starting inside a span (a clause too: `elif`,
 * `else`, `except`) is the edit's own: it stands in the chain as `~`, and
 * the chain goes on from the body container (block, class body, file)
 * around it, skipping the statements between. Where the edit hangs its own
 * node is its choice: `elif (` → `if (` turns the clause, with its
 * untouched condition tail and body, into a new statement (the gold patch of
 * pytest-7432), and the old `if` it left is not the tail's concern. The
 * container still counts: a header dedented out of its function takes its
 * body to another block, and fails.
 *
 * Worked example: a span replacing `x = 1` inside `if a:` with `x = 1\nelse:`
 * leaves the tokens of the next statement `y = 2` unchanged, but its
 * ancestors lose the `if` body block (the `else` body is the edit's own), so
 * L2 fails.
 *
 * Known limit: code that moves between two of the edit's own nodes (a span
 * rewriting `if a:` as `if a:\n    pass\nelse:` hands the untouched body to
 * the new `else`) is not told from a header rewrite.
 *
 * In C and C++ a leak found is looked for again with the macro specifiers
 * of both texts read as blanks, as L0 does (`l0_macros.ts`): a macro alone
 * on its line (`_GLIBCXX_BEGIN_NAMESPACE_VERSION`) is read by the grammar as
 * the type of the next declaration, so an edit there seemed to move it.
 * When a leak is left, the configurations L0 reads the edit in are compared
 * too (`l0_macros.ts`), and the edit passes when none of them leaks.
 *
 * Cost: about 2 × `WINDOW` leaves per span and tree, ancestors memoized.
 *
 * @module
 */

import { error, type Issue } from "../../base/issue.ts";
import { type LanguageId, type Node, parse, type Tree } from "../../parse/mod.ts";
import { blankMacroSpecifiers } from "../../analysis/macro_specifiers.ts";
import { configurationViews } from "./l0_macros.ts";
import { kindCategory } from "../../analysis/kind_compatibility.ts";
import type { CheckEnv, FileChange } from "./mod.ts";
import { editSpans, lineAt, mapOffset, type Span } from "./region.ts";
import { clip } from "./quote.ts";
import { LeafWalk } from "../../parse/leaves.ts";

/** Tokens compared on each side of a span. */
const WINDOW = 24;

interface Token {
  type: string;
  start: number;
  end: number;
  ancestors: string;
}

/** L2: structure next to the changed spans. */
export async function checkContainment(change: FileChange, env: CheckEnv): Promise<Issue[]> {
  const spans = editSpans(change.before, change.after, change.records);
  if (spans.length === 0) return [];
  const language = change.after.file.language;
  const found = firstLeak(language, spans, change.before.tree, change.after.tree);
  if (!found) return [];
  if (language !== "c" && language !== "cpp") return [violation(change, env, found.span, found.mismatch)];
  const compare = (before: Tree, after: Tree) => firstLeak(language, spans, before, after);
  const blanked = await withoutMacros(language, change, compare);
  if (blanked === null || await noLeakInConfigurations(language, change, compare)) return [];
  return [violation(change, env, (blanked ?? found).span, (blanked ?? found).mismatch)];
}

/**
 * Whether the configurations L0 reads a C or C++ edit in (`l0_macros.ts`:
 * first branches, and the edit's own conditionals both ways) all show no
 * leak: a `{` opened in both branches of an `#ifdef` the edit wrote leaks
 * in the grammar's reading of both branches at once, which no compiler sees.
 */
async function noLeakInConfigurations(
  language: LanguageId,
  change: FileChange,
  compare: (before: Tree, after: Tree) => Leak | undefined,
): Promise<boolean> {
  const views = configurationViews(change.before, change.after);
  if (!views) return false;
  for (const view of views) {
    const before = await parse(language, view.before);
    const after = await parse(language, view.after);
    try {
      if (compare(before, after)) return false;
    } finally {
      before.delete();
      after.delete();
    }
  }
  return true;
}

type Leak = { span: Span; mismatch: { old?: Token; now?: Token } };

/**
 * In C and C++, what `compare` finds on both texts with their macro specifiers read as blanks
 * (`analysis/macro_specifiers.ts`, same offsets): the grammar reads `_GLIBCXX_BEGIN_NAMESPACE_VERSION`
 * alone on its line as the type of the declaration after it, so an edit to that declaration seems to
 * move the macro to another block. Null when the blanked texts show no leak; undefined when neither text
 * has such a macro (the first answer stands).
 */
async function withoutMacros(
  language: LanguageId,
  change: FileChange,
  compare: (before: Tree, after: Tree) => Leak | undefined,
): Promise<Leak | null | undefined> {
  const was = blankMacroSpecifiers(change.before.file.text);
  const now = blankMacroSpecifiers(change.after.file.text);
  if (was === change.before.file.text && now === change.after.file.text) return undefined;
  const before = await parse(language, was);
  const after = await parse(language, now);
  try {
    return compare(before, after) ?? null;
  } finally {
    before.delete();
    after.delete();
  }
}

/** The first span whose neighbouring tokens parse differently after the edit, with the first difference. */
function firstLeak(language: LanguageId, spans: Span[], beforeTree: Tree, afterTree: Tree): Leak | undefined {
  const beforeRanges = spans.map((span): [number, number] => [span.beforeStart, span.beforeEnd]);
  const afterRanges = spans.map((span): [number, number] => [span.afterStart, span.afterEnd]);
  const beforeSide = new Side(
    language,
    beforeTree,
    beforeRanges,
    (offset, side) => mapOffset(spans, offset, side),
  );
  const afterSide = new Side(language, afterTree, afterRanges, (offset) => offset);
  for (let i = 0; i < spans.length; i++) {
    const span = spans[i];
    // each window stops at the neighbouring span: the text between two spans is compared once per
    // side, never across a span, whose leaves (skipped) would cut the two windows at different places
    const next = spans[i + 1];
    const previous = spans[i - 1];
    const pairs: [Token[], Token[]][] = [
      [
        beforeSide.tokensAfter(span.beforeEnd, next?.beforeStart),
        afterSide.tokensAfter(span.afterEnd, next?.afterStart),
      ],
      [
        beforeSide.tokensBefore(span.beforeStart, previous?.beforeEnd),
        afterSide.tokensBefore(span.afterStart, previous?.afterEnd),
      ],
    ];
    for (const [old, now] of pairs) {
      const mismatch = firstMismatch(old, now);
      if (mismatch) return { span, mismatch };
    }
  }
  return undefined;
}

function violation(
  change: FileChange,
  env: CheckEnv,
  span: Span,
  mismatch: { old?: Token; now?: Token },
): Issue {
  const text = change.after.file.text;
  const at = mismatch.now?.start ?? mismatch.old?.start ?? span.afterEnd;
  const line = lineAt(text, Math.min(at, text.length));
  let what: string;
  if (
    mismatch.old && mismatch.now && mismatch.old.type === mismatch.now.type &&
    mismatch.old.start === mismatch.now.start
  ) {
    what = `the code at line ${line} moved to another block`;
  } else if (mismatch.old) {
    what = `the "${clip(mismatch.old.type)}" token at line ${
      lineAt(text, Math.min(mismatch.old.start, text.length))
    } no longer parses the same`;
  } else {
    what = `a "${clip(mismatch.now!.type)}" token appears at line ${line}`;
  }
  return error("containment-violated", `Edit changes code outside its region in "${change.path}": ${what}`, {
    level: "L2",
    step: env.step,
    file: change.path,
    line,
    hint: "an unclosed string or bracket, or an indentation change, leaks into the following code",
  });
}

function firstMismatch(old: Token[], now: Token[]): { old?: Token; now?: Token } | undefined {
  const n = Math.min(Math.max(old.length, now.length), WINDOW);
  for (let i = 0; i < n; i++) {
    const a = old[i];
    const b = now[i];
    if (
      !a || !b || a.type !== b.type || a.start !== b.start || a.end !== b.end || a.ancestors !== b.ancestors
    ) {
      return { old: a, now: b };
    }
  }
  return undefined;
}

const BLOCK_CATEGORIES = new Set(["statement", "function", "class", "import", "declaration", "block"]);

/** Node types holding statements or members, per grammar (besides the `block` category). */
const CONTAINER_TYPES = new Set([
  "block",
  "statement_block",
  "class_body",
  "declaration_list",
  "compound_statement",
  "switch_body",
  "enum_body",
  "interface_body",
  "object_type",
  // Ruby's body of a method, class or module: it starts at its first statement, like a block
  "body_statement",
]);

/** One tree's view: tokens near the spans, ancestor chains memoized. */
class Side {
  private readonly chains = new Map<number, string>();

  constructor(
    private readonly language: LanguageId,
    private readonly tree: Tree,
    private readonly ranges: [number, number][],
    private readonly map: (offset: number, side: "start" | "end") => number,
  ) {}

  /** Up to WINDOW tokens ending strictly before `offset` and after `bound`, nearest first. */
  tokensBefore(offset: number, bound = -1): Token[] {
    const out: Token[] = [];
    // the first leaf ending after offset - 1, then step back; past the last leaf, from the last leaf
    const root = this.tree.rootNode;
    const walk = LeafWalk.after(root, offset) ?? LeafWalk.last(root);
    let guard = 0;
    do {
      if (walk.endIndex <= bound) break;
      if (walk.endIndex < offset && this.comparable(walk)) out.push(this.token(walk.node));
      if (++guard > WINDOW * 8) break;
    } while (out.length < WINDOW && walk.previous());
    walk.delete();
    return out;
  }

  /** Up to WINDOW tokens starting strictly after `offset` and before `bound`, nearest first. */
  tokensAfter(offset: number, bound = Infinity): Token[] {
    const out: Token[] = [];
    const walk = LeafWalk.after(this.tree.rootNode, offset);
    if (!walk) return out;
    let guard = 0;
    do {
      if (walk.startIndex >= bound) break;
      if (walk.startIndex > offset && this.comparable(walk)) out.push(this.token(walk.node));
      if (++guard > WINDOW * 8) break;
    } while (out.length < WINDOW && walk.next());
    walk.delete();
    return out;
  }

  /** A token outside every span; comments are left out (the parser attaches them anywhere). */
  private comparable(leaf: LeafWalk): boolean {
    return leaf.type !== "comment" && !this.insideSpan(leaf.startIndex, leaf.endIndex);
  }

  private insideSpan(start: number, end: number): boolean {
    return this.ranges.some(([s, e]) => start < e && end > s || (start >= s && end <= e));
  }

  private token(node: Node): Token {
    return {
      type: node.type,
      start: this.map(node.startIndex, "start"),
      end: this.map(node.endIndex, "end"),
      ancestors: node.parent ? this.chain(node.parent) : "",
    };
  }

  /**
   * Block-level ancestors as `type@start` joined, nearest first. A block-level
   * node that starts inside a span is the edit's own: where it hangs is the
   * edit's choice (`elif (` → `if (` makes its clause a new statement), so it
   * stands as `~` and the chain resumes at the body container enclosing it.
   * Its outside tail is still compared by that container: a dedented header
   * takes its body to another block and fails.
   */
  private chain(node: Node): string {
    const known = this.chains.get(node.id);
    if (known !== undefined) return known;
    const parent = node.parent;
    const category = kindCategory(this.language, node.type);
    const clause = node.type.endsWith("_clause") || node.type === "switch_case" ||
      node.type === "switch_default";
    let chain: string;
    if ((category && BLOCK_CATEGORIES.has(category)) || clause) {
      // a block starts at its first statement, which may be new: name it by its owner
      const anchor = (category === "block" || CONTAINER_TYPES.has(node.type)) && parent ? parent : node;
      if (this.startsInSpan(anchor.startIndex)) {
        let up = parent;
        while (up && !this.isContainer(up)) up = up.parent;
        const rest = up ? this.chain(up) : "";
        chain = rest.startsWith("~/") ? rest : `~/${rest}`;
      } else {
        const own = clause ? "" : `${node.type}@${this.map(anchor.startIndex, "start")}/`;
        chain = own + (parent ? this.chain(parent) : "");
      }
    } else {
      chain = parent ? this.chain(parent) : "";
    }
    this.chains.set(node.id, chain);
    return chain;
  }

  /** A node holding statements or members: a block, a class body, the file. */
  private isContainer(node: Node): boolean {
    return CONTAINER_TYPES.has(node.type) || kindCategory(this.language, node.type) === "block" ||
      !node.parent;
  }

  private startsInSpan(offset: number): boolean {
    return this.ranges.some(([s, e]) => offset >= s && offset < e);
  }
}
