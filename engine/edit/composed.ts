/**
 * The built-in composed operators `add_method`, `add_import` and
 * `add_class_attribute`, written as DSL programs (data) over the primitives
 * and three small read-only helpers, and run by the DSL interpreter.
 *
 * They are also legacy operator names, so both parameter spellings work:
 * `class` / `class_name`, `code` / `method_code` (add_method),
 * `code` / `attribute` (add_class_attribute), `import_statement` / `import` /
 * `code` (add_import).
 *
 * - `add_method` inserts after the last member of the class body, with the
 *   blank lines the file puts between methods; a body that is only `pass`
 *   or `...` (after a docstring) has that placeholder replaced.
 * - `add_import` does nothing but warn (`import-exists`) when every name it
 *   imports is already imported at module level; otherwise it inserts after
 *   the last module-level import (imports nested in functions do not count),
 *   or, without any, after the module docstring (Python), the `package`
 *   clause (Java, Go), or before the first statement. A `__future__` import
 *   goes after the docstring and other `__future__` imports.
 * - `add_class_attribute` inserts before the first statement of the class
 *   body that is not its docstring (after the docstring when nothing else is
 *   there).
 *
 * @module
 */

import { fail, warning } from "../base/issue.ts";
import { isIssueCode } from "../base/issue_codes.ts";
import { parseLocator, resolveOne } from "../locate/mod.ts";
import type { Document } from "../parse/documents.ts";
import { compileQuery, type LanguageId, type Node, withTree } from "../parse/mod.ts";
import type { DslStep, OperatorDefinition } from "./dsl_types.ts";
import { detectIndentUnit, reindent } from "./indent.ts";
import type { OperatorFn } from "./operator.ts";

// ---------------------------------------------------------------- helper primitives

/** Module-level import node types, the root type and the "header" statement imports follow. */
const IMPORT_LAYOUT: Partial<Record<LanguageId, { root: string; imports: string[]; header?: string }>> = {
  python: {
    root: "module",
    imports: ["import_statement", "import_from_statement", "future_import_statement"],
  },
  javascript: { root: "program", imports: ["import_statement"] },
  typescript: { root: "program", imports: ["import_statement"] },
  tsx: { root: "program", imports: ["import_statement"] },
  java: { root: "program", imports: ["import_declaration"], header: "package_declaration" },
  go: { root: "source_file", imports: ["import_declaration"], header: "package_clause" },
  rust: { root: "source_file", imports: ["use_declaration"] },
  c: { root: "translation_unit", imports: ["preproc_include"] },
  cpp: { root: "translation_unit", imports: ["preproc_include"] },
  php: { root: "program", imports: ["namespace_use_declaration"] },
};

/**
 * A sexp locator that resolves to exactly `node`: the query `query` with the
 * index of `node` among its captures (the resolver orders by position).
 */
async function exactLocator(doc: Document, query: string, node: Node): Promise<Record<string, unknown>> {
  const compiled = await compileQuery(doc.file.language, query);
  const captures = compiled.captures(doc.tree.rootNode).map((capture) => capture.node)
    .sort((a, b) => a.startIndex - b.startIndex);
  const index = captures.findIndex((candidate) => candidate.id === node.id);
  return { type: "sexp", file: doc.file.path, query, capture: "node", index };
}

/** One imported binding: `(module, name, alias)`. */
type ImportKey = string;

/** The module of a Python from-import as written (`a.b`, `..c`, `__future__`). */
function fromModule(statement: Node): string | undefined {
  if (statement.type === "future_import_statement") return "__future__";
  if (statement.type !== "import_from_statement") return undefined;
  return statement.childForFieldName("module_name")?.text.replace(/\s+/g, "");
}

function pythonImportKeys(statement: Node): ImportKey[] {
  const keys: ImportKey[] = [];
  const nameOf = (node: Node): [string, string] =>
    node.type === "aliased_import"
      ? [node.childForFieldName("name")?.text ?? "", node.childForFieldName("alias")?.text ?? ""]
      : [node.text, ""];
  if (statement.type === "import_statement") {
    for (const name of statement.childrenForFieldName("name")) {
      if (name) keys.push(["", ...nameOf(name)].join("|"));
    }
  } else if (statement.type === "import_from_statement" || statement.type === "future_import_statement") {
    const module = fromModule(statement) ?? "";
    const names = statement.childrenForFieldName("name").filter((name): name is Node => !!name);
    if (names.length === 0 && statement.namedChildren.some((child) => child?.type === "wildcard_import")) {
      keys.push([module, "*", ""].join("|"));
    }
    for (const name of names) keys.push([module, ...nameOf(name)].join("|"));
  }
  return keys;
}

/** The longest line a merged one-line import may have before it is wrapped in parentheses (PEP 8). */
const IMPORT_LINE_LIMIT = 79;

/**
 * `statement` (a Python from-import without a star) with the imported
 * names `added` (as written: `x` or `x as y`) appended, in the statement's
 * own style: one more line in a parenthesized list (keeping its trailing
 * comma), one more item on a single line, or, when that line would pass 79
 * characters, the list wrapped in parentheses one name per line.
 */
function mergedFromImport(statement: Node, added: string[], eol: string): string {
  const text = statement.text;
  const at = (offset: number) => offset - statement.startIndex;
  const names = statement.childrenForFieldName("name").filter((name): name is Node => !!name);
  const last = names.at(-1)!;
  const trailingComma = last.nextSibling?.type === ",";
  const afterLast = trailingComma ? last.nextSibling!.endIndex : last.endIndex;
  const closing = statement.lastChild?.type === ")" ? statement.lastChild : undefined;
  if (closing && closing.startPosition.row > last.endPosition.row) {
    // One name per line: the new ones follow on their own lines, indented as the last.
    const lineStart = text.lastIndexOf("\n", at(last.startIndex)) + 1;
    const indent = /^[ \t]*/.exec(text.slice(lineStart))![0];
    const lines = added.map((name) => `${eol}${indent}${name}${trailingComma ? "," : ""}`).join("");
    const head = text.slice(0, at(afterLast)) + (trailingComma ? "" : ",");
    return head + lines + text.slice(at(afterLast));
  }
  const joined = (trailingComma ? " " : ", ") + added.join(", ") + (trailingComma ? "," : "");
  const merged = text.slice(0, at(afterLast)) + joined + text.slice(at(afterLast));
  if (closing || merged.length <= IMPORT_LINE_LIMIT || merged.includes("\n")) return merged;
  const keyword = statement.children.find((child) => child?.type === "import")!;
  const all = [...names.map((name) => name.text), ...added];
  return `${text.slice(0, at(keyword.endIndex))} (${eol}${all.map((name) => `    ${name},${eol}`).join("")})`;
}

function normalizeImport(text: string): string {
  return text.replace(/\s+/g, " ").replace(/\s*([,{}()])\s*/g, "$1").replace(/[;,]+$/, "").trim();
}

const importStatus: OperatorFn = async (params, ctx) => {
  const file = params.file;
  const code = params.import;
  if (typeof file !== "string") {
    fail("param-missing", `Missing parameter "file"`, { path: ["params", "file"] });
  }
  if (typeof code !== "string" || code.trim() === "") {
    fail("param-missing", `Missing parameter "import_statement"`, { path: ["params", "import_statement"] });
  }
  const doc = await ctx.store.get(file);
  const language = doc.file.language;
  const layout = IMPORT_LAYOUT[language];
  if (!layout) fail("language-unsupported", `add_import does not support ${language} files`, { file });
  const root = doc.tree.rootNode;
  const children = root.namedChildren.filter((child): child is Node => !!child);
  const imports = children.filter((child) => layout.imports.includes(child.type));
  // Already imported?
  let present = imports.some((existing) => normalizeImport(existing.text) === normalizeImport(code));
  // A Python `from m import x` joins an existing `from m import ...` (the names not there yet).
  let merge: { into: Node; names: string[] } | undefined;
  if (!present && language === "python") {
    const have = new Set(imports.flatMap(pythonImportKeys));
    await withTree("python", code.trim(), (snippet) => {
      const statements = snippet.rootNode.namedChildren.filter((node): node is Node => !!node);
      const wanted = statements.flatMap(pythonImportKeys);
      present = wanted.length > 0 && wanted.every((key) => have.has(key));
      const single = statements.length === 1 && !snippet.rootNode.hasError ? statements[0] : undefined;
      const module = single && fromModule(single);
      const names = single?.childrenForFieldName("name").filter((name): name is Node => !!name) ?? [];
      if (present || !module || names.length === 0) return;
      const into = imports.find((existing) =>
        fromModule(existing) === module && existing.childrenForFieldName("name").length > 0 &&
        !existing.hasError
      );
      // One key per name, in the names' order.
      const keys = pythonImportKeys(single!);
      const missing = names.filter((_, index) => !have.has(keys[index]));
      if (into && missing.length > 0) {
        merge = {
          into,
          names: missing.map((name) => name.text.replace(/\s+/g, " ")),
        };
      }
    });
  }
  const nodeQuery = (types: string[]) =>
    `(${layout.root} [${types.map((type) => `(${type})`).join(" ")}] @node)`;
  if (present) {
    return {
      present: true,
      message: `Import already present in "${file}": ${code.trim().split("\n")[0]}`,
      position: "none",
    };
  }
  if (merge) {
    return {
      present: false,
      message: "",
      position: "merge",
      anchor: await exactLocator(doc, nodeQuery(layout.imports), merge.into),
      merged: mergedFromImport(merge.into, merge.names, doc.file.eol),
    };
  }
  const isFuture = /^\s*from\s+__future__\s+import\b/.test(code);
  const statements = children.filter((child) => child.type !== "comment");
  const docstring = language === "python" && statements[0]?.type === "expression_statement" &&
      statements[0].namedChildCount === 1 && statements[0].namedChildren[0]?.type === "string"
    ? statements[0]
    : undefined;
  const futures = imports.filter((node) =>
    node.type === "future_import_statement" || /^from\s+__future__\b/.test(node.text)
  );
  const base = { present: false, message: "" };
  if (isFuture && futures.length) {
    return {
      ...base,
      position: "after",
      separator: "\n",
      anchor: await exactLocator(doc, nodeQuery(layout.imports), futures.at(-1)!),
    };
  }
  if (!isFuture && imports.length) {
    return {
      ...base,
      position: "after",
      separator: "\n",
      anchor: await exactLocator(doc, nodeQuery(layout.imports), imports.at(-1)!),
    };
  }
  const header = docstring ??
    (layout.header ? children.find((child) => child.type === layout.header) : undefined);
  if (header) {
    return {
      ...base,
      position: "after",
      separator: "\n\n",
      anchor: await exactLocator(doc, `(${layout.root} (${header.type}) @node)`, header),
    };
  }
  const first = statements[0];
  if (first) {
    const definition = /definition|declaration|class|function/.test(first.type);
    return {
      ...base,
      position: "before",
      separator: language === "python" && definition ? "\n\n\n" : "\n\n",
      anchor: await exactLocator(doc, `(${layout.root} (_) @node)`, first),
    };
  }
  const lastComment = children.at(-1);
  if (lastComment) {
    return {
      ...base,
      position: "after",
      separator: "\n",
      anchor: await exactLocator(doc, `(${layout.root} (comment) @node)`, lastComment),
    };
  }
  // An empty file: the locator of the root node (no kind, no name).
  return { ...base, position: "empty", anchor: { file } };
};

const classBodyAnchor: OperatorFn = async (params, ctx) => {
  const locator = parseLocator(params.locator, ["params", "locator"]);
  const { doc, node } = await resolveOne(ctx.store, locator);
  const body = node.childForFieldName("body");
  if (!body) {
    fail("class-body-missing", `Class at line ${node.startPosition.row + 1} has no body`, {
      file: doc.file.path,
    });
  }
  const members = body.namedChildren.filter((child): child is Node => !!child);
  const statements = members.filter((child) => child.type !== "comment");
  const first = statements[0];
  const isDoc = doc.file.language === "python" && first?.type === "expression_statement" &&
    first.namedChildCount === 1 && first.namedChildren[0]?.type === "string";
  const raw = params.locator as Record<string, unknown>;
  // nth_child counts named children without comments.
  const at = (child: Node) => ({
    ...raw,
    file: doc.file.path,
    field: "body",
    nth_child: statements.indexOf(child),
  });
  // A body holding nothing but `pass` or `...` (after its docstring): a method can take its place.
  const rest = isDoc ? statements.slice(1) : statements;
  const only = rest.length === 1 ? rest[0] : undefined;
  const isPlaceholder = only !== undefined && (only.type === "pass_statement" ||
    (only.type === "expression_statement" && only.namedChildCount === 1 &&
      only.namedChildren[0]?.type === "ellipsis"));
  const placeholder = isPlaceholder ? at(only) : null;
  if (isDoc && statements.length === 1) {
    return { position: "after", separator: "\n", anchor: at(first), placeholder };
  }
  const target = isDoc ? statements[1] : first;
  if (!target) return await emptyBody(doc, body, members.length > 0, raw, params.code);
  const definition = /definition|declaration|method/.test(target.type);
  return { position: "before", separator: definition ? "\n\n" : "\n", anchor: at(target), placeholder };
};

/**
 * The slot of a class whose braces hold nothing (`class A {}`): the body
 * itself, to be replaced by `filled`, the braces around `code` indented one
 * level. A body with only comments in it is refused (the comments would
 * have to move), as is a body without braces.
 */
async function emptyBody(
  doc: Document,
  body: Node,
  hasComments: boolean,
  raw: Record<string, unknown>,
  code: unknown,
) {
  const line = body.startPosition.row + 1;
  const braced = body.text.startsWith("{") && body.text.endsWith("}");
  if (hasComments || !braced || typeof code !== "string") {
    fail("class-body-empty", `Class body at line ${line} has no statement to place the new member next to`, {
      file: doc.file.path,
      line,
      hint: hasComments
        ? "the body holds only comments: replace the class body with replace_node instead"
        : "replace the class body with replace_node instead",
    });
  }
  const { eol, language } = doc.file;
  const unit = detectIndentUnit(doc.file.text);
  const inner = await reindent(code, { indent: unit, unit, eol, language });
  return {
    position: "empty",
    anchor: { ...raw, file: doc.file.path, field: "body" },
    filled: `{${eol}${inner}${eol}}`,
    placeholder: null,
  };
}

const warn: OperatorFn = (params, ctx) => {
  // A code of the closed list passes through; the author's own label leads the message of a `dsl-warning`.
  const given = typeof params.code === "string" ? params.code : undefined;
  const code = given !== undefined && isIssueCode(given) ? given : "dsl-warning";
  // a whole `$var` reference hands over the value itself: an object is shown as JSON
  const message = typeof params.message === "string"
    ? params.message
    : params.message !== null && typeof params.message === "object"
    ? JSON.stringify(params.message)
    : String(params.message);
  ctx.warnings.push(
    warning(code, given !== undefined && code === "dsl-warning" ? `${given}: ${message}` : message),
  );
  return Promise.resolve({ warned: true });
};

/**
 * Read-only helpers the built-in programs use (available to `define_operators`
 * steps too): `import_status {file, import}` → `{present, position, anchor,
 * separator, message}` (for a Python from-import whose module is imported
 * from already: `{position: "merge", anchor: <that statement>, merged:
 * <it with the new names>}`), `class_body_anchor {locator, code?}` → `{position,
 * anchor, separator, placeholder}` (for a class with empty braces:
 * `{position: "empty", anchor: <the body>, filled: <the body holding code>}`),
 * `warn {code, message}` adds a warning to the step.
 */
export const HELPER_PRIMITIVES: Record<string, OperatorFn> = {
  import_status: importStatus,
  class_body_anchor: classBodyAnchor,
  warn,
};

/** Parameters of the helpers, for the DSL validator. */
export const HELPER_PARAMS: Record<string, { required: string[]; optional: string[] }> = {
  import_status: { required: ["file", "import"], optional: [] },
  class_body_anchor: { required: ["locator"], optional: ["code"] },
  warn: { required: ["message"], optional: ["code"] },
};

// ---------------------------------------------------------------- the programs

const CLASS = { kind: "class", name: "$class_name", file: "$file" };

/** A class-member program's branch for empty braces: the body becomes `class_body_anchor`'s `filled`. */
const FILL_EMPTY_BODY: DslStep = {
  primitive: "replace_node",
  params: { locator: "$slot.anchor", replacement: "$slot.filled" },
};

/** The built-in composed operators as DSL definitions. */
export const BUILTIN_DEFINITIONS: readonly OperatorDefinition[] = [
  {
    define: "add_method",
    params_schema: { file: "string", class_name: "string", method_code: "string" },
    steps: [
      { primitive: "class_body_anchor", params: { locator: CLASS, code: "$method_code" }, bind: "slot" },
      {
        if: "$slot.position == 'empty'",
        then: FILL_EMPTY_BODY,
        else: {
          if: "$slot.placeholder",
          then: {
            primitive: "replace_node",
            params: { locator: "$slot.placeholder", replacement: "$method_code" },
          },
          else: {
            primitive: "insert_after_node",
            params: { locator: { ...CLASS, field: "body", nth_child: -1 }, code: "$method_code" },
          },
        },
      },
    ],
  },
  {
    define: "add_import",
    params_schema: { file: "string", import_statement: "string" },
    steps: [
      { primitive: "import_status", params: { file: "$file", import: "$import_statement" }, bind: "imp" },
      {
        if: "$imp.present",
        then: { primitive: "warn", params: { code: "import-exists", message: "$imp.message" } },
        else: {
          if: "$imp.position == 'merge'",
          then: { primitive: "replace_node", params: { locator: "$imp.anchor", replacement: "$imp.merged" } },
          else: {
            if: "$imp.position == 'after'",
            then: {
              primitive: "insert_after_node",
              params: { locator: "$imp.anchor", code: "$import_statement", separator: "$imp.separator" },
            },
            else: {
              if: "$imp.position == 'before'",
              then: {
                primitive: "insert_before_node",
                params: { locator: "$imp.anchor", code: "$import_statement", separator: "$imp.separator" },
              },
              else: {
                primitive: "replace_node",
                params: { locator: "$imp.anchor", replacement: "$import_statement" },
              },
            },
          },
        },
      },
    ],
  },
  {
    define: "add_class_attribute",
    params_schema: { file: "string", class_name: "string", attribute: "string" },
    steps: [
      { primitive: "class_body_anchor", params: { locator: CLASS, code: "$attribute" }, bind: "slot" },
      {
        if: "$slot.position == 'empty'",
        then: FILL_EMPTY_BODY,
        else: {
          if: "$slot.position == 'after'",
          then: {
            primitive: "insert_after_node",
            params: { locator: "$slot.anchor", code: "$attribute", separator: "$slot.separator" },
          },
          else: {
            primitive: "insert_before_node",
            params: { locator: "$slot.anchor", code: "$attribute", separator: "$slot.separator" },
          },
        },
      },
    ],
  },
];

const ALIASES: Record<string, Record<string, string[]>> = {
  add_method: { class_name: ["class"], method_code: ["code"] },
  add_import: { import_statement: ["import", "code", "statement"] },
  add_class_attribute: { class_name: ["class"], attribute: ["code", "attribute_code"] },
};

/** Map the legacy/alternative parameter spellings of a built-in op to its canonical ones. */
export function normalizeComposedParams(
  name: string,
  params: Record<string, unknown>,
): Record<string, unknown> {
  const aliases = ALIASES[name];
  if (!aliases) return params;
  const out = { ...params };
  for (const [canonical, others] of Object.entries(aliases)) {
    for (const other of others) {
      if (out[canonical] === undefined && out[other] !== undefined) out[canonical] = out[other];
      if (other !== canonical) delete out[other];
    }
  }
  return out;
}
