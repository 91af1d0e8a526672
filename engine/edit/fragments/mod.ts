/**
 * Tier 3, typed fragments (seed 001 tasks 1d, 1e): a JSON description of a
 * Python statement, `{"kind", "properties", "children"}` with
 * tree-sitter-python's node type names as kinds, validated
 * (`validate.ts`), serialized to source at the indentation of the place it
 * goes (`serialize.ts`), and placed by the primitives.
 *
 * A step: `{"fragment": {...}, "action": ACTION, "target": LOCATOR}`:
 * - `replace`: the fragment replaces the target statement (a definition's
 *   decorators stay unless the fragment has `decorators`, like
 *   `replace_node`);
 * - `insert_before` / `insert_after`: next to the target statement, at its
 *   indentation (blank lines around definitions as the file has them);
 * - `append_to_body` / `prepend_to_body`: last / first statement of the
 *   target's body (a function, class, compound statement or clause, or the
 *   module); prepending goes after a docstring (and, in a module, after
 *   `from __future__` imports); a body that is only `pass` or `...` is
 *   replaced.
 * A clause fragment (`elif_clause`, `else_clause`, `except_clause`,
 * `finally_clause`) replaces a clause or goes before or after one.
 *
 * @module
 */

import { error, fail, type Issue, IssueError } from "../../base/issue.ts";
import { parseLocator, resolveLocator, resolveOne } from "../../locate/mod.ts";
import type { Document, DocumentStore } from "../../parse/documents.ts";
import type { Node } from "../../parse/mod.ts";
import { closestNames, didYouMean } from "../../base/suggest.ts";
import type { CatalogEntry } from "../catalog_types.ts";
import { detectIndentUnit, firstOnLine, lineIndent } from "../indent.ts";
import type { StepContext } from "../operator.ts";
import { PRIMITIVES } from "../primitives.ts";
import { FRAGMENT_KINDS } from "./kinds.ts";
import { withArticle } from "../../analysis/quote.ts";
import { serializeFragment } from "./serialize.ts";
import type { Fragment } from "./fragment.ts";
import { checkFragment, validateFragment } from "./validate.ts";

export {
  CLAUSE_KINDS,
  FRAGMENT_KINDS,
  type FragmentKind,
  type PropertySpec,
  STATEMENT_KINDS,
} from "./kinds.ts";
export { escapeDocstring, serializeFragment, type SerializeOptions } from "./serialize.ts";
export type { Fragment } from "./fragment.ts";
export { AUGMENTED_OPERATORS, checkFragment, type JsonPath, validateFragment } from "./validate.ts";

/** What a fragment step does at its target (declared once, with the plan schema). */
/** What a tier-3 fragment does at its target (the plan schema's `action` values). */
export const FRAGMENT_ACTIONS = [
  "replace",
  "insert_before",
  "insert_after",
  "append_to_body",
  "prepend_to_body",
] as const;

/** A tier-3 step (the fields of `{"fragment", "action", "target"}`). */
export interface FragmentStep {
  fragment: unknown;
  action: unknown;
  target: unknown;
}

/** Languages fragments serialize to. */
export const FRAGMENT_LANGUAGES: readonly string[] = ["python"];

const CLAUSE_NODE_TYPES = new Set([
  "elif_clause",
  "else_clause",
  "except_clause",
  "except_group_clause",
  "finally_clause",
]);

/**
 * Run a fragment step through `ctx`: validate the fragment, resolve the
 * target, serialize at the target's indentation and place the code with the
 * primitives. Throws an `IssueError` with every problem; returns where the
 * code went.
 */
export async function runFragment(
  step: FragmentStep | Record<string, unknown>,
  ctx: StepContext,
): Promise<unknown> {
  const { fragment, action, target } = step as FragmentStep;
  // Problems of the step itself first, all of them, before the target is looked up.
  const problems: Issue[] = [];
  if (typeof action !== "string" || !(FRAGMENT_ACTIONS as readonly string[]).includes(action)) {
    problems.push(
      error("fragment-action", `Unknown fragment action ${JSON.stringify(action) ?? "undefined"}`, {
        path: ["action"],
        hint: (typeof action === "string" ? didYouMean(closestNames(action, FRAGMENT_ACTIONS)) : undefined) ??
          `actions: ${FRAGMENT_ACTIONS.join(", ")}`,
      }),
    );
  }
  if (target === undefined) {
    problems.push(error("param-missing", `The fragment step has no "target"`, { path: ["target"] }));
  }
  problems.push(...validateFragment(fragment, ["fragment"]));
  if (problems.length > 0) throw new IssueError(problems);
  const { doc, node } = await resolveOne(ctx.store, parseLocator(target, ["target"]), { path: ["target"] });
  const language = doc.file.language;
  if (!FRAGMENT_LANGUAGES.includes(language)) {
    fail("language-unsupported", `Fragments serialize to Python only, "${doc.file.path}" is "${language}"`, {
      path: ["target"],
      file: doc.file.path,
      hint: "use a template or a primitive (replace_node, insert_after_node) for this file",
    });
  }
  const issues = await checkFragment(fragment, { path: ["fragment"], language });
  if (issues.some((issue) => issue.severity === "error")) throw new IssueError(issues);
  for (const item of issues) ctx.warnings.push(item);
  const frag = fragment as Fragment;
  const isClause = FRAGMENT_KINDS[frag.kind].role === "clause";
  const style = { unit: detectIndentUnit(doc.file.text), eol: doc.file.eol };
  const where = (n: Node) => ({ file: doc.file.path, line: n.startPosition.row + 1 });

  if (action === "replace" || action === "insert_before" || action === "insert_after") {
    if (isClause && !CLAUSE_NODE_TYPES.has(node.type)) {
      fail(
        "fragment-target",
        `${capital(withArticle(`"${frag.kind}"`))} fragment goes at a clause, the target is ${
          withArticle(`"${node.type}"`)
        }`,
        {
          path: ["target"],
          ...where(node),
          hint: "target an elif/else/except/finally clause, or place the whole compound statement",
        },
      );
    }
    if (!isClause && !isStatement(node)) {
      fail("fragment-target", `The target is ${withArticle(`"${node.type}"`)}, not a statement`, {
        path: ["target"],
        ...where(node),
        hint: `${
          withArticle(`"${frag.kind}"`)
        } fragment replaces or goes next to a statement: target the enclosing statement`,
      });
    }
    const code = serializeFragment(frag, { ...style, indent: lineIndent(doc.file.text, node.startIndex) });
    if (action === "replace" && code.includes("\n") && !firstOnLine(doc.file.text, node.startIndex)) {
      fail("fragment-target", `The target shares line ${node.startPosition.row + 1} with other code`, {
        path: ["target"],
        ...where(node),
        hint: "a multi-line fragment replaces a statement on its own lines: target the enclosing statement",
      });
    }
    const locator = await exactLocator(ctx.store, doc, node);
    const out = action === "replace"
      ? await PRIMITIVES.replace_node({ locator, replacement: code }, ctx)
      : await PRIMITIVES[`${action}_node`]({ locator, code }, ctx);
    return { action, kind: frag.kind, ...(out as Record<string, unknown>) };
  }

  // append_to_body / prepend_to_body
  if (isClause) {
    fail("fragment-target", `${capital(withArticle(`"${frag.kind}"`))} fragment cannot be a body statement`, {
      path: ["action"],
      hint: "use replace, insert_before or insert_after at a clause",
    });
  }
  const owner = node.type === "decorated_definition" ? node.childForFieldName("definition") ?? node : node;
  const body = !owner.parent ? owner : bodyOf(owner);
  if (!body) {
    fail("fragment-target", `The target "${node.type}" has no body`, {
      path: ["target"],
      ...where(node),
      hint: "target a function, class, compound statement, clause or the module",
    });
  }
  const statements = body.namedChildren.filter((child): child is Node => !!child && child.type !== "comment");
  if (body.parent && statements[0] && !firstOnLine(doc.file.text, statements[0].startIndex)) {
    fail(
      "fragment-target",
      `The body of the "${owner.type}" shares line ${body.startPosition.row + 1} with its header`,
      {
        path: ["target"],
        ...where(owner),
        hint: 'replace the whole statement instead (action "replace")',
      },
    );
  }
  const docstring = statements[0] && isDocstring(statements[0]) ? statements[0] : undefined;
  let lead = docstring ? 1 : 0;
  if (!body.parent) {
    while (lead < statements.length && statements[lead].type === "future_import_statement") lead++;
  }
  const rest = statements.slice(lead);
  const placeholder = rest.length === 1 && isPlaceholder(rest[0]) ? rest[0] : undefined;
  let anchor: Node | undefined;
  let op: "replace" | "insert_before" | "insert_after";
  if (placeholder) [anchor, op] = [placeholder, "replace"];
  else if (action === "append_to_body" && statements.length) {
    [anchor, op] = [statements.at(-1)!, "insert_after"];
  } else if (lead > 0) [anchor, op] = [statements[lead - 1], "insert_after"];
  else if (rest.length) [anchor, op] = [rest[0], "insert_before"];
  else op = "insert_after";
  if (!anchor) {
    // An empty module.
    const code = serializeFragment(frag, { ...style, indent: "" });
    const text = doc.file.text;
    const sep = text === "" || text.endsWith("\n") ? "" : style.eol;
    await ctx.edit(doc.file.path, "fragment", [{
      start: text.length,
      end: text.length,
      replacement: sep + code + style.eol,
    }]);
    return { action, kind: frag.kind, file: doc.file.path, start_line: 1, end_line: 1 };
  }
  const code = serializeFragment(frag, { ...style, indent: lineIndent(doc.file.text, anchor.startIndex) });
  const locator = await exactLocator(ctx.store, doc, anchor);
  const out = op === "replace"
    ? await PRIMITIVES.replace_node({ locator, replacement: code }, ctx)
    : await PRIMITIVES[`${op}_node`]({ locator, code }, ctx);
  return { action, kind: frag.kind, ...(out as Record<string, unknown>) };
}

function capital(text: string): string {
  return text[0].toUpperCase() + text.slice(1);
}

/** A statement: a child of a block or the module, or a decorated definition's definition. */
function isStatement(node: Node): boolean {
  const parent = node.parent;
  if (!parent) return false;
  if (parent.type === "block" || parent.type === "module") return node.type !== "comment";
  return parent.type === "decorated_definition" && parent.childForFieldName("definition")?.id === node.id;
}

/** The block holding a node's body statements. */
function bodyOf(node: Node): Node | undefined {
  const field = node.childForFieldName("body") ?? node.childForFieldName("consequence");
  if (field?.type === "block") return field;
  if (!CLAUSE_NODE_TYPES.has(node.type) && node.type !== "try_statement") return undefined;
  return node.namedChildren.find((child): child is Node => !!child && child.type === "block");
}

function isDocstring(node: Node): boolean {
  return node.type === "expression_statement" && node.namedChildCount === 1 &&
    node.namedChildren[0]?.type === "string";
}

function isPlaceholder(node: Node): boolean {
  return node.type === "pass_statement" ||
    (node.type === "expression_statement" && node.namedChildCount === 1 &&
      node.namedChildren[0]?.type === "ellipsis");
}

/**
 * A locator that matches exactly `node` in `doc`'s current tree (`doc` is
 * `store`'s): its type as a query and its index among the query's matches,
 * found by resolving that query as the primitive then does (and so from the
 * captures resolution keeps per tree).
 */
async function exactLocator(
  store: DocumentStore,
  doc: Document,
  node: Node,
): Promise<Record<string, unknown>> {
  const locator = {
    type: "sexp",
    file: doc.file.path,
    query: `(${node.type}) @node`,
    capture: "node",
  } as const;
  const { nodes } = await resolveLocator(store, locator);
  const index = nodes.findIndex((candidate) => candidate.id === node.id);
  if (index === -1) throw new IssueError(error("internal-error", `Cannot address the "${node.type}" target`));
  return { ...locator, index };
}

/** The catalog entry of fragment steps. */
export const FRAGMENT_ENTRY: CatalogEntry = {
  name: "fragment",
  group: "fragments",
  summary:
    "Novel code as a typed AST fragment {kind, properties, children} (Python node kinds), serialized by the engine at the target's indentation",
  params: [
    {
      name: "fragment",
      kind: "statements",
      required: true,
      description: `{"kind", "properties", "children"}; kinds: ${Object.keys(FRAGMENT_KINDS).join(", ")}`,
    },
    {
      name: "action",
      kind: "position",
      required: true,
      description: FRAGMENT_ACTIONS.join(" | "),
    },
    { name: "target", kind: "locator", required: true, description: "the statement or body owner" },
  ],
  example: {
    fragment: {
      kind: "if_statement",
      properties: { condition: "not lines" },
      children: [{
        kind: "raise_statement",
        properties: { exception: 'ValueError(f"empty config file: {path}")' },
      }],
    },
    action: "insert_before",
    target: { file: "src/pkg/config.py", kind: "return", parent: { kind: "function", name: "load_config" } },
  },
  languages: [...FRAGMENT_LANGUAGES],
};

/** Fragment kinds with their properties, one line each (for the catalog). */
export function fragmentKindLines(): string[] {
  return Object.entries(FRAGMENT_KINDS).map(([kind, spec]) => {
    const props = Object.entries(spec.properties).map(([name, prop]) => `${name}${prop.required ? "" : "?"}`);
    const children = spec.children
      ? spec.children.clauses.length
        ? `; children: body, ${spec.children.clauses.map((c) => `${c.kind}${c.many ? "*" : "?"}`).join(", ")}`
        : "; children: body"
      : "";
    return `${kind}(${props.join(", ")})${children}`;
  });
}
