/**
 * Name rules of Go (`analysis/names/mod.ts`). Definitions: functions,
 * types, constants, variables (`var`, `:=`, `range`), parameters, imports
 * with a name. Uses: a callee, arguments, operands, returned values, the
 * operand of a selector (`x` in `x.F`), a type in a declaration or literal.
 * A method counts where its receiver's type is a struct of the file that
 * embeds nothing; `x.m()` is a call through a receiver (`receivers.ts`),
 * `pkg.F()` on an import never the file's. Scope is the file, not the package: a name another file of
 * the package defines is no definition here, so a use of it was never
 * counted against a definition of this file.
 *
 * @module
 */

import type { Node } from "../../parse/mod.ts";
import { EXPRESSION_USES, isCallee, type NameRules, type Receiver, typeOfHolder } from "./rules.ts";

/** The names the file's imports bind (`fmt`, an alias): a selector on one reaches another package. */
function importNames(root: Node): Set<string> {
  const out = new Set<string>();
  for (const spec of root.descendantsOfType("import_spec")) {
    const alias = spec?.childForFieldName("name")?.text;
    const path = spec?.childForFieldName("path")?.text.slice(1, -1);
    if (alias) out.add(alias);
    else if (path) out.add(path.split("/").pop()!.replace(/^go-|\.v\d+$|-go$/g, ""));
  }
  return out;
}

const imports = new WeakMap<Node["tree"], Set<string>>();

/** The receiver of `x.m()` (`name` is `m`): a package, a variable, or another expression. */
function receiver(name: Node, parent: Node, field: string | null): Receiver | undefined {
  if (parent.type !== "selector_expression" || field !== "field" || !isCallee(parent)) return undefined;
  const operand = parent.childForFieldName("operand");
  if (operand?.type !== "identifier") return { kind: "expression" };
  let names = imports.get(name.tree);
  if (!names) imports.set(name.tree, names = importNames(name.tree.rootNode));
  return names.has(operand.text) ? { kind: "foreign" } : { kind: "value", name: operand.text };
}

/** A method counts only where its receiver's type is a struct of the file that embeds nothing (else a promoted method may answer). */
function ownMethod(method: Node): boolean {
  const type = typeName(
    method.childForFieldName("receiver")?.namedChildren[0]?.childForFieldName("type")?.text,
  );
  if (!type) return false;
  for (const spec of method.tree.rootNode.descendantsOfType("type_spec")) {
    if (spec?.childForFieldName("name")?.text !== type) continue;
    const body = spec.childForFieldName("type");
    if (body?.type !== "struct_type") return body?.type !== "interface_type";
    return !body.descendantsOfType("field_declaration").some((f) => f?.childForFieldName("name") === null);
  }
  return false;
}

function typeName(text: string | undefined): string | undefined {
  return text?.replace(/\[.*$/, "").replace(/^\*/, "");
}

/** Methods of the standard library's interfaces every type may implement. */
const KNOWN =
  "String Error Close Read Write Len Less Swap Lock Unlock RLock RUnlock Done Err Value Deadline ServeHTTP Get Set Add Del Wait Reset Bytes WriteString ReadFrom WriteTo MarshalJSON UnmarshalJSON MarshalText UnmarshalText Format Unwrap Is As Header Next Scan"
    .split(" ");

const BINDS_LIST = new Set(["short_var_declaration", "range_clause"]);

/** Go. */
export const GO_RULES: NameRules = {
  names: new Set(["identifier", "type_identifier", "field_identifier", "package_identifier"]),
  definitions: {
    function_declaration: ["name"],
    type_spec: ["name"],
    type_alias: ["name"],
    const_spec: ["name"],
    var_spec: ["name"],
    parameter_declaration: ["name"],
    variadic_parameter_declaration: ["name"],
    type_parameter_declaration: ["name"],
    expression_list: "*",
    method_declaration: ["name"],
    method_elem: ["name"],
    method_spec: ["name"],
  },
  countsAsDefinition: (_name: Node, parent: Node) =>
    parent.type === "method_declaration"
      ? ownMethod(parent)
      : parent.type !== "expression_list" || BINDS_LIST.has(parent.parent?.type ?? ""),
  uses: {
    ...EXPRESSION_USES,
    call_expression: ["function"],
    selector_expression: ["operand"],
    index_expression: ["operand", "index"],
    composite_literal: ["type"],
    keyed_element: "*",
    literal_element: "*",
    literal_value: "*",
    var_spec: ["type", "value"],
    parameter_declaration: ["type"],
    pointer_type: "*",
    slice_type: ["element"],
    field_declaration: ["type"],
    if_statement: ["condition"],
    expression_statement: "*",
  },
  receiver,
  memberAccess: { selector_expression: ["field", "operand"] },
  types: new Set(["type_spec", "type_alias"]),
  declaredType: (name) =>
    typeName(
      typeOfHolder(name, new Set(["parameter_declaration", "var_spec", "variadic_parameter_declaration"]), 1),
    ),
  knownMethods: new Set(KNOWN),
  selfReachesOtherFiles: true,
  undeclaredIsForeign: true,
};
