/**
 * The catalog of built-in `op` operators: for each its kind and its
 * parameters as a zod object. This one table feeds plan validation
 * (`parsePlan`), the JSON Schema (`graphplan schema`), the operators' own
 * parameter checks and the LLM-facing operator list.
 *
 * Kinds:
 * - `primitive`: AST-node mutators and read-only ops; take a `locator`.
 * - `surgery`: tier-1 formal transforms (seed 001); take a `target`.
 *   `delete_node` is both: it accepts `locator` or `target`.
 * - `composed`: the built-in composed operators. `add_method`, `add_import`
 *   and `add_class_attribute` are also the legacy operators of the same
 *   names: one operator, accepting both spellings of its parameters.
 * - `legacy`: the other seven string/line-based operators of seed 002.
 * - `file`: whole-file steps (`create_file`, `delete_file`, `rename_file`,
 *   `set_mode`), tier 1: a plan never creates, deletes or renames a file
 *   or changes its mode except through one of these (seed 002's File
 *   Existence Invariant).
 *
 * @module
 */

import * as z from "zod";
import { LOCATOR_SCHEMA } from "../locate/schema.ts";
import { GIT_MODES } from "../file_mode.ts";
import type { IssueCode } from "../issue_codes.ts";

/** How a step reaches its implementation. */
export type OperatorKind = "primitive" | "surgery" | "composed" | "legacy" | "file";

/** A built-in operator. */
export interface OperatorSpec {
  name: string;
  kind: OperatorKind;
  /** One line for catalogs and the JSON Schema. */
  summary: string;
  /** Parameters; keys not declared here are reported as unknown. */
  params: z.ZodObject;
  /** Groups of alternative spellings: exactly one of each group is required. */
  oneOf?: string[][];
}

/**
 * A file path relative to the repository root. Absolute paths and `..` are
 * refused here already, so a plan that tries to leave the repository fails
 * validation (symlinks are checked when the file is opened).
 */
export const FILE_PATH = z.string().superRefine((value, ctx) => {
  const problem = pathProblem(value);
  if (problem) ctx.addIssue({ code: "custom", message: problem.message, params: { code: problem.code } });
}).meta({ description: 'Path relative to the repository root (no absolute paths, no "..")' });

/** Why `path` cannot name a file in the repository, or undefined. */
export function pathProblem(path: string): { code: IssueCode; message: string } | undefined {
  if (path.trim() === "") return { code: "path-invalid", message: "must not be empty" };
  if (path.includes("\0")) return { code: "path-invalid", message: "must not contain a NUL byte" };
  if (path.length > 4096) return { code: "path-invalid", message: "is longer than 4096 characters" };
  if (path.split(/[\\/]/).some((part) => part.length > 255)) {
    return { code: "path-invalid", message: "has a file or folder name longer than 255 characters" };
  }
  if (path.startsWith("/") || path.startsWith("\\") || /^[A-Za-z]:/.test(path) || path.startsWith("~")) {
    return { code: "path-outside-repo", message: "must be relative to the repository root, not absolute" };
  }
  if (path.split(/[\\/]/).includes("..")) {
    return { code: "path-outside-repo", message: 'must not contain ".." (paths stay inside the repository)' };
  }
  return undefined;
}

/** A 1-based line number. */
const LINE = z.number().int().min(1).meta({ description: "1-based line number" });

/**
 * Most characters of code in one parameter. A step that writes a megabyte
 * of code is not an edit an author meant; refusing it early also keeps
 * multi-megabyte texts away from the parser's fixed-size memory.
 */
export const MAX_CODE_LENGTH = 1_000_000;

/** Source text. */
const CODE = z.string().max(MAX_CODE_LENGTH);

/** A non-empty name. */
const NAME = z.string().min(1).max(1_000);

/** An identifier (letters, digits, `_`, `$`; not starting with a digit). */
export const IDENTIFIER = z.string().max(1_000).superRefine((value, ctx) => {
  if (!/^[\p{L}_$][\p{L}\p{N}_$]*$/u.test(value)) {
    ctx.addIssue({
      code: "custom",
      message: "must be an identifier",
      params: { code: "invalid-identifier" },
    });
  }
}).meta({ description: "An identifier" });

/** A git file mode: `"100644"` (regular) or `"100755"` (executable). */
const GIT_MODE = z.enum(GIT_MODES).meta({
  description: 'Git file mode: "100644" (regular) or "100755" (executable)',
});

/** Where `copy_node`/`move_node` put the node relative to `destination`. */
export const SURGERY_POSITIONS = ["before", "after", "append_to_body", "prepend_to_body"] as const;

function spec(
  name: string,
  kind: OperatorKind,
  summary: string,
  shape: z.ZodRawShape,
  oneOf?: string[][],
): OperatorSpec {
  return { name, kind, summary, params: z.object(shape), oneOf };
}

/** Every built-in `op`, by name. */
export const OPERATORS: ReadonlyMap<string, OperatorSpec> = new Map([
  // Primitives (seed 002, "Mutator Primitives", "Read-Only Primitives"). `file` is the default
  // file for locators that name none.
  spec("replace_node", "primitive", "Replace the text of the node a locator matches", {
    locator: LOCATOR_SCHEMA,
    replacement: CODE,
    file: FILE_PATH.optional(),
  }),
  spec("insert_before_node", "primitive", "Insert code before a node", {
    locator: LOCATOR_SCHEMA,
    code: CODE,
    separator: CODE.optional(),
    file: FILE_PATH.optional(),
  }),
  spec("insert_after_node", "primitive", "Insert code after a node", {
    locator: LOCATOR_SCHEMA,
    code: CODE,
    separator: CODE.optional(),
    file: FILE_PATH.optional(),
  }),
  spec(
    "delete_node",
    "primitive",
    "Delete a node with its separator (also a tier-1 surgery op: give `locator` or `target`)",
    {
      locator: LOCATOR_SCHEMA.optional(),
      target: LOCATOR_SCHEMA.optional(),
      all: z.boolean().optional().meta({ description: "Delete every match instead of exactly one" }),
      file: FILE_PATH.optional(),
    },
    [["locator", "target"]],
  ),
  spec(
    "wrap_node",
    "primitive",
    "Wrap a node (or consecutive sibling matches) between `before` and `after`",
    {
      locator: LOCATOR_SCHEMA,
      before: CODE,
      after: CODE.optional(),
      indent_body: z.union([z.boolean(), z.number().int().min(0), z.string()]).optional().meta({
        description:
          "Indentation added to the wrapped lines: true (default) one indentation unit of the file, false none, a number of spaces or a string",
      }),
      file: FILE_PATH.optional(),
    },
  ),
  spec("replace_all_matching", "primitive", "Replace every node a locator matches", {
    locator: LOCATOR_SCHEMA,
    replacement: CODE,
    filter: z.enum(["not_in_string_or_comment"]).optional(),
    file: FILE_PATH.optional(),
  }),
  spec("locate", "primitive", "Report the nodes a locator matches (read-only)", {
    locator: LOCATOR_SCHEMA,
    file: FILE_PATH.optional(),
  }),
  spec("locate_region", "primitive", "Report the span and text of one node (read-only)", {
    locator: LOCATOR_SCHEMA,
    file: FILE_PATH.optional(),
  }),

  // Tier-1 surgery (seed 001).
  spec("rename_identifier", "surgery", "Rename an identifier and its references", {
    target: LOCATOR_SCHEMA,
    new_name: IDENTIFIER,
    include_strings: z.boolean().optional().meta({
      description: "Also rename the name inside string literals",
    }),
    include_comments: z.boolean().optional().meta({ description: "Also rename the name inside comments" }),
    scope: z.enum(["file", "repository"]).optional().meta({
      description:
        'Where to rename a module-level name: "file" (default; an error when other files import it) or "repository" (also its imports and module.attribute uses in every importing file, in one step)',
    }),
  }),
  spec("copy_node", "surgery", "Copy a node next to or into another", {
    target: LOCATOR_SCHEMA,
    destination: LOCATOR_SCHEMA,
    position: z.enum(SURGERY_POSITIONS),
  }),
  spec("move_node", "surgery", "Move a node next to or into another", {
    target: LOCATOR_SCHEMA,
    destination: LOCATOR_SCHEMA,
    position: z.enum(SURGERY_POSITIONS),
  }),
  spec("swap_nodes", "surgery", "Swap two nodes", {
    target: LOCATOR_SCHEMA,
    other: LOCATOR_SCHEMA,
  }),
  spec("set_blank_lines", "surgery", "Set the number of blank lines above or below a node", {
    target: LOCATOR_SCHEMA,
    before: z.number().int().min(0).max(20).optional().meta({
      description: "Blank lines wanted directly above the node (its first decorator)",
    }),
    after: z.number().int().min(0).max(20).optional().meta({
      description: "Blank lines wanted directly below the node",
    }),
  }),
  spec("relayout_node", "surgery", "Re-lay a node's lines: the same tokens with other whitespace", {
    target: LOCATOR_SCHEMA,
    text: z.string().meta({
      description: "The new text of the node's whole lines (same tokens, other spaces and line breaks)",
    }),
  }),
  spec("reorder_children", "surgery", "Reorder the named children of a node", {
    target: LOCATOR_SCHEMA,
    order: z.array(z.union([z.string().min(1), z.number().int().min(0)])).min(1).meta({
      description: "The new order: the children's names, or their 0-based indexes among the named children",
    }),
  }),

  // Built-in composed operators, which are also legacy operators: both spellings are accepted.
  spec(
    "add_method",
    "composed",
    "Add a method after the last member of a class body (it fills an empty {} body, and takes the place of a lone pass)",
    {
      file: FILE_PATH,
      class_name: NAME.optional(),
      class: NAME.optional(),
      method_code: CODE.optional(),
      code: CODE.optional(),
    },
    [["class_name", "class"], ["method_code", "code"]],
  ),
  spec(
    "add_import",
    "composed",
    "Add an import after the last module-level import; a Python from-import joins the statement already importing from its module (warns when already imported)",
    {
      file: FILE_PATH,
      import_statement: CODE.min(1).optional(),
      import: CODE.min(1).optional(),
      statement: CODE.min(1).optional(),
      code: CODE.min(1).optional(),
    },
    [["import_statement", "import", "statement", "code"]],
  ),
  spec(
    "add_class_attribute",
    "composed",
    "Add a class attribute before the first statement of a class body (after its docstring)",
    {
      file: FILE_PATH,
      class_name: NAME.optional(),
      class: NAME.optional(),
      attribute: CODE.optional(),
      code: CODE.optional(),
      attribute_code: CODE.optional(),
    },
    [["class_name", "class"], ["attribute", "code", "attribute_code"]],
  ),

  // Legacy operators (seed 002, "Legacy Operators").
  spec("replace_code", "legacy", "Replace a text pattern (exact, then whitespace/indentation/fuzzy match)", {
    file: FILE_PATH,
    pattern: CODE.min(1),
    replacement: CODE,
  }),
  spec("insert_code", "legacy", "Insert code before or after a 1-based line", {
    file: FILE_PATH,
    anchor_line: LINE,
    position: z.enum(["before", "after"]),
    code: CODE,
  }),
  spec("delete_lines", "legacy", "Delete a range of 1-based lines (inclusive)", {
    file: FILE_PATH,
    start_line: LINE,
    end_line: LINE,
  }),
  spec("modify_function_signature", "legacy", "Replace the signature text of a named function", {
    file: FILE_PATH,
    func_name: NAME,
    old_signature: CODE.min(1),
    new_signature: CODE.min(1),
  }),
  spec("rename_symbol", "legacy", "Rename an identifier in one file (code only, not strings or comments)", {
    file: FILE_PATH,
    old_name: IDENTIFIER,
    new_name: IDENTIFIER,
  }),
  spec("wrap_block", "legacy", "Wrap a range of lines between two code blocks, indenting it", {
    file: FILE_PATH,
    start_line: LINE,
    end_line: LINE,
    before_code: CODE,
    after_code: CODE,
  }),
  spec("replace_function_body", "legacy", "Replace the body block of a named function", {
    file: FILE_PATH,
    func_name: NAME,
    new_body: CODE,
  }),

  // Whole-file steps (tier 1).
  spec("create_file", "file", "Create a new file with the given content (it must not exist)", {
    file: FILE_PATH,
    content: CODE,
    mode: GIT_MODE.optional(),
  }),
  spec("delete_file", "file", "Delete an existing file", { file: FILE_PATH }),
  spec(
    "rename_file",
    "file",
    "Rename (move) a file, content and mode unchanged (the target must not exist)",
    {
      from: FILE_PATH,
      to: FILE_PATH,
    },
  ),
  spec("set_mode", "file", 'Make a file executable ("100755") or not ("100644")', {
    file: FILE_PATH,
    mode: GIT_MODE,
  }),
].map((entry) => [entry.name, entry]));

/** Tier-1 surgery op names (seed 001 `detect_tier`). */
export const SURGERY_OPS: ReadonlySet<string> = new Set([
  "rename_identifier",
  "copy_node",
  "move_node",
  "swap_nodes",
  "delete_node",
  "reorder_children",
  "set_blank_lines",
  "relayout_node",
]);

/** Whole-file op names (tier 1, kind `file`). */
export const FILE_OPS: ReadonlySet<string> = new Set([
  "create_file",
  "delete_file",
  "rename_file",
  "set_mode",
]);

/** The seed's ten legacy operator names (three of them are the composed built-ins). */
export const LEGACY_OP_NAMES: readonly string[] = [
  "replace_code",
  "insert_code",
  "delete_lines",
  "add_method",
  "add_import",
  "modify_function_signature",
  "rename_symbol",
  "wrap_block",
  "add_class_attribute",
  "replace_function_body",
];

/**
 * The tier-2 templates: the 15 of seed 001, then those added since
 * (`add_import_name`, `change_signature`, `add_base_class`, `parenthesize_import`,
 * `rewrite_comment`, `replace_comment`, `insert_sibling`, `set_line_comment`).
 */
export const TEMPLATE_NAMES: readonly string[] = [
  "guard_clause",
  "wrap_try_except",
  "add_parameter",
  "replace_expression",
  "extract_variable",
  "add_import_and_use",
  "add_method",
  "modify_condition",
  "add_conditional_branch",
  "replace_function_body",
  "wrap_context_manager",
  "add_decorator",
  "inline_variable",
  "change_return_value",
  "add_class_attribute",
  "add_import_name",
  "change_signature",
  "add_base_class",
  "parenthesize_import",
  "rewrite_comment",
  "replace_comment",
  "insert_sibling",
  "set_line_comment",
];

/** What a tier-3 fragment does at its target. */
export const FRAGMENT_ACTIONS = [
  "replace",
  "insert_before",
  "insert_after",
  "append_to_body",
  "prepend_to_body",
] as const;

/** The required parameter names of an operator, in declaration order. */
export function requiredParams(spec: OperatorSpec): string[] {
  return Object.entries(spec.params.shape)
    .filter(([, schema]) => !(schema as z.ZodType).safeParse(undefined).success)
    .map(([name]) => name);
}
