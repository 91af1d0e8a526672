/**
 * Tier 2: the parameterized templates (`TEMPLATES`; `graphplan catalog`
 * lists them, `examples_test.ts` pins how many). Each entry is catalog data (name,
 * group, summary, typed parameters, a worked example that really applies to
 * `tests/fixtures/templates/app/session.py` or a file beside it, languages) plus `run`, an
 * {@link OperatorFn} that validates every parameter in its grammatical role,
 * checks the template's preconditions, and edits through the primitives or
 * `ctx.edit()` (so each step gets the same transaction and verification),
 * and `paramsSchema`, the zod shape of its `params` for the plan schema.
 *
 * A step is `{"template": NAME, "params": {"target": LOCATOR, ...}}`; call
 * `TEMPLATES[NAME].run(params, ctx)`. The output is
 * `{template, file, changed, ...}` (`changed: false` with an
 * `already-present` warning on `ctx.warnings` when the step was already
 * applied). Order of checks, all before any edit: `param-unknown`,
 * `param-missing`, `locator-invalid` → target resolution
 * (`locator-not-found`, `locator-ambiguous`) → `language-unsupported` →
 * `param-invalid` (each value parsed in its role for the target's language)
 * → the template's preconditions (`template-precondition`, `param-order`,
 * `param-exists`, `name-bound`, `method-exists`, `attribute-exists`,
 * `branch-exists`). Warnings: `call-sites-missing-argument`,
 * `evaluation-order`, `duplicated-evaluation`, `shadows`.
 *
 * A template never hard-codes a language: what a block, a guard, a try, a
 * parameter list, a condition, a return or an import looks like comes from
 * the language's table (`lang/python.ts`, `lang/javascript.ts` for JS, TS
 * and TSX, and `lang/braced.ts` built per language by `lang/go.ts`,
 * `rust.ts`, `java.ts`, `c_family.ts`, `php.ts`, `ruby.ts`); a code parameter
 * is parsed in its language's context (`../snippet_contexts.ts`). Each
 * entry's `languages` says where it works: the slot templates
 * (replace_expression, modify_condition, change_return_value) in all ten,
 * guard_clause, add_parameter, replace_function_body and change_signature in
 * the brace languages too, wrap_try_except where the language has a try
 * (Java, C++, PHP), add_method where it has class or impl bodies (Java, Rust,
 * C++, PHP); replace_comment (`comment_text.ts`) and insert_sibling
 * (`insert_sibling.ts`) need no table and work in all ten. inline_variable needs a scope model and is Python-only;
 * wrap_context_manager and add_decorator have no JS table entry.
 *
 * Applying a step twice never duplicates an edit: the second run is either a
 * no-op with an `already-present` warning (guard_clause, wrap_*,
 * add_decorator, replace_*, modify_condition, change_return_value,
 * add_conditional_branch, add_method / add_class_attribute with identical
 * code, add_import_and_use) or an error (add_parameter: `param-exists`,
 * extract_variable: `name-bound`, inline_variable: nothing left to inline).
 *
 * @module
 */

import type { ParamSpec } from "../catalog_types.ts";
import { ADDING_IMPLS } from "./adding.ts";
import { addComment } from "./add_comment.ts";
import { rewriteComment } from "./comment.ts";
import { setLineComment } from "./line_comment.ts";
import { defineTemplate, targetParam, type TemplateEntry } from "./common.ts";
import { MODIFYING_IMPLS } from "./modifying.ts";
import { RESTRUCTURING_IMPLS } from "./restructuring.ts";
import { COMMENT_IMPLS } from "./comment_text.ts";
import { INSERT_IMPLS } from "./insert_sibling.ts";

export type { TemplateEntry } from "./common.ts";
export { TABLES } from "./common.ts";

const FILE = "app/session.py";
const PY = ["python"];
const PY_JS = ["python", "javascript", "typescript", "tsx"];
/** Every language with a table: the templates that replace a slot work in all of them. */
const ALL = [...PY_JS, "go", "rust", "java", "c", "cpp", "php", "ruby"];
/** Languages whose functions have braced or `end` bodies a guard goes into. */
const GUARDS = ALL;
/** Languages with a try statement the template writes. */
const TRY = [...PY_JS, "java", "cpp", "php"];
/** Languages whose parameter lists `add_parameter` edits. */
const PARAMS = [...PY_JS, "go", "rust", "java", "c", "cpp", "php"];
/** Languages with class-like bodies `add_method` appends to (Rust: an impl block). */
const METHODS = [...PY_JS, "java", "rust", "cpp", "php"];

const session = { file: FILE, kind: "class", name: "Session" };
const method = (name: string) => ({
  file: FILE,
  kind: "method",
  name,
  parent: { kind: "class", name: "Session" },
});
const fn = (name: string) => ({ file: FILE, kind: "function", name });

function p(name: string, kind: ParamSpec["kind"], required: boolean, description: string): ParamSpec {
  return { name, kind, required, description };
}

const IMPLS = {
  ...ADDING_IMPLS,
  ...MODIFYING_IMPLS,
  ...RESTRUCTURING_IMPLS,
  ...COMMENT_IMPLS,
  ...INSERT_IMPLS,
};

const ENTRIES: TemplateEntry[] = [
  defineTemplate({
    name: "guard_clause",
    group: "adding",
    summary: "Insert `if <condition>: <guard_body>` before a statement, or at the start of a function's body",
    params: [
      targetParam("a statement, or a function (the guard goes first in its body, after the docstring)"),
      p("condition", "condition", true, "when the guard fires"),
      p("guard_body", "statements", true, "what it does, usually return or raise"),
    ],
    example: {
      template: "guard_clause",
      params: {
        target: method("request"),
        condition: "not url",
        guard_body: 'raise ValueError("url must not be empty")',
      },
    },
    languages: GUARDS,
    apply: IMPLS.guard_clause,
  }),
  defineTemplate({
    name: "wrap_try_except",
    group: "wrapping",
    summary: "Wrap a statement in try/except (JS: try/catch), keeping its indentation and comments",
    params: [
      targetParam("the statement to wrap"),
      p("exc_type", "expression", true, "exception type(s) handled (JS: checked with instanceof; `*` = any)"),
      p("handler", "statements", true, "the except/catch body"),
      p("as_name", "identifier", false, "name bound to the exception"),
      p("finally_body", "statements", false, "a finally block"),
    ],
    example: {
      template: "wrap_try_except",
      params: {
        target: { file: FILE, kind: "assignment", name: "response", parent: method("request") },
        exc_type: "ConnectionError",
        as_name: "exc",
        handler: 'log.warning("request to %s failed: %s", full_url, exc)\nraise',
      },
    },
    languages: TRY,
    literals: { exc_type: ["*"] },
    apply: IMPLS.wrap_try_except,
  }),
  defineTemplate({
    name: "add_parameter",
    group: "adding",
    summary: "Add a parameter to a function, keeping defaults after non-defaults; call sites are not changed",
    params: [
      targetParam("the function"),
      p("name", "identifier", true, "the parameter's name"),
      p("default", "expression", false, "its default value"),
      p("annotation", "type_annotation", false, "its type"),
      p(
        "position",
        "position",
        false,
        '"end" (default: end of the positional parameters), "start", or "after:NAME"',
      ),
      p("keyword_only", "boolean", false, "Python: put it after `*` (added if missing)"),
    ],
    example: {
      template: "add_parameter",
      params: { target: fn("merge_settings"), name: "dict_class", default: "dict" },
    },
    languages: PARAMS,
    apply: IMPLS.add_parameter,
  }),
  defineTemplate({
    name: "replace_expression",
    group: "modifying",
    summary: "Replace one expression, adding parentheses where precedence needs them",
    params: [targetParam("the expression"), p("expression", "expression", true, "the new expression")],
    example: {
      template: "replace_expression",
      params: {
        target: { file: FILE, kind: "call", name: "dict", parent: fn("merge_settings") },
        expression: "{**session_setting}",
      },
    },
    languages: ALL,
    apply: IMPLS.replace_expression,
  }),
  defineTemplate({
    name: "extract_variable",
    group: "restructuring",
    summary: "Assign an expression to a new variable before its statement and use the variable instead",
    params: [
      targetParam("the expression"),
      p("name", "identifier", true, "the new variable, unbound in the scope"),
    ],
    example: {
      template: "extract_variable",
      params: {
        target: { file: FILE, kind: "attribute", name: "self.timeout", parent: method("request") },
        name: "timeout",
      },
    },
    languages: PY_JS,
    apply: IMPLS.extract_variable,
  }),
  defineTemplate({
    name: "add_import_and_use",
    group: "adding",
    summary: "Add an import (if missing) and replace an expression with one that uses it",
    params: [
      targetParam("the expression to replace"),
      p("import", "import_statement", true, "one import statement"),
      p("expression", "expression", true, "the new expression"),
    ],
    example: {
      template: "add_import_and_use",
      params: {
        target: { type: "sexp", file: FILE, query: "(binary_operator) @e", parent: method("request") },
        import: "from urllib.parse import urljoin",
        expression: "urljoin(self.base_url, url)",
      },
    },
    languages: PY_JS,
    apply: IMPLS.add_import_and_use,
  }),
  defineTemplate({
    name: "add_import_name",
    group: "adding",
    summary:
      "Add a name to an existing `from ... import` (or `import a, b`), after its last name (parentheses and line breaks kept)",
    params: [
      targetParam("the import statement"),
      p("name", "identifier", true, "the name to import"),
      p("alias", "identifier", false, "import it `as` this name"),
      p(
        "own_line",
        "boolean",
        false,
        "put it on a line of its own, indented like the last name (parentheses needed)",
      ),
      p("after", "string", false, "write it after this imported name, as written (default: after the last)"),
      p("first", "boolean", false, "write it before the first name (not with `after` or `trailing_comma`)"),
      p(
        "trailing_comma",
        "boolean",
        false,
        "false: a trailing comma ending the list becomes the separator before the new name, which ends the list",
      ),
    ],
    example: {
      template: "add_import_name",
      params: { target: { file: FILE, kind: "import", name: "app.adapters" }, name: "BaseAdapter" },
    },
    languages: PY,
    apply: IMPLS.add_import_name,
  }),
  defineTemplate({
    name: "parenthesize_import",
    group: "modifying",
    summary:
      "Put the names of a `from ... import` in parentheses, dropping backslash continuations (line breaks kept)",
    params: [
      targetParam("the from-import statement"),
      p("one_per_line", "boolean", false, "lay the names out one per line, each with a trailing comma"),
    ],
    example: {
      template: "parenthesize_import",
      params: { target: { file: "app/compat.py", kind: "import", name: "app.adapters" } },
    },
    languages: PY,
    apply: IMPLS.parenthesize_import,
  }),
  defineTemplate({
    name: "rewrite_comment",
    group: "modifying",
    summary:
      "Rewrite a comment on its own line, or a run of them on consecutive lines, at its indentation (never code)",
    params: [
      targetParam("the (first) comment, alone on its line"),
      p("text", "string", true, "the new comment lines, each starting with #"),
      p("lines", "count", false, "how many consecutive comment lines are replaced (default 1)"),
    ],
    example: {
      template: "rewrite_comment",
      params: {
        target: { file: FILE, kind: "comment", index: 0 },
        text: "# One attempt: the adapter retries,\n# with its own back-off.",
      },
    },
    languages: PY,
    apply: rewriteComment,
  }),
  defineTemplate({
    name: "add_comment",
    group: "adding",
    summary:
      "Add comment lines of their own above a statement (or below it), at its indentation (never code)",
    params: [
      targetParam("the statement or definition the comment belongs to"),
      p("text", "string", true, "the comment lines, each starting with #, blank lines allowed between"),
      p("after", "boolean", false, "write them below the target's last line instead of above its first"),
    ],
    example: {
      template: "add_comment",
      params: {
        target: method("close"),
        text: "# Idempotent: a closed session's adapters are gone.",
      },
    },
    languages: PY,
    apply: addComment,
  }),
  defineTemplate({
    name: "set_line_comment",
    group: "modifying",
    summary:
      "Add, rewrite or remove the comment ending the target's first line of code (a `# noqa` on a def line)",
    params: [
      targetParam("the statement or definition whose first line gets the comment"),
      p("text", "string", true, 'the comment, starting with #, or "" to remove the one there'),
      p("spaces", "count", false, "spaces between the code and the comment (default 2)"),
    ],
    example: {
      template: "set_line_comment",
      params: { target: method("get_adapter"), text: "# noqa: C901" },
    },
    languages: PY,
    apply: setLineComment,
  }),
  defineTemplate({
    name: "add_base_class",
    group: "adding",
    summary:
      "Add a base class to a class's bases (last, or first with `first: true`; keyword arguments stay last)",
    params: [
      targetParam("the class"),
      p("base", "expression", true, "the base class"),
      p("first", "boolean", false, "put it before the other bases"),
    ],
    example: {
      template: "add_base_class",
      params: { target: session, base: "contextlib.AbstractContextManager" },
    },
    languages: PY,
    apply: IMPLS.add_base_class,
  }),
  defineTemplate({
    name: "change_signature",
    group: "modifying",
    summary:
      "Replace a function's parameter list (the text between its parentheses, as written) and optionally its return type",
    params: [
      targetParam("the function"),
      p("parameters", "parameters", true, "the new text between the parentheses (line breaks kept)"),
      p("return_type", "type_annotation", false, "the new return annotation (without `->`)"),
    ],
    example: {
      template: "change_signature",
      params: {
        target: fn("retry_delay"),
        parameters: "attempt, *, base=0.5, cap=30.0",
        return_type: "float",
      },
    },
    languages: [...PY, "go", "rust", "java", "c", "cpp", "php"],
    apply: IMPLS.change_signature,
  }),
  defineTemplate({
    name: "add_method",
    group: "adding",
    summary: "Add a method at the end of a class (replacing a lone `pass`)",
    params: [targetParam("the class"), p("code", "statements", true, "one method definition")],
    example: {
      template: "add_method",
      params: { target: session, code: "def __enter__(self):\n    return self" },
    },
    languages: METHODS,
    ownChecks: { code: METHODS.filter((language) => language !== "python") },
    apply: IMPLS.add_method,
  }),
  defineTemplate({
    name: "modify_condition",
    group: "modifying",
    summary: "Replace only the condition of an if / elif / while",
    params: [targetParam("the if, elif or while"), p("condition", "condition", true, "the new condition")],
    example: {
      template: "modify_condition",
      params: {
        target: { file: FILE, kind: "if", parent: fn("merge_settings") },
        condition: "not session_setting",
      },
    },
    languages: ALL,
    apply: IMPLS.modify_condition,
  }),
  defineTemplate({
    name: "add_conditional_branch",
    group: "adding",
    summary: "Add an elif (else if) branch before the else, or an else branch",
    params: [
      targetParam("the if statement"),
      p("body", "statements", true, "the branch's body"),
      p("condition", "condition", false, "the branch's condition; absent = else branch"),
    ],
    example: {
      template: "add_conditional_branch",
      params: {
        target: { file: FILE, kind: "if", parent: fn("merge_settings") },
        condition: "request_setting is None",
        body: "return session_setting",
      },
    },
    languages: PY_JS,
    apply: IMPLS.add_conditional_branch,
  }),
  defineTemplate({
    name: "replace_function_body",
    group: "modifying",
    summary: "Replace a function's body, keeping its signature, decorators and (by default) docstring",
    params: [
      targetParam("the function"),
      p("body", "statements", true, "the new body"),
      p("keep_docstring", "boolean", false, "keep the docstring (default true)"),
    ],
    example: {
      template: "replace_function_body",
      params: { target: fn("retry_delay"), body: "return base * 2 ** attempt" },
    },
    languages: [...PY_JS, "go", "rust", "java", "c", "cpp", "php"],
    apply: IMPLS.replace_function_body,
  }),
  defineTemplate({
    name: "wrap_context_manager",
    group: "wrapping",
    summary: "Wrap a statement in `with <context> as <name>:`",
    params: [
      targetParam("the statement to wrap"),
      p("context", "expression", true, "the context manager"),
      p("as_name", "identifier", false, "name bound by `as`"),
    ],
    example: {
      template: "wrap_context_manager",
      params: {
        target: { file: FILE, kind: "for", parent: method("close") },
        context: "contextlib.suppress(OSError)",
      },
    },
    languages: PY,
    apply: IMPLS.wrap_context_manager,
  }),
  defineTemplate({
    name: "add_decorator",
    group: "adding",
    summary: "Add a decorator to a function or class (outermost; `innermost: true` for just above the def)",
    params: [
      targetParam("the function or class"),
      p("decorator", "decorator", true, "the decorator without `@`"),
      p("innermost", "boolean", false, "put it directly above the def instead of on top"),
    ],
    example: {
      template: "add_decorator",
      params: { target: fn("retry_delay"), decorator: "functools.lru_cache(maxsize=128)" },
    },
    languages: PY,
    apply: IMPLS.add_decorator,
  }),
  defineTemplate({
    name: "inline_variable",
    group: "restructuring",
    summary:
      "Replace the uses of a once-assigned variable by its value (parenthesised as needed) and drop it",
    params: [
      targetParam("the scope holding the assignment (function, class or file)"),
      p("name", "identifier", true, "the variable"),
    ],
    example: {
      template: "inline_variable",
      params: { target: fn("retry_delay"), name: "total" },
    },
    languages: PY,
    apply: IMPLS.inline_variable,
  }),
  defineTemplate({
    name: "change_return_value",
    group: "modifying",
    summary: "Replace the value of a return statement (or give a bare return one)",
    params: [targetParam("the return statement"), p("value", "expression", true, "the new value")],
    example: {
      template: "change_return_value",
      params: {
        target: { file: FILE, kind: "return", parent: method("get_adapter"), index: -1 },
        value: 'self.adapters.get("http://")',
      },
    },
    languages: ALL,
    apply: IMPLS.change_return_value,
  }),
  defineTemplate({
    name: "add_class_attribute",
    group: "adding",
    summary: "Add a class attribute after the existing ones (or first in the body, after the docstring)",
    params: [
      targetParam("the class"),
      p("name", "identifier", true, "the attribute"),
      p("value", "expression", true, "its value"),
      p("annotation", "type_annotation", false, "its type"),
    ],
    example: {
      template: "add_class_attribute",
      params: { target: session, name: "default_timeout", value: "10", annotation: "int" },
    },
    languages: PY_JS,
    apply: IMPLS.add_class_attribute,
  }),
  defineTemplate({
    name: "replace_comment",
    group: "modifying",
    summary:
      "Rewrite one comment (doc comments too): its whole new text, markers included, must parse as one comment",
    params: [
      targetParam("the comment (or a node inside it, such as a doc comment's text)"),
      p("text", "string", true, "the whole new comment, with its markers (// ..., /* ... */, # ...)"),
    ],
    example: {
      template: "replace_comment",
      params: {
        target: { file: FILE, kind: "comment", parent: method("request") },
        text: "# One attempt; the adapter decides about retries.",
      },
    },
    languages: ALL,
    apply: IMPLS.replace_comment,
  }),
  defineTemplate({
    name: "insert_sibling",
    group: "adding",
    summary:
      "Insert statements, members or definitions on their own lines before or after a node, at its indentation",
    params: [
      targetParam("the statement, member or definition the code goes next to"),
      p("code", "string", true, "the code, whole statements or members of the language"),
      p("position", "string", false, '"after" (default) or "before"'),
    ],
    example: {
      template: "insert_sibling",
      params: {
        target: { file: FILE, kind: "assignment", name: "full_url", parent: method("request") },
        code: 'log.debug("request to %s", full_url)',
      },
    },
    languages: ALL,
    apply: IMPLS.insert_sibling,
  }),
];

/** The templates by name. */
export const TEMPLATES: Record<string, TemplateEntry> = Object.fromEntries(
  ENTRIES.map((entry) => [entry.name, entry]),
);
