/**
 * `rename_identifier` in JavaScript, TypeScript, Go, Rust and Java: rename
 * one binding and exactly its uses within the file, by lexical scope.
 *
 * ## Which names are bindings
 *
 * The per-language name rules (`analysis/names/`) say which name tokens
 * define a name (a function, type, variable, constant or parameter). The
 * target is such a definition, or a use that resolves to one.
 *
 * ## Scopes
 *
 * A definition's scope is the node that owns it: a parameter's is its
 * function (or closure); a JavaScript `var`'s its function; any other's the
 * nearest block, loop or clause around its name (`{ ... }`, `for`, `if` in
 * Go, `catch`, a match arm), else the file. Definitions of one name in the
 * same scope are one variable (Go's `x, err :=` again, Rust's `let x` shadowing
 * in one block): they are renamed together, which keeps the code as correct
 * as it was.
 *
 * A name token resolves to the definition of its spelling whose scope
 * contains it and is innermost. Tokens in member position (`o.name`,
 * `this.name`, a field, a property key, a Java method call) are not
 * variables and are never renamed; a shorthand (`{ name }`, Rust's `Point {
 * x }`) that resolves to the binding becomes `name: new_name`.
 *
 * ## Refused
 *
 * - **Members**: a method, field or property (a Java method or field, a Rust
 *   method in an `impl`, a JavaScript class member), reached through
 *   receivers this model does not follow: `rename-unsupported`.
 * - **Collisions** (`rename-collision`): the new name is already defined in
 *   the same scope; a renamed use would be captured by a definition of the
 *   new name in an inner scope; or an existing use of the new name inside
 *   the binding's scope, which now means something else (an outer binding,
 *   an import, a global), would be captured by the renamed binding.
 * - A new name that is not an identifier or is a keyword (`rename-invalid-name`,
 *   `rename-keyword`).
 *
 * Other files are not edited: a top-level binding other files may use (Go's
 * exported names, a JavaScript `export`, Rust's `pub`, a non-private Java
 * type) gets a `rename-exported` warning; verification's cross-file checks
 * (JS/TS modules, Go packages) see what the rename left dangling.
 *
 * @module
 */

import { error, fail, type Issue, IssueError, warning } from "../../base/issue.ts";
import { fileNames, nameRules } from "../../analysis/names/mod.ts";
import { checkNewName } from "../../analysis/rename_safety.ts";
import type { Document } from "../../parse/documents.ts";
import type { Node } from "../../parse/mod.ts";
import type { StepContext } from "../operator.ts";
import type { TextEdit } from "../text_edit.ts";
import { describe } from "./units.ts";

/** The languages this module renames in. */
export const BRACED_RENAME_LANGUAGES: readonly string[] = [
  "javascript",
  "typescript",
  "tsx",
  "go",
  "rust",
  "java",
];

const FUNCTION =
  /^(function_declaration|function_expression|function|generator_function_declaration|generator_function|arrow_function|method_definition|method_declaration|constructor_declaration|func_literal|function_item|closure_expression|lambda_expression)$/;
const SCOPE =
  /^(program|source_file|statement_block|block|class_body|declaration_list|for_statement|for_in_statement|for_expression|while_let_expression|if_let_expression|if_statement|switch_statement|expression_switch_statement|type_switch_statement|communication_case|expression_case|type_case|default_case|catch_clause|match_arm|enhanced_for_statement|try_with_resources_statement|switch_block_statement_group|constructor_body|interface_body|enum_body)$/;
const MEMBER_FIELDS = new Set(["property", "field"]);
const MEMBER_TOKENS = /^(property_identifier|private_property_identifier|field_identifier)$/;

/** One renamed binding: its spelling, the definitions that make it, and their scope. */
interface Variable {
  name: string;
  scope: Node;
  definitions: Node[];
}

/** The scope of a definition token (see the module notes). */
function scopeOf(token: Node, language: string): Node {
  const parent = token.parent;
  // a parameter, also the lone one of `x => ...` (JS) and `x -> ...` (Java)
  const parameter = parent && (/parameter/.test(parent.type) || /parameter/.test(parent.parent?.type ?? "") ||
    parent.type === "arrow_function" || parent.type === "lambda_expression");
  const hoisted = language !== "go" && language !== "rust" && language !== "java" &&
    ancestors(token).find((up) => up.type === "variable_declaration" || FUNCTION.test(up.type))?.type ===
      "variable_declaration";
  for (const up of ancestors(token)) {
    if ((parameter || hoisted) && FUNCTION.test(up.type)) return up;
    if (!parameter && !hoisted && SCOPE.test(up.type)) return up;
  }
  let root = token;
  while (root.parent) root = root.parent;
  return root;
}

function* ancestors(node: Node): Generator<Node> {
  for (let up = node.parent; up; up = up.parent) yield up;
}

function contains(outer: Node, inner: Node): boolean {
  return outer.startIndex <= inner.startIndex && inner.endIndex <= outer.endIndex;
}

/** Whether a token stands for a member (`o.name`, a field or property, a Java method call), not a variable. */
function inMemberPosition(token: Node, language: string): boolean {
  if (MEMBER_TOKENS.test(token.type)) return true;
  const parent = token.parent;
  if (!parent) return false;
  for (const field of MEMBER_FIELDS) if (parent.childForFieldName(field)?.id === token.id) return true;
  if (language === "java" && parent.type === "method_invocation") {
    return parent.childForFieldName("name")?.id === token.id;
  }
  return false;
}

/** Whether a definition is a class or impl member, which this module does not rename. */
function isMember(token: Node, language: string): boolean {
  const parent = token.parent;
  if (!parent) return false;
  if (language === "java") {
    return parent.type === "method_declaration" ||
      (parent.type === "variable_declarator" && parent.parent?.type === "field_declaration");
  }
  if (language === "rust") {
    return parent.type === "function_item" && parent.parent?.type === "declaration_list";
  }
  return /^(method_definition|public_field_definition|field_definition|method_signature|property_signature)$/
    .test(parent.type);
}

/** The tokens of a tree that are names under the rules, by spelling. */
function tokensByName(root: Node, types: ReadonlySet<string>): Map<string, Node[]> {
  const out = new Map<string, Node[]>();
  const walk = (node: Node) => {
    if (types.has(node.type)) {
      const list = out.get(node.text) ?? [];
      list.push(node);
      out.set(node.text, list);
      return;
    }
    for (const child of node.children) if (child) walk(child);
  };
  walk(root);
  return out;
}

/** The definitions of `name` grouped into variables by scope. */
function variablesOf(definitions: Node[], language: string): Variable[] {
  const out: Variable[] = [];
  for (const definition of definitions) {
    const scope = scopeOf(definition, language);
    const same = out.find((variable) => variable.scope.id === scope.id);
    if (same) same.definitions.push(definition);
    else out.push({ name: definition.text, scope, definitions: [definition] });
  }
  return out;
}

/** The variable a token of its spelling resolves to: the innermost whose scope holds it. */
function resolve(token: Node, variables: Variable[]): Variable | undefined {
  let best: Variable | undefined;
  for (const variable of variables) {
    if (!contains(variable.scope, token)) continue;
    if (!best || contains(best.scope, variable.scope)) best = variable;
  }
  return best;
}

/** The name token a target node stands for: itself, its name, or the first definition inside it. */
function targetToken(
  node: Node,
  types: ReadonlySet<string>,
  isDefinition: (token: Node) => boolean,
): Node | undefined {
  if (types.has(node.type)) return node;
  const named = node.childForFieldName("name") ?? node.childForFieldName("pattern");
  if (named && types.has(named.type)) return named;
  let found: Node | undefined;
  const walk = (at: Node) => {
    if (found) return;
    if (types.has(at.type) && isDefinition(at)) found = at;
    for (const child of at.children) if (child) walk(child);
  };
  walk(node);
  return found;
}

function line(node: Node): number {
  return node.startPosition.row + 1;
}

/** Whether a top-level binding may be used by other files (see the module notes). */
function exported(variable: Variable, language: string): boolean {
  if (variable.scope.parent) return false;
  const definition = variable.definitions[0];
  if (language === "go") return /^\p{Lu}/u.test(variable.name);
  const statement = ancestors(definition).find((up) => up.parent?.id === variable.scope.id);
  const text = statement?.text ?? "";
  if (language === "rust") return /^pub\b/.test(text);
  if (language === "java") return !/^(private\b|.*\sprivate\s)/.test(text.split("\n")[0]);
  return statement?.type === "export_statement";
}

/**
 * Rename the binding `node` stands for in a JS/TS/Go/Rust/Java file (see the
 * module notes); the step's edits go through `ctx`. Returns what was renamed.
 */
export async function renameBraced(
  ctx: StepContext,
  doc: Document,
  node: Node,
  newName: string,
): Promise<{ old_name: string; new_name: string; renamed: number; lines: number[] }> {
  const file = doc.file.path;
  const language = doc.file.language;
  const rules = nameRules(language)!;
  const invalid = checkNewName(newName, language);
  if (invalid.length > 0) {
    throw new IssueError(invalid.map((issue) => ({ ...issue, file, path: ["params", "new_name"] })));
  }
  const names = fileNames(doc.tree, rules);
  const definitionIds = new Set([...names.definitions.values()].flat().map((definition) => definition.id));
  const token = targetToken(node, rules.names, (at) => definitionIds.has(at.id));
  if (!token) {
    fail("rename-target-invalid", `Cannot rename ${describe(node)}: it is not a name or a definition`, {
      file,
      line: line(node),
      hint: "target the definition (a function, type, variable or parameter) or a use of it",
    });
  }
  const oldName = token.text;
  const variables = variablesOf(names.definitions.get(oldName) ?? [], language);
  const variable = definitionIds.has(token.id)
    ? variables.find((candidate) => candidate.definitions.some((definition) => definition.id === token.id))
    : inMemberPosition(token, language)
    ? undefined
    : resolve(token, variables);
  if (!variable) {
    fail(
      "rename-target-invalid",
      `Cannot rename "${oldName}" at line ${line(token)}: no definition of it in "${file}"`,
      {
        file,
        line: line(token),
        hint: "rename where the name is defined; a member (o.name) or an imported name is not renamed here",
      },
    );
  }
  if (variable.definitions.some((definition) => isMember(definition, language))) {
    fail(
      "rename-unsupported",
      `Cannot rename the member "${oldName}" at line ${
        line(variable.definitions[0])
      } in ${language}: its uses go through receivers, which are not followed`,
      {
        file,
        line: line(variable.definitions[0]),
        hint: "use rename_symbol (by spelling) or replace_all_matching",
      },
    );
  }
  const tokens = tokensByName(doc.tree.rootNode, rules.names);
  const ours = (tokens.get(oldName) ?? []).filter((at) =>
    !inMemberPosition(at, language) &&
    (definitionIds.has(at.id)
      ? variable.definitions.some((d) => d.id === at.id)
      : resolve(at, variables) === variable)
  );
  const issues = collisions(variable, ours, tokens.get(newName) ?? [], {
    newVariables: variablesOf(names.definitions.get(newName) ?? [], language),
    language,
    file,
  });
  if (issues.length) throw new IssueError(issues);
  const edits: TextEdit[] = ours.map((at) => ({
    start: at.startIndex,
    end: at.endIndex,
    replacement: at.type.startsWith("shorthand_") ? `${oldName}: ${newName}` : newName,
  }));
  if (exported(variable, language)) {
    ctx.warnings.push(warning(
      "rename-exported",
      `"${oldName}" may be used by other files, which rename_identifier does not change in ${language}`,
      { file, line: line(variable.definitions[0]), step: ctx.step },
    ));
  }
  await ctx.edit(file, "rename_identifier", edits, edits.map(() => "identifier"));
  return { old_name: oldName, new_name: newName, renamed: edits.length, lines: [...new Set(ours.map(line))] };
}

/** The collisions of renaming `variable` (its tokens `ours`) to a name whose tokens are `theirs`. */
function collisions(
  variable: Variable,
  ours: Node[],
  theirs: Node[],
  context: { newVariables: Variable[]; language: string; file: string },
): Issue[] {
  const { newVariables, language, file } = context;
  const issue = (message: string, at: Node) =>
    error("rename-collision", message, {
      file,
      line: line(at),
      hint: "choose another name, or rename the other binding first",
    });
  const out: Issue[] = [];
  const newName = theirs[0]?.text;
  const same = newVariables.find((other) => other.scope.id === variable.scope.id);
  if (same) {
    out.push(
      issue(
        `"${newName}" is already defined in the same scope, at line ${line(same.definitions[0])}`,
        same.definitions[0],
      ),
    );
    return out;
  }
  for (const at of ours) {
    const captor = resolve(at, newVariables);
    if (captor && contains(variable.scope, captor.scope) && captor.scope.id !== variable.scope.id) {
      out.push(issue(
        `Renaming "${variable.name}" to "${newName}" would make its use at line ${
          line(at)
        } refer to the "${newName}" defined at line ${line(captor.definitions[0])}`,
        at,
      ));
      return out;
    }
  }
  for (const at of theirs) {
    if (inMemberPosition(at, language) || !contains(variable.scope, at)) continue;
    const meant = resolve(at, newVariables);
    if (meant && contains(variable.scope, meant.scope)) continue; // bound inside: unaffected
    out.push(issue(
      `Renaming "${variable.name}" to "${newName}" would capture the use of "${newName}" at line ${line(at)}${
        meant ? `, defined at line ${line(meant.definitions[0])}` : ""
      }`,
      at,
    ));
    return out;
  }
  return out;
}
