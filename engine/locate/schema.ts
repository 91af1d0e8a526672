/**
 * The zod schema of locators, for the plan schema and `graphplan schema`.
 * `parseLocator` is the validator the engine uses (its issues carry JSON
 * paths and hints); this schema accepts and rejects the same shapes.
 *
 * @module
 */

import * as z from "zod";

const position = (what: string) =>
  z.number().int().describe(`${what} (0-based; negative values count from the end, -1 = last)`);

const PARENT_DOC = "Keep only matches inside a node this locator matches (same file; `file` may be omitted)";
const FIELD_DOC =
  "Navigate to this tree-sitter field of each match: body, parameters, condition, return_type, ...";
const field = () => z.string().min(1).optional().describe(FIELD_DOC);
const nthChild = () => position("Select the Nth named child of each match, comments skipped").optional();
const index = () => position("Keep one of several matches").optional();

function structured(file: z.ZodType, parent: () => z.ZodType) {
  return z.strictObject({
    file,
    kind: z.string().min(1).optional().describe(
      "Normalized kind (function, class, method, import, statement, interface, enum, struct, trait, impl, " +
        "module, namespace, type_alias, call, assignment, if, for, while, try, return, decorator, parameter, " +
        "argument, string, identifier, attribute, field, ...) or a node type of the file's language",
    ),
    name: z.string().min(1).optional().describe(
      "Name of a definition, the imported module or name, a call's callee, an identifier's text",
    ),
    get parent() {
      return parent().optional().describe(PARENT_DOC);
    },
    field: field(),
    nth_child: nthChild(),
    index: index(),
  }).describe("Structured locator");
}

function sexp(file: z.ZodType, parent: () => z.ZodType) {
  return z.strictObject({
    type: z.literal("sexp"),
    file,
    query: z.string().min(1).describe('Tree-sitter query, e.g. (identifier) @id (#eq? @id "foo")'),
    capture: z.string().min(1).optional().describe(
      'Capture to return (default "target", else the query\'s first capture)',
    ),
    get parent() {
      return parent().optional().describe(PARENT_DOC);
    },
    field: field(),
    nth_child: nthChild(),
    index: index(),
  }).describe("S-expression locator");
}

const filePath = z.string().min(1).describe("File path relative to the repository root");

/** A nested (parent) locator: like a locator, its `file` optional. */
export const PARENT_LOCATOR_SCHEMA: z.ZodType = z.union([
  structured(filePath.optional(), () => PARENT_LOCATOR_SCHEMA),
  sexp(filePath.optional(), () => PARENT_LOCATOR_SCHEMA),
]);

/** A locator: structured `{file, kind, name, parent, field, nth_child, index}` or `{type: "sexp", file, query, capture}`. */
export const LOCATOR_SCHEMA: z.ZodType = z.union([
  structured(filePath, () => PARENT_LOCATOR_SCHEMA),
  sexp(filePath, () => PARENT_LOCATOR_SCHEMA),
]).describe("Locator: addresses AST nodes in the live tree of a file");
