/**
 * A plan step's operator and target in words, for a person reading the
 * inspect page: `{"file": "app/service.py", "kind": "method", "name":
 * "order_total", "parent": {"kind": "class", "name": "OrderService"}}`
 * reads "method order_total of class OrderService in app/service.py".
 *
 * Steps of every tier are read: templates, surgery and primitives through
 * their `target` or `locator`, fragments through `target`, composed and
 * legacy operators through `class`/`class_name`, `file`, `pattern` and
 * `anchor_line`.
 *
 * @module
 */

type Dict = Record<string, unknown>;

function dict(value: unknown): Dict | undefined {
  return value && typeof value === "object" && !Array.isArray(value) ? value as Dict : undefined;
}

function ordinal(n: number): string {
  if (n < 0) return n === -1 ? "last" : `${-n}th from the end`;
  const suffix = n % 10 === 1 && n % 100 !== 11
    ? "st"
    : n % 10 === 2 && n % 100 !== 12
    ? "nd"
    : n % 10 === 3 && n % 100 !== 13
    ? "rd"
    : "th";
  return `${n}${suffix}`;
}

/** The node part of a locator, without its file: `method order_total of class OrderService`. */
function nodeWords(locator: Dict): string {
  if (locator.type === "sexp") {
    const capture = typeof locator.capture === "string" ? ` capture @${locator.capture}` : "";
    return `query ${JSON.stringify(String(locator.query ?? ""))}${capture}`;
  }
  const kind = typeof locator.kind === "string" ? locator.kind : undefined;
  const name = typeof locator.name === "string" ? locator.name : undefined;
  let words = kind && name ? `${kind} ${name}` : kind ?? (name ? `definition ${name}` : "file");
  if (typeof locator.index === "number") words += ` (match #${locator.index})`;
  const parent = dict(locator.parent);
  if (parent) words += ` of ${nodeWords(parent)}`;
  if (typeof locator.field === "string") words = `the ${locator.field} of ${words}`;
  if (typeof locator.nth_child === "number") {
    words = `the ${ordinal(locator.nth_child)} named child of ${words}`;
  }
  return words;
}

/** A locator in words; `file` is inherited by a parent-less chain. */
export function locatorWords(locator: unknown): string {
  const loc = dict(locator);
  if (!loc) return typeof locator === "string" ? locator : "(no target)";
  const file = typeof loc.file === "string" ? ` in ${loc.file}` : "";
  return nodeWords(loc) + file;
}

/** The operator of a step: the `op`, the `template`, or `fragment KIND (ACTION)`. */
export function stepOperator(step: unknown): string {
  const record = dict(step);
  if (!record) return "(not a step)";
  if (typeof record.template === "string") return record.template;
  if (typeof record.op === "string") return record.op;
  const fragment = dict(record.fragment);
  if (fragment) {
    const action = typeof record.action === "string" ? ` (${record.action})` : "";
    return `fragment ${String(fragment.kind ?? "?")}${action}`;
  }
  return "(unknown operator)";
}

/** Where a step acts, in words. */
export function stepTarget(step: unknown): string {
  const record = dict(step);
  if (!record) return "(no target)";
  if (record.target !== undefined) return locatorWords(record.target);
  const params = dict(record.params) ?? {};
  for (const key of ["target", "locator"]) {
    if (params[key] !== undefined) return locatorWords(params[key]);
  }
  const file = typeof params.file === "string" ? params.file : undefined;
  const cls = params.class_name ?? params.class;
  const where = file ? ` in ${file}` : "";
  if (typeof cls === "string") return `class ${cls}${where}`;
  if (typeof params.anchor_line === "number") return `line ${params.anchor_line}${where}`;
  if (typeof params.pattern === "string") return `text matching ${JSON.stringify(params.pattern)}${where}`;
  if (typeof params.function_name === "string") return `function ${params.function_name}${where}`;
  return file ?? "(no target)";
}
