/**
 * `rename_identifier`: rename one binding and exactly its uses (Python here;
 * the braced languages in `rename_braced.ts`).
 *
 * The target is the binding or any use of it: an identifier, or a node that
 * names one (a function or class, a parameter, an assignment, an import, an
 * attribute `self.x`). What gets renamed is decided by the scope model in
 * `analysis/scope.ts`:
 *
 * 1. The target identifier resolves to a *variable*: the first binding of
 *    the name in the scope that owns it (LEGB, class bodies not visible from
 *    their methods, comprehensions and lambdas scopes of their own,
 *    `global`/`nonlocal` sending the name to the module / an enclosing
 *    function).
 * 2. Every identifier spelled like it in the file is resolved the same way;
 *    those that resolve to the same variable are renamed: its bindings
 *    (every assignment in that scope, and assignments in functions that
 *    declare it `global`/`nonlocal`), its references, and the names in
 *    `global`/`nonlocal` statements. An unrelated binding of the same name
 *    in another scope (a local shadowing a module name, a comprehension
 *    variable) resolves elsewhere and is left alone.
 * 3. Imports: `import x` / `from m import x` become `import x as new` /
 *    `from m import x as new` (the module's name is not the binding's to
 *    change); an alias is renamed in place; `import a.b` (which binds `a`)
 *    is not supported.
 * 4. Class members. When the variable is bound in a class body (a method, a
 *    class attribute, a nested class) or the target is `self.name` with no
 *    class-level binding (an instance attribute), attribute uses are
 *    followed too, but only these: `self.name` / `cls.name` where `self` /
 *    `cls` is the first parameter of a method (not a staticmethod) defined
 *    directly in that class, and `ClassName.name` where `ClassName`
 *    resolves to the class. Not followed: attributes on other objects,
 *    `super().name`, subclasses' `self.name`, other files, and names in
 *    strings (`getattr(self, "name")`): a warning (`rename-unfollowed`)
 *    lists the lines of other `.name` attributes in the file.
 *
 * Strings and comments are never renamed unless `include_strings` /
 * `include_comments` is true; then whole-word occurrences inside string
 * literals / comments in the binding's scope (the whole file for a module
 * or class binding) are renamed too. Code inside f-string interpolations is
 * code and is always renamed. When the name appears in strings and
 * `include_strings` is off, a warning (`rename-strings-unchanged`) says
 * where (think `__all__`).
 *
 * Safety (`analysis/rename_safety.ts`): the new name must be an identifier
 * and not a keyword (`rename-invalid-name`, `rename-keyword`); a collision
 * with a binding visible where the renamed one is used, or a capture of an
 * existing use, is an error (`rename-collision`), as is a class member
 * renamed to an attribute name the class already uses; shadowing or being
 * shadowed is a warning (`rename-shadows`, `rename-shadowed`). A renamed
 * parameter that calls in the file pass by keyword warns
 * (`rename-keyword-arguments`): call sites are not renamed.
 *
 * Other files: a module-level name that other files of the repository
 * import (`from m import old`, `m.old`) is renamed there too with
 * `"scope": "repository"`, in the same step (all files or none; see
 * `rename_imports.ts`). With the default `"scope": "file"`, renaming such a
 * name is an error (`rename-imported-elsewhere`) that lists the importing
 * uses: the rename would break them.
 *
 * JavaScript, TypeScript, Go, Rust and Java: `rename_braced.ts`, by lexical
 * scope within the file. Other languages: `not-supported` (use the legacy
 * `rename_symbol`, which renames by spelling per file).
 *
 * @module
 */

import { error, fail, type Issue, IssueError, warning } from "../../base/issue.ts";
import { ownerOf } from "../../locate/mod.ts";
import type { Document } from "../../parse/documents.ts";
import type { Node } from "../../parse/mod.ts";
import { bindingCollisions, checkNewName } from "../../analysis/rename_safety.ts";
import {
  type Binding,
  bindingAt,
  occurrencesOf,
  resolveInChain,
  resolveName,
  roleOf,
  sameBinding,
  type Scope,
} from "../../analysis/scope.ts";
import type { OperatorFn, StepContext } from "../operator.ts";
import { importerEdits, importingPlaces } from "./rename_imports.ts";
import type { TextEdit } from "../text_edit.ts";
import { flagParam, locatedParam, stringParam } from "./params.ts";
import { BRACED_RENAME_LANGUAGES, renameBraced } from "./rename_braced.ts";
import { describe, unwrap } from "./units.ts";

/** What a rename renames: a binding in a scope, and/or attributes of a class. */
interface Variable {
  binding?: Binding;
  scope?: Scope;
  /** The class whose member it is (a class-scope binding or an instance attribute). */
  cls?: Node;
}

/** The identifier a target node stands for. */
function identifierOf(node: Node): Node | undefined {
  const inner = unwrap(node);
  if (inner.type === "identifier") return inner;
  const named = inner.childForFieldName("name") ?? inner.childForFieldName("alias");
  if (named?.type === "identifier") return named;
  if (inner.type === "attribute") return inner.childForFieldName("attribute") ?? undefined;
  if (
    inner.type === "typed_parameter" || inner.type === "list_splat_pattern" ||
    inner.type === "dictionary_splat_pattern"
  ) {
    const first = inner.namedChild(0);
    return first?.type === "identifier" ? first : undefined;
  }
  if (inner.type === "dotted_name" && inner.namedChildCount === 1) return inner.namedChild(0) ?? undefined;
  const assignment = inner.type === "expression_statement" ? inner.namedChild(0) : inner;
  if (assignment?.type === "assignment" || assignment?.type === "augmented_assignment") {
    const left = assignment.childForFieldName("left");
    if (left?.type === "identifier") return left;
    if (left?.type === "attribute") return left.childForFieldName("attribute") ?? undefined;
  }
  return undefined;
}

function inImport(node: Node): boolean {
  for (let up = node.parent; up; up = up.parent) {
    if (up.type === "import_statement" || up.type === "import_from_statement") return true;
    if (up.type.endsWith("_statement") || up.type === "module") return false;
  }
  return false;
}

/** The scope chain from `scope` outwards. */
function chainFrom(scope: Scope): Scope[] {
  const chain: Scope[] = [];
  for (let s: Scope | undefined = scope; s; s = s.parent) chain.push(s);
  return chain;
}

/** The binding an identifier belongs to (any role), or undefined. */
function bindingOf(doc: Document, id: Node): { binding: Binding; scope: Scope } | undefined {
  const role = roleOf(id);
  if (role === "none") {
    if (!inImport(id)) return undefined;
    const found = bindingAt(doc, id);
    return found && found.binding.kind === "import" ? found : undefined;
  }
  if (role === "binding") {
    const found = bindingAt(doc, id);
    if (!found) return undefined;
    const resolution = resolveInChain(chainFrom(found.scope), id.text);
    return resolution.binding && resolution.scope
      ? { binding: resolution.binding, scope: resolution.scope }
      : undefined;
  }
  const resolution = resolveName(doc, id.text, id);
  return resolution.binding && resolution.scope
    ? { binding: resolution.binding, scope: resolution.scope }
    : undefined;
}

/** The class an attribute `obj.name` is a member access of, when we follow it (see the module doc). */
function followedClass(doc: Document, attribute: Node): Node | undefined {
  const object = attribute.childForFieldName("object");
  if (object?.type !== "identifier") return undefined;
  const resolution = resolveName(doc, object.text, object);
  const binding = resolution.binding;
  if (!binding || !resolution.scope) return undefined;
  const scopeNode = resolution.scope.node;
  if (binding.kind === "class") {
    const cls = doc.tree.rootNode.descendantForIndex(binding.statementStart, binding.statementEnd);
    return cls?.type === "class_definition"
      ? cls
      : cls?.parent?.type === "class_definition"
      ? cls.parent
      : undefined;
  }
  if (binding.kind !== "parameter" || scopeNode.type !== "function_definition") return undefined;
  const first = scopeNode.childForFieldName("parameters")?.namedChildren.find((p) => p !== null);
  const firstName = first?.type === "identifier" ? first : first?.namedChild(0);
  if (!firstName || firstName.startIndex !== binding.start) return undefined;
  const wrapper = scopeNode.parent?.type === "decorated_definition" ? scopeNode.parent : undefined;
  if (wrapper?.namedChildren.some((d) => d?.type === "decorator" && /staticmethod/.test(d.text))) {
    return undefined;
  }
  const owner = ownerOf(scopeNode, "python");
  return owner ?? undefined;
}

/** The variable the target identifier stands for. */
function variableOf(doc: Document, id: Node): Variable {
  const file = doc.file.path;
  const line = id.startPosition.row + 1;
  const parent = id.parent;
  if (parent?.type === "attribute" && parent.childForFieldName("attribute")?.id === id.id) {
    const cls = followedClass(doc, parent);
    if (!cls) {
      fail(
        "rename-target-invalid",
        `Cannot rename attribute "${parent.text}": only "self.${id.text}", "cls.${id.text}" in a method and "ClassName.${id.text}" are followed`,
        { file, line, path: ["params", "target"], hint: "target the definition of the member instead" },
      );
    }
    const body = cls.childForFieldName("body");
    const own = body ? classBinding(doc, cls, id.text) : undefined;
    return own ? { ...own, cls } : { cls };
  }
  if (parent?.type === "keyword_argument" && parent.childForFieldName("name")?.id === id.id) {
    fail(
      "rename-target-invalid",
      `Cannot rename keyword argument "${id.text}": rename the parameter instead`,
      {
        file,
        line,
        path: ["params", "target"],
      },
    );
  }
  const found = bindingOf(doc, id);
  if (!found) {
    const status = resolveName(doc, id.text, id).status;
    fail(
      "rename-unresolved",
      `Cannot rename "${id.text}" at line ${line}: ${
        status === "builtin" ? "it is a builtin" : "it is not bound in this file"
      }`,
      { file, line, path: ["params", "target"] },
    );
  }
  return found.scope.kind === "class" ? { ...found, cls: found.scope.node } : found;
}

/** The class-scope binding of `name` in `cls`, if any. */
function classBinding(
  doc: Document,
  cls: Node,
  name: string,
): { binding: Binding; scope: Scope } | undefined {
  for (const { node, role } of occurrencesOf(doc, name, { from: cls.startIndex, to: cls.endIndex })) {
    if (role !== "binding") continue;
    const found = bindingOf(doc, node);
    if (found && found.scope.node.id === cls.id) return found;
  }
  return undefined;
}

/** Attribute nodes `obj.name` in the file, split into followed (of `cls`) and not. */
function attributeUses(
  doc: Document,
  cls: Node | undefined,
  name: string,
): { followed: Node[]; other: Node[] } {
  const followed: Node[] = [];
  const other: Node[] = [];
  for (const { node, role } of occurrencesOf(doc, name)) {
    if (role !== "none") continue;
    const parent = node.parent;
    if (parent?.type !== "attribute" || parent.childForFieldName("attribute")?.id !== node.id) continue;
    const owner = cls ? followedClass(doc, parent) : undefined;
    if (owner && cls && owner.id === cls.id) followed.push(node);
    else other.push(node);
  }
  return { followed, other };
}

/** The edit renaming an import binding's identifier. */
function importEdit(id: Node, newName: string, file: string): TextEdit {
  const parent = id.parent!;
  if (parent.type === "aliased_import" && parent.childForFieldName("alias")?.id === id.id) {
    return { start: id.startIndex, end: id.endIndex, replacement: newName };
  }
  if (parent.type === "dotted_name" && parent.namedChildCount > 1) {
    fail(
      "not-supported",
      `Cannot rename "${id.text}" bound by "import ${parent.text}": it binds the package`,
      {
        file,
        line: id.startPosition.row + 1,
        hint: `write "import ${parent.text} as NAME" with replace_node instead`,
      },
    );
  }
  const dotted = parent.type === "dotted_name" ? parent : id;
  return { start: dotted.startIndex, end: dotted.endIndex, replacement: `${dotted.text} as ${newName}` };
}

const WORD = (name: string) => new RegExp(`(?<![\\p{L}\\p{N}_])${name}(?![\\p{L}\\p{N}_])`, "gu");

/** Whole-word occurrences of `name` in string contents and comments within [from, to). */
function textOccurrences(doc: Document, name: string, range: { from: number; to: number }) {
  const strings: TextEdit[] = [];
  const comments: TextEdit[] = [];
  const visit = (node: Node) => {
    if (node.endIndex <= range.from || node.startIndex >= range.to) return;
    const isComment = node.type === "comment";
    if (isComment || node.type === "string_content") {
      for (const match of node.text.matchAll(WORD(name))) {
        const start = node.startIndex + match.index!;
        (isComment ? comments : strings).push({ start, end: start + name.length, replacement: "" });
      }
      return;
    }
    for (const child of node.children) if (child) visit(child);
  };
  visit(doc.tree.rootNode);
  return { strings, comments };
}

/** Warn about calls in the file that pass a renamed parameter by keyword. */
function keywordArgumentWarning(doc: Document, binding: Binding, scope: Scope): Issue | undefined {
  if (binding.kind !== "parameter" || scope.node.type !== "function_definition") return undefined;
  const fn = scope.node.childForFieldName("name")?.text;
  if (!fn) return undefined;
  const lines: number[] = [];
  for (const { node } of occurrencesOf(doc, binding.name)) {
    const kw = node.parent;
    if (kw?.type !== "keyword_argument" || kw.childForFieldName("name")?.id !== node.id) continue;
    const callee = kw.parent?.parent?.childForFieldName("function");
    const last = callee?.type === "attribute" ? callee.childForFieldName("attribute")?.text : callee?.text;
    if (last === fn) lines.push(node.startPosition.row + 1);
  }
  if (lines.length === 0) return undefined;
  return warning(
    "rename-keyword-arguments",
    `Calls to "${fn}" pass "${binding.name}" by keyword at line${lines.length > 1 ? "s" : ""} ${
      lines.join(", ")
    }: they are not renamed`,
    { file: doc.file.path, line: lines[0] },
  );
}

/** `rename_identifier`. */
export const renameIdentifier: OperatorFn = async (params, ctx) => {
  const newName = stringParam(params, "new_name");
  const includeStrings = flagParam(params, "include_strings");
  const includeComments = flagParam(params, "include_comments");
  const reach = reachParam(params);
  const { doc, node } = await locatedParam(ctx, params, { name: "target" });
  const file = doc.file.path;
  const language = doc.file.language;
  if (language !== "python" && BRACED_RENAME_LANGUAGES.includes(language)) {
    if (reach === "repository" || includeStrings || includeComments) {
      fail(
        "not-supported",
        `rename_identifier in ${language} renames within the file, in code only ("${file}")`,
        { path: ["params"], hint: 'leave out "scope", "include_strings" and "include_comments"' },
      );
    }
    return await renameBraced(ctx, doc, node, newName);
  }
  if (language !== "python") {
    fail("not-supported", `rename_identifier does not support ${language} ("${file}")`, {
      path: ["op"],
      hint: "use the legacy rename_symbol (renames by spelling in one file) or replace_all_matching",
    });
  }
  const invalid = checkNewName(newName, language);
  if (invalid.length > 0) {
    throw new IssueError(invalid.map((issue) => ({ ...issue, file, path: ["params", "new_name"] })));
  }
  const id = identifierOf(node);
  if (!id) {
    fail(
      "rename-target-invalid",
      `Cannot rename ${describe(node)}: it is not an identifier or a named definition`,
      {
        file,
        line: node.startPosition.row + 1,
        path: ["params", "target"],
        hint: 'target an identifier ({"kind": "identifier", "name": ...}) or a function, class, parameter',
      },
    );
  }
  const oldName = id.text;
  if (oldName === newName) {
    fail("rename-noop", `Cannot rename "${oldName}" to itself`, { file, path: ["params", "new_name"] });
  }
  const variable = variableOf(doc, id);
  const { binding, scope, cls } = variable;
  const issues: Issue[] = [];
  if (binding) {
    const bindingNode = doc.tree.rootNode.descendantForIndex(binding.start, binding.end);
    if (bindingNode) issues.push(...bindingCollisions(doc, bindingNode, newName));
  }
  const members = cls ? attributeUses(doc, cls, oldName) : { followed: [], other: [] };
  if (cls) {
    const clash = attributeUses(doc, cls, newName).followed[0] ??
      (binding ? undefined : classBinding(doc, cls, newName) && cls);
    if (clash) {
      issues.push(error(
        "rename-collision",
        `Cannot rename "${oldName}" to "${newName}": class "${
          cls.childForFieldName("name")?.text
        }" already has a member "${newName}" (line ${clash.startPosition.row + 1})`,
        { file, line: clash.startPosition.row + 1 },
      ));
    }
  }
  const errors = issues.filter((issue) => issue.severity === "error");
  if (errors.length > 0) {
    throw new IssueError(errors.map((issue) => ({ ...issue, path: ["params", "new_name"] })));
  }

  // Every identifier of the variable.
  const edits = new Map<number, TextEdit>();
  const kinds = new Map<number, string | undefined>();
  if (binding) {
    for (const occurrence of occurrencesOf(doc, oldName)) {
      const found = bindingOf(doc, occurrence.node);
      if (!found || !sameBinding(found.binding, binding)) continue;
      const at = occurrence.node.startIndex;
      if (occurrence.role === "none") {
        const edit = importEdit(occurrence.node, newName, file);
        edits.set(edit.start, edit);
        kinds.set(edit.start, undefined);
      } else {
        edits.set(at, { start: at, end: occurrence.node.endIndex, replacement: newName });
        kinds.set(at, "identifier");
      }
    }
  }
  for (const attribute of members.followed) {
    edits.set(attribute.startIndex, {
      start: attribute.startIndex,
      end: attribute.endIndex,
      replacement: newName,
    });
    kinds.set(attribute.startIndex, "identifier");
  }
  // Strings and comments.
  const whole = !scope || scope.kind === "module" || scope.kind === "class";
  const range = whole
    ? { from: 0, to: doc.file.text.length }
    : { from: scope.node.startIndex, to: scope.node.endIndex };
  const text = textOccurrences(doc, oldName, range);
  for (
    const [included, list] of [[includeStrings, text.strings], [includeComments, text.comments]] as const
  ) {
    if (!included) continue;
    for (const edit of list) {
      edits.set(edit.start, { ...edit, replacement: newName });
      kinds.set(edit.start, undefined);
    }
  }
  const warnings = issues.filter((issue) => issue.severity === "warning");
  if (!includeStrings && text.strings.length > 0) {
    const lines = [...new Set(text.strings.map((e) => lineAt(doc.file.text, e.start)))];
    warnings.push(warning(
      "rename-strings-unchanged",
      `"${oldName}" also appears in strings at line${lines.length > 1 ? "s" : ""} ${
        lines.slice(0, 10).join(", ")
      }: left unchanged`,
      { file, line: lines[0], hint: 'pass "include_strings": true to rename them too' },
    ));
  }
  if (cls && members.other.length > 0) {
    const lines = [...new Set(members.other.map((n) => n.startPosition.row + 1))];
    warnings.push(warning(
      "rename-unfollowed",
      `Attribute uses ".${oldName}" not known to be this class's member are left unchanged at line${
        lines.length > 1 ? "s" : ""
      } ${lines.slice(0, 10).join(", ")}`,
      { file, line: lines[0] },
    ));
  }
  if (binding && scope) {
    const keyword = keywordArgumentWarning(doc, binding, scope);
    if (keyword) warnings.push(keyword);
  }
  const ordered = [...edits.values()].sort((a, b) => a.start - b.start);
  const others = binding && scope?.kind === "module"
    ? await otherFiles(ctx, { file, oldName, newName, reach })
    : new Map<string, TextEdit[]>();
  await ctx.edit(file, "rename_identifier", ordered, ordered.map((edit) => kinds.get(edit.start)));
  for (const [path, list] of others) {
    await ctx.edit(path, "rename_identifier", list, list.map(() => "identifier"));
  }
  for (const issue of warnings) ctx.warnings.push({ ...issue, step: ctx.step });
  return {
    file,
    old_name: oldName,
    new_name: newName,
    renamed: ordered.length,
    lines: [...new Set(ordered.map((edit) => lineAt(doc.file.text, edit.start)))],
    scope: scope?.kind ?? "instance",
    files: [file, ...others.keys()],
  };
};

/** The `scope` parameter: `file` (default) or `repository`. */
function reachParam(params: Record<string, unknown>): "file" | "repository" {
  const value = params.scope ?? "file";
  if (value !== "file" && value !== "repository") {
    fail("param-invalid", `Parameter "scope" must be "file" or "repository", not ${JSON.stringify(value)}`, {
      path: ["params", "scope"],
    });
  }
  return value;
}

/**
 * The edits of other files for a module-level rename: with `repository`,
 * those of every importing file (their collision errors thrown, warnings
 * kept); with `file`, none, and an error when some file uses the name.
 */
async function otherFiles(
  ctx: StepContext,
  rename: { file: string; oldName: string; newName: string; reach: "file" | "repository" },
): Promise<Map<string, TextEdit[]>> {
  const { file, oldName, newName } = rename;
  if (rename.reach === "file") {
    const places = (await importingPlaces(ctx.store, file, oldName)).map((place) => `"${place}"`);
    if (places.length === 0) return new Map();
    fail(
      "rename-imported-elsewhere",
      `Cannot rename "${oldName}" in "${file}" alone: other files use it: ${places.slice(0, 10).join(", ")}${
        places.length > 10 ? ` and ${places.length - 10} more` : ""
      }`,
      {
        file,
        path: ["params", "scope"],
        hint: 'pass "scope": "repository" to rename it in those files too, in the same step',
      },
    );
  }
  const found = await importerEdits(ctx.store, file, { oldName, newName });
  const errors = found.issues.filter((issue) => issue.severity === "error");
  if (errors.length > 0) {
    throw new IssueError(errors.map((issue) => ({ ...issue, path: ["params", "new_name"] })));
  }
  for (const issue of found.issues) ctx.warnings.push({ ...issue, step: ctx.step });
  return found.edits;
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) line++;
  return line;
}
