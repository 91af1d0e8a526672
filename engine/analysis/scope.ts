/**
 * A Python scope model: scopes, bindings, references, and the resolution of
 * a name at a point, shared by the edit checks L3 (referential integrity),
 * L4 (import closure), L5 (interface compatibility) and the rename helpers.
 *
 * Python resolves a name through the scope that uses it, then the enclosing
 * function scopes, then the module, then the builtins ("LEGB"), with three
 * twists this model follows:
 *
 * - a name assigned anywhere in a function is local to the whole function
 *   (so a scope's bindings are a set, not a sequence);
 * - a class body is a scope, but functions nested in it do not see it
 *   (`class C: x = 1; def f(self): return x` does not find `x`);
 * - `global x` / `nonlocal x` send a name to the module / an enclosing
 *   function; a comprehension and a lambda are scopes of their own, except
 *   that a comprehension's first iterable is evaluated outside it.
 *
 * A `from m import *` makes every otherwise unbound name "unknown" rather
 * than "missing": we cannot tell without reading `m`.
 *
 * Python 3.12 (PEP 695): `type X = ...` binds `X` where it stands, and the
 * type parameters of `def f[T]`, `class C[T]` and `type X[T] = ...` bind in
 * an "annotation" scope of their own (keyed by the `[...]` node) between
 * the enclosing scope and the function or class: the annotations, return
 * type, bases, alias value and body see `T`, the defaults, decorators and
 * the code around do not. A name used directly in an annotation scope in a
 * class body also sees the class's names, as CPython looks there first.
 *
 * Analysis is lazy and cached per tree: a scope's bindings come from one
 * TreeCursor walk over that scope's own code, skipping the bodies of nested
 * functions, classes, lambdas and comprehensions. Resolving a name inside a
 * method of a 4,000-line class therefore walks the method, the class body
 * without its other methods, and the module's top-level statements, never
 * the whole file. References are found on demand by a text scan for the
 * name followed by a node lookup (`referencesTo`), which is what renames and
 * call-site checks need.
 *
 * @module
 */

import type { Node, Tree, TreeCursor } from "web-tree-sitter";
import { type Document, treeMemo } from "../parse/documents.ts";
import { childrenIn } from "../parse/children_in.ts";
import { lineEndAt, lineStartAt } from "../parse/line_index.ts";

/** What introduces a scope. */
export type ScopeKind = "module" | "class" | "function" | "lambda" | "comprehension" | "annotation";

/** How a name got bound. */
export type BindingKind =
  | "import"
  | "def"
  | "class"
  | "parameter"
  | "assignment"
  | "loop"
  | "alias"
  | "walrus"
  | "pattern"
  | "type_alias"
  | "type_parameter";

/** A name bound in a scope. */
export interface Binding {
  name: string;
  kind: BindingKind;
  /** Offsets of the binding identifier (the alias for `import a as b`). */
  start: number;
  end: number;
  /** 1-based line. */
  line: number;
  /** For imports: the module (`os.path`, `.utils`, `..`) and the imported name (`from m import x`). */
  module?: string;
  imported?: string;
  /** Offsets of the whole statement or definition that binds it. */
  statementStart: number;
  statementEnd: number;
}

/** A scope and the names it binds. */
export interface Scope {
  kind: ScopeKind;
  /** The node that introduces the scope (the module root for the module). */
  node: Node;
  /** The enclosing scope, undefined for the module. */
  parent?: Scope;
  bindings: Map<string, Binding[]>;
  /** Names declared `global` / `nonlocal` in this scope. */
  globals: Set<string>;
  nonlocals: Set<string>;
  /** Whether the scope has a `from m import *`. */
  starImport: boolean;
  /** Module scope only: names some function declares `global` (and may bind at module level). */
  declaredGlobal?: Set<string>;
}

/** How a name resolves at a point. */
export interface Resolution {
  status: "bound" | "builtin" | "unknown" | "missing";
  binding?: Binding;
  /** The scope that binds it. */
  scope?: Scope;
}

/** One occurrence of a name as an identifier, and what it does there. */
export interface Occurrence {
  node: Node;
  role: NameRole;
}

/** What an identifier does: read a name, bind it, declare it, or nothing (attribute, keyword). */
export type NameRole = "reference" | "binding" | "declaration" | "none";

/** The Python 3 builtins (3.13), as `dir(builtins)` lists them, plus module-level implicit names. */
// deno-fmt-ignore
export const PYTHON_BUILTINS: ReadonlySet<string> = new Set([
  // exceptions and warnings
  "ArithmeticError", "AssertionError", "AttributeError", "BaseException", "BaseExceptionGroup",
  "BlockingIOError", "BrokenPipeError", "BufferError", "BytesWarning", "ChildProcessError",
  "ConnectionAbortedError", "ConnectionError", "ConnectionRefusedError", "ConnectionResetError",
  "DeprecationWarning", "EOFError", "EncodingWarning", "EnvironmentError", "Exception", "ExceptionGroup",
  "FileExistsError", "FileNotFoundError", "FloatingPointError", "FutureWarning", "GeneratorExit",
  "IOError", "ImportError", "ImportWarning", "IndentationError", "IndexError", "InterruptedError",
  "IsADirectoryError", "KeyError", "KeyboardInterrupt", "LookupError", "MemoryError",
  "ModuleNotFoundError", "NameError", "NotADirectoryError", "NotImplementedError", "OSError",
  "OverflowError", "PendingDeprecationWarning", "PermissionError", "ProcessLookupError",
  "PythonFinalizationError", "RecursionError", "ReferenceError", "ResourceWarning", "RuntimeError",
  "RuntimeWarning", "StopAsyncIteration", "StopIteration", "SyntaxError", "SyntaxWarning", "SystemError",
  "SystemExit", "TabError", "TimeoutError", "TypeError", "UnboundLocalError", "UnicodeDecodeError",
  "UnicodeEncodeError", "UnicodeError", "UnicodeTranslateError", "UnicodeWarning", "UserWarning",
  "ValueError", "Warning", "ZeroDivisionError",
  // constants
  "Ellipsis", "False", "None", "NotImplemented", "True", "__debug__",
  // functions and types
  "__build_class__", "__import__", "abs", "aiter", "all", "anext", "any", "ascii", "bin", "bool",
  "breakpoint", "bytearray", "bytes", "callable", "chr", "classmethod", "compile", "complex", "copyright",
  "credits", "delattr", "dict", "dir", "divmod", "enumerate", "eval", "exec", "exit", "filter", "float",
  "format", "frozenset", "getattr", "globals", "hasattr", "hash", "help", "hex", "id", "input", "int",
  "isinstance", "issubclass", "iter", "len", "license", "list", "locals", "map", "max", "memoryview",
  "min", "next", "object", "oct", "open", "ord", "pow", "print", "property", "quit", "range", "repr",
  "reversed", "round", "set", "setattr", "slice", "sorted", "staticmethod", "str", "sum", "super", "tuple",
  "type", "vars", "zip",
  // names every module (and class body) has
  "__name__", "__doc__", "__file__", "__loader__", "__package__", "__spec__", "__path__", "__builtins__",
  "__cached__", "__annotations__", "__dict__", "__module__", "__qualname__", "__class__",
]);

/** Node types that open a scope of their own (Python). */
export const SCOPE_TYPES: ReadonlySet<string> = new Set([
  "function_definition",
  "class_definition",
  "lambda",
  "list_comprehension",
  "set_comprehension",
  "dictionary_comprehension",
  "generator_expression",
]);

/** Containers an assignment target can be nested in (`a, (b, *c) = ...`). */
const PATTERN_CONTAINERS = new Set([
  "pattern_list",
  "tuple_pattern",
  "list_pattern",
  "tuple",
  "list",
  "parenthesized_expression",
  "list_splat_pattern",
  "list_splat",
  "expression_list",
]);

const PARAMETER_LISTS = new Set(["parameters", "lambda_parameters"]);

/** One ancestor level of an identifier: the ancestor's type and the field its child sits in. */
interface Level {
  type: string;
  field: string | null;
}

/**
 * Parents whose parts the 2023 grammar leaves without a field (PEP 695
 * syntax): the separator, the field of the part before it, the field of the
 * part after it. `type X[T] = list[T]` is a `type_alias_statement` of two
 * `type` children; `T: int` a `constrained_type` of two.
 */
const UNFIELDED: Readonly<Record<string, readonly [string, string, string]>> = {
  type_alias_statement: ["=", "name", "value"],
  constrained_type: [":", "name", "bound"],
};

/**
 * The field of the cursor's node in its parent (of type `parentType`): the
 * grammar's field, or for the unfielded parts of a type alias and a bounded
 * type parameter the name `UNFIELDED` gives them, so that `classifyName`
 * can tell the name from the value. Every walk that feeds `classifyName`
 * reads its fields through this.
 */
export function cursorField(cursor: TreeCursor, parentType: string): string | null {
  const field = cursor.currentFieldName;
  const parts = UNFIELDED[parentType];
  if (field !== null || !parts) return field;
  for (let before = cursor.currentNode.previousSibling; before; before = before.previousSibling) {
    if (before.type === parts[0]) return parts[2];
  }
  return parts[1];
}

/**
 * Whether the identifier with these ancestors declares a PEP 695 type
 * parameter: `T`, `*Ts`, `**P` or the `T` of `T: bound` in the brackets of
 * a `def`, a `class` or a `type` alias's name. Under a 2023 grammar a
 * parameter with a default (`T = int`, Python 3.13) comes out as an ERROR
 * holding `T =`; its `T` counts as declared too.
 */
function declaresTypeParameter(levels: readonly Level[]): boolean {
  let i = 0;
  if (levels[0]?.type === "ERROR") i = 1;
  else {
    if (levels[i]?.type === "splat_type") i++;
    else if (levels[i]?.type === "type" && levels[i + 1]?.type === "constrained_type") {
      if (levels[i + 1].field !== "name") return false;
      i += 2;
    }
    if (levels[i]?.type !== "type") return false;
    i++;
  }
  return levels[i]?.type === "type_parameter" && ownsTypeParameters(levels, i + 1);
}

/** Whether `levels[i]` is where a parameter list `[T, ...]` declares type parameters (not a subscript `list[T]`). */
function ownsTypeParameters(levels: readonly Level[], i: number): boolean {
  const owner = levels[i];
  if (!owner) return false;
  if (owner.type === "function_definition" || owner.type === "class_definition") {
    return owner.field === "type_parameters";
  }
  return owner.type === "generic_type" && levels[i + 1]?.type === "type" &&
    levels[i + 2]?.type === "type_alias_statement" && levels[i + 2].field === "name";
}

/** Whether the identifier with these ancestors is the name a `type` statement binds (`X` of `type X[T] = ...`). */
function namesTypeAlias(levels: readonly Level[]): boolean {
  const i = levels[0]?.type === "generic_type" ? 1 : 0;
  return levels[i]?.type === "type" && levels[i + 1]?.type === "type_alias_statement" &&
    levels[i + 1].field === "name";
}

/**
 * What an identifier does, from its ancestors (innermost first): `levels[0]`
 * is the identifier's parent with the identifier's field in it, `levels[1]`
 * the grandparent with the parent's field, and so on.
 */
export function classifyName(levels: readonly Level[]): NameRole {
  const parent = levels[0];
  if (!parent) return "reference";
  const { type, field } = parent;
  if (type === "attribute" && field === "attribute") return "none";
  if (type === "keyword_argument" && field === "name") return "none";
  if ((type === "function_definition" || type === "class_definition") && field === "name") return "binding";
  if (type === "global_statement" || type === "nonlocal_statement") return "declaration";
  if (namesTypeAlias(levels) || declaresTypeParameter(levels)) return "binding";
  if (levels.some((level) => IMPORT_TYPES.has(level.type))) return "none";
  if (PARAMETER_LISTS.has(type)) return "binding";
  if (type === "typed_parameter" && field !== "type") return "binding";
  if ((type === "default_parameter" || type === "typed_default_parameter") && field === "name") {
    return "binding";
  }
  if ((type === "list_splat_pattern" || type === "dictionary_splat_pattern") && levels[1]) {
    const above = levels[1].type;
    if (PARAMETER_LISTS.has(above) || above === "typed_parameter") return "binding";
  }
  if (type === "as_pattern_target" || type === "named_expression" && field === "name") return "binding";
  if (type === "keyword_pattern" && field !== "name") return "binding";
  // assignment targets, possibly nested in tuples and lists
  let i = 0;
  while (i < levels.length && PATTERN_CONTAINERS.has(levels[i].type)) i++;
  const target = levels[i];
  if (target) {
    const via = target.field;
    if (
      (target.type === "assignment" || target.type === "augmented_assignment" ||
        target.type === "for_statement" ||
        target.type === "for_in_clause") && via === "left"
    ) {
      return "binding";
    }
    if (target.type === "as_pattern_target") return "binding";
  }
  if (
    levels.some((level) => level.type === "case_pattern") && !levels.some((l) => l.type === "dotted_name")
  ) {
    return "binding";
  }
  return "reference";
}

const IMPORT_TYPES = new Set(["import_statement", "import_from_statement", "future_import_statement"]);

// ---------------------------------------------------------------------------
// Scope analysis

interface TreeCache {
  scopes: Map<number, Scope>;
}

/** What `deriveModuleScope` needs of the earlier tree's module scope, kept in its `treeMemo` (no nodes). */
interface ModuleEntry {
  /** The bindings in document order. */
  flat: Binding[];
  rootStart: number;
  rootEnd: number;
  /** Whether the module has no `global`/`nonlocal` statement or star import (else no update). */
  plain: boolean;
  /** The `global` statements anywhere in the text (`declaredGlobal`), in document order. */
  globalLines: GlobalLine[];
}

/** A `global` statement found by the text scan: the offset of its line and the names it declares. */
interface GlobalLine {
  line: number;
  names: string[];
}

const MEMO_KEY = "moduleScope";

const caches = new WeakMap<Tree, TreeCache>();

function cacheFor(tree: Tree): TreeCache {
  let cache = caches.get(tree);
  if (!cache) {
    cache = { scopes: new Map() };
    caches.set(tree, cache);
  }
  return cache;
}

function scopeKind(type: string): ScopeKind {
  if (type === "module") return "module";
  if (type === "type_parameter") return "annotation";
  if (type === "class_definition") return "class";
  if (type === "function_definition") return "function";
  if (type === "lambda") return "lambda";
  return "comprehension";
}

/** The module scope of a Python document. */
export function moduleScope(doc: Document): Scope {
  return scopeFor(doc, doc.tree.rootNode, undefined);
}

function scopeFor(doc: Document, node: Node, parent: Scope | undefined): Scope {
  const cache = cacheFor(doc.tree);
  let scope = cache.scopes.get(node.id);
  if (scope) return scope;
  const isModule = node.type === "module" || !parent;
  if (isModule && incremental) {
    const derived = deriveModuleScope(doc, node);
    if (derived) {
      treeMemo(doc.tree)[MEMO_KEY] = derived.entry;
      cache.scopes.set(node.id, derived.scope);
      return derived.scope;
    }
  }
  scope = {
    kind: node.type === "module" || !parent ? "module" : scopeKind(node.type),
    node,
    parent,
    bindings: new Map(),
    globals: new Set(),
    nonlocals: new Set(),
    starImport: false,
  };
  collectBindings(doc, scope);
  if (scope.kind === "module") {
    const globals = globalLines(doc.file.text, 0, doc.file.text.length);
    scope.declaredGlobal = declaredNames(globals);
    const flat = inOrder(scope);
    for (const binding of flat) ownStrings(binding);
    treeMemo(doc.tree)[MEMO_KEY] = {
      flat,
      rootStart: node.startIndex,
      rootEnd: node.endIndex,
      plain: plainModule(scope),
      globalLines: globals,
    } satisfies ModuleEntry;
  }
  cache.scopes.set(node.id, scope);
  return scope;
}

// ---------------------------------------------------------------------------
// The module scope of a re-parsed document, updated from its predecessor's

let incremental = true;

/**
 * Whether module scopes of re-parsed documents are updated from the earlier
 * document's instead of collected from scratch (default on). Off is the
 * reference the tests compare the update with; the results are the same.
 */
export function setIncrementalScopes(enabled: boolean): void {
  incremental = enabled;
}

/**
 * Give the binding's strings their own storage. A name sliced from the file's
 * text keeps the whole text alive (V8 slices strings of 13 characters and
 * more), and the bindings of a module scope are carried from document to
 * document: a plan of N inserts would keep N texts of the file.
 */
function ownStrings(binding: Binding): void {
  binding.name = own(binding.name);
  if (binding.module !== undefined) binding.module = own(binding.module);
  if (binding.imported !== undefined) binding.imported = own(binding.imported);
}

/** `value` in storage of its own (see `ownStrings`). */
function own(value: string): string {
  return value.length < 13 ? value : JSON.parse(JSON.stringify(value)) as string;
}

/** A scope's bindings in document order (the order `collectBindings` found them). */
function inOrder(scope: Scope): Binding[] {
  const flat: Binding[] = [];
  for (const list of scope.bindings.values()) for (const binding of list) flat.push(binding);
  return flat.sort((a, b) => a.start - b.start);
}

/**
 * The module scope of `doc` from the cached scope of the tree it was
 * re-parsed from (`doc.origin`): bindings of the top-level statements before
 * the changed span are kept, those after it are shifted by the edit, and only
 * the top-level statements overlapping the span (the edit and tree-sitter's
 * changed ranges) are walked. A plan that inserts into one file N times then
 * costs the inserted statements, not N walks of a growing module. Undefined
 * (collect from scratch) when there is no usable predecessor or when the
 * update could differ from a full walk: `global`/`nonlocal` or a star import
 * at module level, or a binding whose statement is the module itself.
 */
function deriveModuleScope(doc: Document, root: Node): { scope: Scope; entry: ModuleEntry } | undefined {
  const origin = doc.origin;
  const previous = origin?.memo[MEMO_KEY] as ModuleEntry | undefined;
  if (!origin || !previous?.plain) return undefined;
  const { startIndex: start, oldEndIndex: oldEnd, newEndIndex: newEnd } = origin.edit;
  const delta = newEnd - oldEnd;
  const rows = origin.edit.newEndPosition.row - origin.edit.oldEndPosition.row;
  let from = start;
  let to = newEnd;
  for (const range of origin.changed) {
    from = Math.min(from, range.startIndex);
    to = Math.max(to, range.endIndex);
  }
  // widen to whole top-level statements
  const statements = childrenIn(root, from, to);
  const spanStart = Math.min(from, statements[0]?.startIndex ?? from);
  const spanEnd = Math.max(to, statements[statements.length - 1]?.endIndex ?? to);
  const oldSpanEnd = spanEnd - delta;
  const rootSpan = (binding: Binding, rootStart: number, rootEnd: number) =>
    binding.statementStart === rootStart && binding.statementEnd === rootEnd;

  const fresh: Scope = {
    kind: "module",
    node: root,
    parent: undefined,
    bindings: new Map(),
    globals: new Set(),
    nonlocals: new Set(),
    starImport: false,
  };
  collectBindings(doc, fresh, statements);
  const middle = inOrder(fresh);
  const flat: Binding[] = [];
  for (const binding of previous.flat) {
    if (binding.start >= spanStart) break;
    if (binding.statementEnd > spanStart || rootSpan(binding, previous.rootStart, previous.rootEnd)) {
      return undefined;
    }
    flat.push(binding);
  }
  for (const binding of middle) {
    ownStrings(binding);
    if (binding.start < spanStart || binding.start >= spanEnd) return undefined;
    if (rootSpan(binding, root.startIndex, root.endIndex)) return undefined;
    flat.push(binding);
  }
  for (const binding of previous.flat) {
    if (binding.start < oldSpanEnd) continue;
    if (binding.statementStart < oldSpanEnd || rootSpan(binding, previous.rootStart, previous.rootEnd)) {
      return undefined;
    }
    flat.push({
      ...binding,
      start: binding.start + delta,
      end: binding.end + delta,
      line: binding.line + rows,
      statementStart: binding.statementStart + delta,
      statementEnd: binding.statementEnd + delta,
    });
  }
  // the `global` lines: those before the edit's lines kept, those after shifted, the edit's lines scanned
  const text = doc.file.text;
  const lineStart = lineStartAt(text, start);
  const globals: GlobalLine[] = previous.globalLines.filter((global) => global.line < lineStart);
  for (const global of globalLines(text, lineStart, lineEndAt(text, newEnd))) globals.push(global);
  for (const global of previous.globalLines) {
    if (global.line > oldEnd) globals.push({ line: global.line + delta, names: global.names });
  }
  const scope: Scope = { ...fresh, declaredGlobal: declaredNames(globals) };
  scope.bindings = new Map();
  for (const binding of flat) addBinding(scope, binding);
  return {
    scope,
    entry: {
      flat,
      rootStart: root.startIndex,
      rootEnd: root.endIndex,
      plain: plainModule(scope),
      globalLines: globals,
    },
  };
}

function plainModule(scope: Scope): boolean {
  return scope.globals.size === 0 && scope.nonlocals.size === 0 && !scope.starImport;
}

/**
 * The `global` statements of the lines of `text` starting in [from, to]
 * (`from` a line start, `to` a line end; a text scan, so a `global` in a
 * string counts too).
 */
function globalLines(text: string, from: number, to: number): GlobalLine[] {
  const out: GlobalLine[] = [];
  // (a slice: a search of the whole text from `from` would read on to its end)
  const part = from === 0 && to === text.length ? text : text.slice(from, to);
  for (const match of part.matchAll(/^[ \t]*global[ \t]+([\w \t,]+)/gm)) {
    const names = match[1].split(",").map((name) => name.trim()).filter((name) => name !== "").map(own);
    out.push({ line: lineStartAt(text, from + match.index), names });
  }
  return out;
}

/** The names of `global` statements, in order of first appearance. */
function declaredNames(globals: readonly GlobalLine[]): Set<string> {
  const out = new Set<string>();
  for (const global of globals) for (const name of global.names) out.add(name);
  return out;
}

function addBinding(scope: Scope, binding: Binding): void {
  const list = scope.bindings.get(binding.name);
  if (list) list.push(binding);
  else scope.bindings.set(binding.name, [binding]);
}

/**
 * The bindings of `scope`: one cursor walk over its own code, nested scope
 * bodies skipped. With `only` (children of the module), just those
 * top-level statements.
 */
function collectBindings(doc: Document, scope: Scope, only?: readonly Node[]): void {
  const node = scope.node;
  if (scope.kind === "annotation") {
    for (const name of typeParameterNames(node)) addBinding(scope, nameBinding(name, "type_parameter", node));
    return;
  }
  const text = doc.file.text;
  let cursor = (only?.[0] ?? node).walk();
  const levels: Level[] = [];
  // (statement start, end) of the innermost statement-like ancestor, for bindings
  const statements: [number, number][] = [[node.startIndex, node.endIndex]];
  let firstComprehensionIterable = -1;
  if (scope.kind === "comprehension") {
    const clause = node.namedChildren.find((child) => child?.type === "for_in_clause");
    const right = clause?.childForFieldName("right");
    if (right) firstComprehensionIterable = right.startIndex;
  }

  const visit = (): boolean => {
    const type = cursor.nodeType;
    const depth = levels.length;
    if (depth > 0) {
      // a nested scope: bind its name here, skip its body
      if (SCOPE_TYPES.has(type)) {
        if (type === "function_definition" || type === "class_definition") {
          const current = cursor.currentNode;
          const name = current.childForFieldName("name");
          if (name) {
            addBinding(scope, nameBinding(name, type === "class_definition" ? "class" : "def", current));
          }
        }
        return false;
      }
      if (type === "import_statement" || type === "import_from_statement") {
        importBindings(cursor.currentNode, scope);
        return false;
      }
      if (type === "future_import_statement") return false;
      if (type === "type_alias_statement") {
        // its name binds here; its type parameters and value are an annotation scope of their own
        const statement = cursor.currentNode;
        const name = typeAliasName(statement);
        if (name) addBinding(scope, nameBinding(name, "type_alias", statement));
        return false;
      }
      if (type === "global_statement" || type === "nonlocal_statement") {
        const set = type === "global_statement" ? scope.globals : scope.nonlocals;
        for (const child of cursor.currentNode.namedChildren) {
          if (child?.type === "identifier") set.add(child.text);
        }
        return false;
      }
    }
    if (type === "identifier" && depth > 0) {
      if (cursor.startIndex === firstComprehensionIterable) return false;
      const role = classifyName(levels.slice().reverse());
      if (role === "binding") {
        // a function's name binds in the enclosing scope, not here
        const parentLevel = levels[depth - 1];
        if (
          depth === 1 && parentLevel.field === "name" &&
          (parentLevel.type === "function_definition" || parentLevel.type === "class_definition")
        ) return false;
        const start = cursor.startIndex;
        const end = cursor.endIndex;
        const [statementStart, statementEnd] = statements[statements.length - 1];
        addBinding(scope, {
          name: text.slice(start, end),
          kind: bindingKind(levels),
          start,
          end,
          line: cursor.startPosition.row + 1,
          statementStart,
          statementEnd,
        });
      }
      return false;
    }
    return true;
  };

  // walk the scope node's children (not the node itself, whose name binds outside)
  const walk: Walk = { levels, statements, visit, scope, skipStart: firstComprehensionIterable };
  if (!only) {
    walkChildren(cursor, walk);
    cursor.delete();
    return;
  }
  // each statement from its own cursor, as the walk of the whole module would meet it
  for (const statement of only) {
    cursor.delete();
    cursor = statement.walk();
    levels.splice(0, levels.length, { type: node.type, field: null });
    walkFrom(cursor, walk);
  }
  cursor.delete();
}

/** The binding of the identifier `name` made by `statement`. */
function nameBinding(name: Node, kind: BindingKind, statement: Node): Binding {
  return {
    name: name.text,
    kind,
    start: name.startIndex,
    end: name.endIndex,
    line: name.startPosition.row + 1,
    statementStart: statement.startIndex,
    statementEnd: statement.endIndex,
  };
}

/** The identifier a `type` statement binds (`X` in `type X[T] = ...`), if the grammar found one. */
export function typeAliasName(statement: Node): Node | undefined {
  const target = statement.firstNamedChild?.firstNamedChild;
  const name = target?.type === "generic_type" ? target.firstNamedChild : target;
  return name?.type === "identifier" ? name : undefined;
}

/**
 * The PEP 695 type parameter list of a `def`, a `class` or a `type`
 * statement (the `type_parameter` node of `[T, *Ts, **P]`), if it has one.
 */
export function typeParameterList(owner: Node): Node | undefined {
  if (owner.type === "function_definition" || owner.type === "class_definition") {
    return owner.childForFieldName("type_parameters") ?? undefined;
  }
  if (owner.type !== "type_alias_statement") return undefined;
  const target = owner.firstNamedChild?.firstNamedChild;
  if (target?.type !== "generic_type") return undefined;
  return target.namedChildren.find((child) => child?.type === "type_parameter") ?? undefined;
}

/**
 * The names a type parameter list declares, as `declaresTypeParameter`
 * reads them; a `type` that follows an ERROR ending in `=` is a default
 * (Python 3.13), not a parameter.
 */
function typeParameterNames(list: Node): Node[] {
  const out: Node[] = [];
  let afterEquals = false;
  for (const child of list.namedChildren) {
    if (!child) continue;
    let name: Node | null = null;
    if (child.type === "ERROR") {
      name = child.firstNamedChild;
      afterEquals = child.lastChild?.type === "=";
    } else if (child.type === "type") {
      const inner = afterEquals ? null : child.firstNamedChild;
      afterEquals = false;
      if (inner?.type === "constrained_type") name = inner.firstNamedChild?.firstNamedChild ?? null;
      else if (inner?.type === "splat_type") {
        name = inner.namedChildren.find((c) => c?.type === "identifier") ?? null;
      } else name = inner;
    }
    if (name?.type === "identifier") out.push(name);
  }
  return out;
}

/**
 * Whether the part `path[i - 1]` of `owner` (`path[i]`) is evaluated in the
 * annotation scope of `owner`'s type parameters: for a `def`, the
 * parameters' annotations (not their defaults), the return type and the
 * body; for a `class`, its bases and body; for a `type` statement, all of it.
 */
function inAnnotationScope(owner: Node, path: readonly Node[], i: number): boolean {
  const child = path[i - 1];
  if (owner.type === "type_alias_statement") return true;
  const field = (name: string) => owner.childForFieldName(name)?.id === child.id;
  if (field("type_parameters") || field("body")) return true;
  if (owner.type === "class_definition") return field("superclasses");
  if (field("return_type")) return true;
  if (!field("parameters")) return false;
  const parameter = path[i - 2];
  const value = parameter?.childForFieldName("value");
  return !(value && path[i - 3] && value.id === path[i - 3].id);
}

/** What `walkChildren` and `walkFrom` share: the ancestor stacks, the visitor, the scope. */
interface Walk {
  levels: Level[];
  statements: [number, number][];
  visit: () => boolean;
  scope: Scope;
  /** Start of the comprehension's first iterable (walked as the enclosing scope's), or -1. */
  skipStart: number;
}

function walkChildren(cursor: TreeCursor, walk: Walk): void {
  const { levels } = walk;
  const rootType = cursor.nodeType;
  if (!cursor.gotoFirstChild()) return;
  levels.push({ type: rootType, field: cursor.currentFieldName });
  walkFrom(cursor, walk);
}

/** The walk of `walkChildren` from the cursor's node (at depth `levels.length`) to the end of its siblings. */
function walkFrom(cursor: TreeCursor, walk: Walk): void {
  const { levels, statements, visit, scope, skipStart } = walk;
  for (;;) {
    const depth = levels.length;
    let descend = false;
    const field = cursorField(cursor, levels[depth - 1].type);
    levels[depth - 1].field = field;
    // parts of a function/lambda/class header belong to the enclosing scope
    const skipHeader = depth === 1 && scope.kind !== "module" && scope.kind !== "comprehension" &&
      (field === "name" || field === "superclasses" || field === "return_type" ||
        field === "type_parameters");
    const skipIterable = skipStart >= 0 && depth === 2 && cursor.startIndex === skipStart;
    if (!skipHeader && !skipIterable) descend = visit();
    if (descend) {
      const type = cursor.nodeType;
      const start = cursor.startIndex;
      const end = cursor.endIndex;
      if (cursor.gotoFirstChild()) {
        levels.push({ type, field: null });
        if (type.endsWith("_statement") || type === "decorated_definition") statements.push([start, end]);
        continue;
      }
    }
    while (!cursor.gotoNextSibling()) {
      if (!cursor.gotoParent()) return;
      const popped = levels.pop()!;
      if (popped.type.endsWith("_statement") || popped.type === "decorated_definition") statements.pop();
      if (levels.length === 0) return;
    }
  }
}

function bindingKind(levels: Level[]): BindingKind {
  for (let i = levels.length - 1; i >= 0; i--) {
    const type = levels[i].type;
    if (PARAMETER_LISTS.has(type) || type.endsWith("_parameter")) return "parameter";
    if (type === "for_statement" || type === "for_in_clause") return "loop";
    if (type === "as_pattern_target") return "alias";
    if (type === "named_expression") return "walrus";
    if (type === "assignment" || type === "augmented_assignment") return "assignment";
    if (type === "case_pattern" || type === "keyword_pattern") return "pattern";
    if (!PATTERN_CONTAINERS.has(type)) break;
  }
  return "assignment";
}

/** The names an import statement binds. */
function importBindings(statement: Node, scope: Scope): void {
  const isFrom = statement.type === "import_from_statement";
  const moduleNode = isFrom ? statement.childForFieldName("module_name") : null;
  const module = moduleNode?.text;
  for (const child of statement.namedChildren) {
    if (!child) continue;
    if (child.type === "wildcard_import") {
      scope.starImport = true;
      continue;
    }
    if (moduleNode && child.id === moduleNode.id) continue;
    let nameNode: Node | null = null;
    let fullName = "";
    if (child.type === "aliased_import") {
      nameNode = child.childForFieldName("alias");
      fullName = child.childForFieldName("name")?.text ?? "";
    } else if (child.type === "dotted_name") {
      nameNode = isFrom ? child : child.namedChild(0);
      fullName = child.text;
    }
    if (!nameNode) continue;
    addBinding(scope, {
      name: nameNode.text,
      kind: "import",
      start: nameNode.startIndex,
      end: nameNode.endIndex,
      line: nameNode.startPosition.row + 1,
      module: isFrom ? module : fullName,
      imported: isFrom ? fullName : undefined,
      statementStart: statement.startIndex,
      statementEnd: statement.endIndex,
    });
  }
}

// ---------------------------------------------------------------------------
// Scopes at a point and name resolution

/**
 * The scopes enclosing `node`, innermost first, ending with the module. A
 * function's decorators, defaults, annotations and name, a class's bases and
 * a comprehension's first iterable belong to the enclosing scope.
 */
export function scopeChainAt(doc: Document, node: Node): Scope[] {
  const path: Node[] = [];
  for (let current: Node | null = node; current; current = current.parent) path.push(current);
  // path: node ... root. Walk from the root down, opening scopes.
  let scope = moduleScope(doc);
  const chain = [scope];
  for (let i = path.length - 2; i >= 1; i--) {
    const ancestor = path[i];
    const child = path[i - 1];
    const typeParameters = typeParameterList(ancestor);
    if (typeParameters && inAnnotationScope(ancestor, path, i)) {
      scope = scopeFor(doc, typeParameters, scope);
      chain.push(scope);
    }
    if (!SCOPE_TYPES.has(ancestor.type)) continue;
    if (!entersScope(ancestor, child)) continue;
    scope = scopeFor(doc, ancestor, scope);
    chain.push(scope);
  }
  // a node that is itself a scope (e.g. asking at a lambda) opens no scope
  return chain.reverse();
}

function entersScope(scopeNode: Node, child: Node): boolean {
  const type = scopeNode.type;
  if (type === "function_definition" || type === "class_definition" || type === "lambda") {
    const body = scopeNode.childForFieldName("body");
    if (body && body.id === child.id) return true;
    if (type !== "class_definition") {
      const parameters = scopeNode.childForFieldName("parameters");
      // parameter names are the function's; defaults and annotations are not references here
      if (parameters && parameters.id === child.id) return false;
    }
    return false;
  }
  // comprehension: everything but the first for-clause's iterable
  const first = scopeNode.namedChildren.find((c) => c?.type === "for_in_clause");
  if (first && first.id === child.id) return false;
  return true;
}

/**
 * How `name` resolves at `node` (Python LEGB: local, enclosing functions,
 * module, builtins; class scopes only for code directly in the class body;
 * `global`/`nonlocal` honoured; a star import makes a miss "unknown").
 */
export function resolveName(doc: Document, name: string, node: Node): Resolution {
  const chain = scopeChainAt(doc, node);
  return resolveInChain(chain, name);
}

/** Resolve `name` through a scope chain (innermost first). */
export function resolveInChain(chain: readonly Scope[], name: string): Resolution {
  const module = chain[chain.length - 1];
  for (let i = 0; i < chain.length; i++) {
    const scope = chain[i];
    // a class body is invisible from the scopes nested in it, but for a name used directly in
    // one of their type parameter (annotation) scopes
    if (i > 0 && scope.kind === "class" && !(i === 1 && chain[0].kind === "annotation")) continue;
    if (scope.globals.has(name)) return resolveGlobal(module, name);
    if (scope.nonlocals.has(name)) continue;
    const bindings = scope.bindings.get(name);
    if (bindings && bindings.length > 0) return { status: "bound", binding: bindings[0], scope };
  }
  return resolveBuiltin(module, name);
}

function resolveGlobal(module: Scope, name: string): Resolution {
  const bindings = module.bindings.get(name);
  if (bindings && bindings.length > 0) return { status: "bound", binding: bindings[0], scope: module };
  // `global x` in a function with an assignment binds x at module level
  return resolveBuiltin(module, name, true);
}

function resolveBuiltin(module: Scope, name: string, declaredGlobal = false): Resolution {
  if (PYTHON_BUILTINS.has(name)) return { status: "builtin" };
  if (module.declaredGlobal?.has(name)) return { status: "bound", scope: module };
  if (module.starImport) return { status: "unknown" };
  if (declaredGlobal) return { status: "unknown" };
  return { status: "missing" };
}

// ---------------------------------------------------------------------------
// Occurrences of a name

/** Offsets of whole-word occurrences of `name` in `text`, optionally within [from, to). */
export function wordOccurrences(text: string, name: string, from = 0, to = text.length): number[] {
  const out: number[] = [];
  if (!name) return out;
  for (let i = text.indexOf(name, from); i !== -1 && i + name.length <= to; i = text.indexOf(name, i + 1)) {
    if (isWordChar(text.charCodeAt(i - 1)) || isWordChar(text.charCodeAt(i + name.length))) continue;
    out.push(i);
  }
  return out;
}

function isWordChar(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) ||
    code === 95 || code === 36 || code > 127;
}

/** The ancestor levels of `node` (see `classifyName`), up to `max` levels. */
export function levelsOf(node: Node, max = 8): Level[] {
  const levels: Level[] = [];
  let child = node;
  for (let parent = node.parent; parent && levels.length < max; parent = parent.parent) {
    levels.push({ type: parent.type, field: fieldOf(parent, child) });
    child = parent;
  }
  return levels;
}

function fieldOf(parent: Node, child: Node): string | null {
  const cursor = parent.walk();
  let field: string | null = null;
  if (cursor.gotoFirstChild()) {
    do {
      if (
        cursor.startIndex === child.startIndex && cursor.endIndex === child.endIndex &&
        cursor.nodeType === child.type
      ) {
        field = cursorField(cursor, parent.type);
        break;
      }
    } while (cursor.gotoNextSibling());
  }
  cursor.delete();
  return field;
}

/** What an identifier node does (reference, binding, declaration, or none). */
export function roleOf(node: Node): NameRole {
  return classifyName(levelsOf(node));
}

/**
 * Every identifier occurrence of `name` in the document (or in [from, to)),
 * found by a text scan and a node lookup, with its role. Occurrences in
 * strings and comments are left out.
 */
export function occurrencesOf(
  doc: Document,
  name: string,
  range?: { from: number; to: number },
): Occurrence[] {
  const out: Occurrence[] = [];
  const root = doc.tree.rootNode;
  for (const offset of wordOccurrences(doc.file.text, name, range?.from, range?.to)) {
    const node = root.descendantForIndex(offset, offset + name.length);
    if (!node || node.startIndex !== offset || node.endIndex !== offset + name.length) continue;
    if (node.type !== "identifier") continue;
    out.push({ node, role: roleOf(node) });
  }
  return out;
}

/** References (reads) of `name` in the document that resolve to `binding`. */
export function referencesTo(doc: Document, binding: Binding): Node[] {
  const out: Node[] = [];
  for (const { node, role } of occurrencesOf(doc, binding.name)) {
    if (role !== "reference") continue;
    const resolution = resolveName(doc, binding.name, node);
    if (resolution.binding && sameBinding(resolution.binding, binding)) out.push(node);
  }
  return out;
}

/** Whether two bindings are one name in one scope (the first binding stands for all of them). */
export function sameBinding(a: Binding, b: Binding): boolean {
  return a.name === b.name && a.start === b.start;
}

/** The scope that a binding identifier `node` binds in, and its binding record. */
export function bindingAt(doc: Document, node: Node): { scope: Scope; binding: Binding } | undefined {
  const name = node.text;
  const chain: Scope[] = [];
  for (let current = node.parent; current; current = current.parent) {
    if (SCOPE_TYPES.has(current.type)) chain.push(scopeOfNode(doc, current));
    else if (
      current.type === "type_parameter" && current.parent &&
      typeParameterList(current.parent)?.id === current.id
    ) {
      chain.push(scopeChainAt(doc, current)[0]);
    } else if (current.type === "generic_type" && current.parent?.parent?.type === "type_alias_statement") {
      const list = typeParameterList(current.parent.parent);
      if (list) chain.push(scopeChainAt(doc, list)[0]);
    }
  }
  chain.push(moduleScope(doc));
  for (const scope of chain) {
    const bindings = scope.bindings.get(name);
    const own = bindings?.find((b) => b.start === node.startIndex);
    if (own && bindings) return { scope, binding: bindings[0] };
    if (scope.globals.has(name)) {
      const module = chain[chain.length - 1];
      const global = module.bindings.get(name);
      if (global) return { scope: module, binding: global[0] };
    }
  }
  return undefined;
}

/**
 * Every scope node strictly inside `scope` (nested functions, classes,
 * lambdas, comprehensions, and the type parameter lists of PEP 695
 * annotation scopes), outermost first.
 */
export function innerScopeNodes(scope: Scope): Node[] {
  const out: Node[] = [];
  const cursor = scope.node.walk();
  let depth = 0;
  if (!cursor.gotoFirstChild()) {
    cursor.delete();
    return out;
  }
  depth = 1;
  for (;;) {
    const type = cursor.nodeType;
    let descend = true;
    if (SCOPE_TYPES.has(type) || type === "type_alias_statement") {
      // a def's, class's or alias's type parameters are a scope around it (an annotation scope)
      const list = typeParameterList(cursor.currentNode);
      if (list) out.push(list);
    }
    if (SCOPE_TYPES.has(type)) {
      out.push(cursor.currentNode);
      descend = false;
    } else if (type === "identifier" || type === "string" || type === "comment") {
      descend = false;
    }
    if (descend && cursor.gotoFirstChild()) {
      depth++;
      continue;
    }
    while (!cursor.gotoNextSibling()) {
      if (!cursor.gotoParent() || --depth === 0) {
        cursor.delete();
        return out;
      }
    }
  }
}

/** The scope object for a scope node (nested under its enclosing chain). */
export function scopeOfNode(doc: Document, scopeNode: Node): Scope {
  if (scopeNode.type === "module") return moduleScope(doc);
  const body = scopeNode.childForFieldName("body") ?? scopeNode.namedChild(scopeNode.namedChildCount - 1);
  const chain = body ? scopeChainAt(doc, body) : [];
  const found = chain.find((scope) => scope.node.id === scopeNode.id);
  return found ?? scopeFor(doc, scopeNode, chain[0] ?? moduleScope(doc));
}
