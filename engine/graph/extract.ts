/**
 * One file's graph from its parse tree, in a single walk.
 *
 * The walk moves one `TreeCursor` through the tree in document order and,
 * for each node, reads only its numeric type id; the compiled rule tables
 * (`rules.ts`) then say, by array lookup, whether the node is a symbol, an
 * import or a line kind and whether its children can hold any of those.
 * Only nodes that matter become `Node` objects (one allocation each); the
 * rest cost two or three cursor calls. Subtrees that cannot matter
 * (expressions in Python, strings, comments, type annotations elsewhere) are
 * never entered, and a statement whose body comes last (a Python `def`) is
 * entered at its body, past the keywords, name and parameters.
 *
 * Two stacks ride along with the cursor:
 * - the type id at each depth, so "is this function directly in a class
 *   body?" is answered by looking up the ancestors (skipping transparent
 *   wrappers such as `block` or `decorated_definition`) without asking the
 *   tree;
 * - the open symbols with their depth, so each new symbol knows its parent:
 *   a frame is closed when the cursor moves on to a sibling at its depth or
 *   at a shallower one.
 *
 * Line kinds keep the outermost node that starts on a line: in document order
 * an ancestor is seen before its descendants, but a later sibling can be
 * shallower than an earlier one's descendant (`f(function () { return 1 }); if (x) ...`),
 * so each line remembers the depth of its node and a shallower one replaces it.
 *
 * The function keeps no state between calls (the compiled tables are a cache
 * keyed by language) and returns plain JSON, so it can run in a worker.
 *
 * @module
 */

import { warning } from "../base/issue.ts";
import { endLine, type Node, syntaxProblems, type Tree } from "../parse/mod.ts";
import type { SourceFile } from "../workspace.ts";
import { rulesFor } from "./languages/mod.ts";
import {
  BODY_LAST,
  type CompiledRules,
  compileRules,
  DESCEND,
  IMPORT,
  LINE,
  SYMBOL,
  type SymbolRule,
  TRANSPARENT,
} from "./rules.ts";
import type { FileGraph, GraphImport, GraphSymbol, LineKind, SymbolKind } from "./mod.ts";

interface Frame {
  depth: number;
  name: string;
  members: boolean;
}

/** The graph of one parsed file: symbols, imports, line kinds and its syntax problem, if any. */
export function extractFileGraph(file: SourceFile, tree: Tree): FileGraph {
  const table = compileRules(tree.language, rulesFor(file.language));
  const { flags, guards } = table;
  const path = file.path;
  const text = file.text;
  const symbols: GraphSymbol[] = [];
  const imports: GraphImport[] = [];
  const lineKind: LineKind[] = [];
  const lineDepth: number[] = [];
  const types: number[] = [];
  const frames: Frame[] = [];
  const cursor = tree.walk();

  /** Apply the rules of the node under the cursor (type `id`, at `depth`). */
  const visit = (id: number, bits: number, depth: number) => {
    if (bits & LINE) {
      const row = cursor.startPosition.row;
      const seen = lineDepth[row];
      if (seen === undefined || depth < seen) {
        const rule = table.lineKinds[id]!;
        const kind = typeof rule === "string" ? rule : rule(cursor.currentNode);
        if (kind) {
          lineKind[row] = kind;
          lineDepth[row] = depth;
        }
      }
    }
    if (!(bits & (SYMBOL | IMPORT))) return;
    const node = cursor.currentNode;
    if (bits & IMPORT) {
      const line = node.startPosition.row + 1;
      for (const { module, symbol, alias } of table.imports[id]!(node)) {
        imports.push(
          alias === undefined
            ? { file: path, module, symbol, line }
            : { file: path, module, symbol, alias, line },
        );
      }
    }
    if (bits & SYMBOL) {
      const rule = table.symbols[id]!;
      const parentType = depth > 0 ? table.typeNames[types[depth - 1]] : "";
      const symbol = makeSymbol(node, rule, parentType, table, types, depth, frames, path);
      if (symbol) {
        symbols.push(symbol);
        if (rule.encloses !== false) {
          frames.push({ depth, name: symbol.name, members: rule.members === true });
        }
      }
    }
  };

  let depth = 0;
  // A guarded node is judged on the way into it, at its first child.
  let guarded = -1; // type id of the guarded parent, or -1
  let guardDepth = -1; // depth of its first child
  try {
    for (;;) {
      const id = cursor.nodeTypeId;
      const bits = flags[id];
      types[depth] = id;
      if (depth === guardDepth) {
        const guard = guards[guarded]!;
        if (guard.first.has(id) && guard.words.has(text.slice(cursor.startIndex, cursor.endIndex))) {
          cursor.gotoParent();
          visit(guarded, flags[guarded], depth - 1);
          cursor.gotoFirstChild();
        }
        guardDepth = -1;
      }
      let pending = false;
      if (bits & (SYMBOL | IMPORT | LINE)) {
        if (guards[id] === undefined) visit(id, bits, depth);
        else pending = true;
      }
      if (bits & BODY_LAST && cursor.gotoLastChild()) {
        // Straight to the body; anything else last (a comment) and the node is entered as usual.
        if (table.bodyLast[id]!.has(cursor.nodeTypeId)) {
          depth++;
          continue;
        }
        cursor.gotoParent();
      }
      if (bits & DESCEND && cursor.gotoFirstChild()) {
        depth++;
        if (pending) {
          guarded = id;
          guardDepth = depth;
        }
        continue;
      }
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) return finish(file, tree, symbols, imports, lineKind);
        depth--;
      }
      // Now on a sibling at `depth`: symbols opened at this depth or deeper are closed.
      while (frames.length > 0 && frames[frames.length - 1].depth >= depth) frames.pop();
    }
  } finally {
    cursor.delete();
  }
}

function makeSymbol(
  node: Node,
  rule: SymbolRule,
  parentType: string,
  table: CompiledRules,
  types: number[],
  depth: number,
  frames: Frame[],
  path: string,
): GraphSymbol | undefined {
  const ctx = { parentType };
  let kind: SymbolKind | undefined = typeof rule.kind === "string" ? rule.kind : rule.kind(node, ctx);
  if (!kind) return undefined;
  const name = rule.name ? rule.name(node, ctx) : node.childForFieldName("name")?.text;
  if (!name) return undefined;
  const top = frames.length > 0 ? frames[frames.length - 1] : undefined;
  if (rule.method && kind === "function" && top?.members) {
    // A method sits directly in the body of its class: only transparent
    // wrappers (body, decorators, templates) between the two.
    let up = depth - 1;
    while (up > top.depth && table.flags[types[up]] & TRANSPARENT) up--;
    if (up === top.depth) kind = "method";
  }
  const symbol: GraphSymbol = {
    name,
    kind,
    file: path,
    start_line: definitionStartRow(node, table) + 1,
    end_line: endLine(node),
  };
  const parent = rule.parent ? rule.parent(node) : top?.name;
  if (parent) symbol.parent = parent;
  return symbol;
}

/**
 * The row where a definition starts once leading decorators, annotations and
 * the comments between them are left out (`@property` above `def`, `@Override`
 * in a Java method's modifiers).
 */
function definitionStartRow(node: Node, table: CompiledRules): number {
  const { decorators, modifierLists } = table;
  if (decorators.size === 0) return node.startPosition.row;
  const first = node.firstChild;
  if (!first || !(decorators.has(first.type) || modifierLists.has(first.type))) return node.startPosition.row;
  for (const child of node.children) {
    if (!child || decorators.has(child.type) || child.type.endsWith("comment")) continue;
    if (modifierLists.has(child.type)) {
      for (const modifier of child.children) {
        if (modifier && !decorators.has(modifier.type) && !modifier.type.endsWith("comment")) {
          return modifier.startPosition.row;
        }
      }
      continue;
    }
    return child.startPosition.row;
  }
  return node.startPosition.row;
}

function finish(
  file: SourceFile,
  tree: Tree,
  symbols: GraphSymbol[],
  imports: GraphImport[],
  lineKind: LineKind[],
): FileGraph {
  const line_kinds: Record<string, LineKind> = {};
  lineKind.forEach((kind, row) => {
    line_kinds[row + 1] = kind;
  });
  const errors = [];
  if (tree.rootNode.hasError) {
    const [first] = syntaxProblems(tree, 1);
    if (first) {
      const what = first.kind === "missing" ? `missing "${first.text}"` : `cannot parse "${first.text}"`;
      errors.push(warning("syntax-error", `Syntax error in "${file.path}" at line ${first.line}: ${what}`, {
        file: file.path,
        line: first.line,
        hint: "the graph covers the parts of the file that parse",
      }));
    }
  }
  return { file: file.path, language: file.language, symbols, imports, line_kinds, errors };
}
