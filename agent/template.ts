/**
 * A tiny renderer for the prompt templates in `config/graphplan.yaml`:
 *
 * - `{{name}}` or `{{a.b}}`: the value (strings as they are, numbers and
 *   booleans as text, lists as one-line JSON (`["a.py", "b.py"]`), other
 *   values as indented JSON);
 * - `{{#if name}}...{{else}}...{{/if}}`: the first part when the value is
 *   truthy (a non-empty string or list, a non-zero number, `true`, an object),
 *   else the optional second part; blocks nest.
 *
 * A block tag alone on its line removes the whole line, so blocks can be
 * written on lines of their own without leaving blank lines behind.
 *
 * A name missing from the variables is an error in both forms (pass `null`
 * or `""` for "nothing"), so a typo in a template fails loudly instead of
 * sending the model an empty hole.
 *
 * @module
 */

/** A template that cannot be parsed or rendered. */
export class TemplateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TemplateError";
  }
}

type Node =
  | { type: "text"; text: string }
  | { type: "var"; name: string }
  | { type: "if"; name: string; then: Node[]; else: Node[] };

const TAG = /\{\{\s*(#if\s+[\w.]+|else|\/if|[\w.]+)\s*\}\}/g;

/** Render `template` with `vars`; `name` labels errors (e.g. `templates.plan`). */
export function renderTemplate(
  template: string,
  vars: Record<string, unknown>,
  options: { name?: string } = {},
): string {
  const label = options.name ? `template "${options.name}"` : "template";
  return renderNodes(parseTemplate(template, label), vars, label);
}

/** The names a template uses (in `{{name}}` and `{{#if name}}`), in order of first use. */
export function templateVariables(template: string): string[] {
  const names = new Set<string>();
  for (const match of template.matchAll(TAG)) {
    const tag = match[1];
    if (tag.startsWith("#if")) names.add(tag.slice(3).trim());
    else if (tag !== "else" && tag !== "/if") names.add(tag);
  }
  return [...names];
}

function parseTemplate(template: string, label: string): Node[] {
  const root: Node[] = [];
  const stack: { node: Extract<Node, { type: "if" }>; inElse: boolean; line: number }[] = [];
  const target = () => {
    const top = stack.at(-1);
    return top ? (top.inElse ? top.node.else : top.node.then) : root;
  };
  let last = 0;
  for (const match of template.matchAll(TAG)) {
    const index = match.index!;
    const tag = match[1];
    let start = index;
    let end = index + match[0].length;
    if (tag.startsWith("#if") || tag === "else" || tag === "/if") {
      // A block tag alone on its line takes the whole line with it.
      const lineStart = template.lastIndexOf("\n", index - 1) + 1;
      const after = /^[ \t]*(\r?\n|$)/.exec(template.slice(end));
      if (lineStart >= last && /^[ \t]*$/.test(template.slice(lineStart, index)) && after) {
        start = lineStart;
        end += after[0].length;
      }
    }
    if (start > last) target().push({ type: "text", text: template.slice(last, start) });
    last = end;
    const line = template.slice(0, index).split("\n").length;
    if (tag.startsWith("#if")) {
      const node: Extract<Node, { type: "if" }> = {
        type: "if",
        name: tag.slice(3).trim(),
        then: [],
        else: [],
      };
      target().push(node);
      stack.push({ node, inElse: false, line });
    } else if (tag === "else") {
      const top = stack.at(-1);
      if (!top || top.inElse) throw new TemplateError(`Unexpected "{{else}}" in ${label} at line ${line}`);
      top.inElse = true;
    } else if (tag === "/if") {
      if (!stack.pop()) throw new TemplateError(`Unexpected "{{/if}}" in ${label} at line ${line}`);
    } else {
      target().push({ type: "var", name: tag });
    }
  }
  if (stack.length > 0) {
    const open = stack.at(-1)!;
    throw new TemplateError(`Unclosed "{{#if ${open.node.name}}}" in ${label} at line ${open.line}`);
  }
  if (last < template.length) root.push({ type: "text", text: template.slice(last) });
  return root;
}

function renderNodes(nodes: Node[], vars: Record<string, unknown>, label: string): string {
  let out = "";
  for (const node of nodes) {
    if (node.type === "text") out += node.text;
    else if (node.type === "var") out += show(lookup(vars, node.name, label));
    else out += renderNodes(truthy(lookup(vars, node.name, label)) ? node.then : node.else, vars, label);
  }
  return out;
}

function lookup(vars: Record<string, unknown>, name: string, label: string): unknown {
  let value: unknown = vars;
  for (const part of name.split(".")) {
    if (value === null || typeof value !== "object" || !(part in value)) {
      throw new TemplateError(
        `Missing variable "${name}" in ${label}: given ${
          Object.keys(vars).map((key) => `"${key}"`).join(", ") || "none"
        }`,
      );
    }
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

function truthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  return Boolean(value);
}

function show(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return `[${value.map((item) => JSON.stringify(item)).join(", ")}]`;
  return JSON.stringify(value, null, 2);
}
