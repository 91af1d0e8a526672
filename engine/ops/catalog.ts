/**
 * The LLM-facing operator catalog (seed 001, task 2a), generated from the
 * registries so it cannot drift from the code: the templates (`TEMPLATES`,
 * grouped adding / modifying / wrapping / restructuring by their own
 * `group`), the built-in operators (each descriptor's `catalog` entry in
 * `registry.ts`: surgery, whole files, primitives, composed, legacy) and the
 * fragments (`FRAGMENT_ENTRY`).
 *
 * `renderCatalog()` is the compact markdown the agent's plan prompt includes
 * (`{{operator_catalog}}` in config/graphplan.yaml); `catalogEntries()` the
 * same entries as data (`graphplan catalog --json`).
 *
 * @module
 */

import { CATALOG_GROUPS, type CatalogEntry, type ParamSpec } from "../edit/catalog_types.ts";
import { catalogExample } from "../edit/catalog_examples.ts";
import { FRAGMENT_ENTRY, fragmentKindLines } from "../edit/fragments/mod.ts";
import { TEMPLATES } from "../edit/templates/mod.ts";
import { LINE_TEXT, PATH_TEXT } from "./catalog_parts.ts";
import { OPERATOR_LIST } from "./registry.ts";

/** A catalog entry with the shape of its step, for rendering. */
export interface CatalogItem extends CatalogEntry {
  /** How a step calls it: `op`, `template` or `fragment`. */
  form: "op" | "template" | "fragment";
}

/** The file every primitive, composed and legacy example edits (its text is in the catalog test). */
export const EXAMPLE_FILE = "src/pkg/config.py";

/** Templates and surgery operators in the seed's order (others follow in registry order). */
const SEED_ORDER = [
  "guard_clause",
  "add_import_and_use",
  "add_method",
  "add_parameter",
  "add_class_attribute",
  "add_decorator",
  "add_conditional_branch",
  "replace_expression",
  "modify_condition",
  "change_return_value",
  "replace_function_body",
  "wrap_try_except",
  "wrap_context_manager",
  "extract_variable",
  "inline_variable",
  "rename_identifier",
  "delete_node",
  "copy_node",
  "move_node",
  "swap_nodes",
  "reorder_children",
  "set_blank_lines",
];

function byName(entries: CatalogEntry[]): CatalogEntry[] {
  const rank = (name: string) => {
    const index = SEED_ORDER.indexOf(name);
    return index === -1 ? SEED_ORDER.length : index;
  };
  return entries.map((entry, index) => ({ entry, index }))
    .sort((a, b) => rank(a.entry.name) - rank(b.entry.name) || a.index - b.index)
    .map(({ entry }) => entry);
}

/** A registry entry as catalog data (code and zod schemas left out). */
function plain(entry: CatalogEntry, form: CatalogItem["form"]): CatalogItem {
  const { name, group, summary, params, example, languages } = entry;
  return {
    name,
    group,
    summary,
    params: params.map(({ name, kind, required, description }) => ({ name, kind, required, description })),
    example,
    languages: [...languages],
    form,
  };
}

/** Options of {@link catalogEntries} and {@link renderCatalog}. */
export interface CatalogOptions {
  /** Only entries supporting this language. */
  language?: string;
  /** Only these groups (in catalog order regardless of the order given). */
  groups?: readonly string[];
  /** The registries (default: the real ones). */
  sources?: CatalogSources;
}

/** The registries the catalog is built from (tests substitute their own). */
export interface CatalogSources {
  templates: Readonly<Record<string, CatalogEntry>>;
  /** The built-in `op` operators, in registry order. */
  operators: readonly { catalog: CatalogEntry }[];
  fragment: CatalogEntry;
}

/** The real registries. */
export function registrySources(): CatalogSources {
  return { templates: TEMPLATES, operators: OPERATOR_LIST, fragment: FRAGMENT_ENTRY };
}

/**
 * Every catalog entry, in catalog order: groups as in `CATALOG_GROUPS`;
 * templates and surgery operators by the seed's order, the other operators
 * in registry order.
 */
export function catalogEntries(options: CatalogOptions = {}): CatalogItem[] {
  const sources = options.sources ?? registrySources();
  const operators = sources.operators.map((entry) => entry.catalog);
  const items: CatalogItem[] = [];
  for (const entry of byName(Object.values(sources.templates))) items.push(plain(entry, "template"));
  for (const entry of byName(operators.filter((entry) => entry.group === "surgery"))) {
    items.push(plain(entry, "op"));
  }
  for (const entry of operators.filter((entry) => entry.group !== "surgery")) items.push(plain(entry, "op"));
  items.push(plain(sources.fragment, "fragment"));
  const groupRank = (group: string) => {
    const index = (CATALOG_GROUPS as readonly string[]).indexOf(group);
    return index === -1 ? CATALOG_GROUPS.length : index;
  };
  return items
    .map((item, index) => ({ item, index }))
    .sort((a, b) => groupRank(a.item.group) - groupRank(b.item.group) || a.index - b.index)
    .map(({ item }) => item)
    .filter((item) => !options.language || item.languages.includes(options.language))
    .filter((item) => !options.groups || options.groups.includes(item.group))
    .map((item) => inLanguage(item, options.language));
}

/**
 * The entry as one language sees it: its example in that language
 * (`catalog_examples.ts`); without one, no example rather than another
 * language's. Python and the unfiltered catalog keep the entry's own.
 */
function inLanguage(item: CatalogItem, language: string | undefined): CatalogItem {
  if (!language || language === "python") return item;
  const example = catalogExample(language, item.form, item.name);
  const { example: _own, ...rest } = item;
  return example ? { ...rest, example } : rest as CatalogItem;
}

const GROUP_HEADINGS: Record<string, string> = {
  adding: 'Adding code (templates: {"template": NAME, "params": {"target": LOCATOR, ...}})',
  modifying: "Modifying code (templates)",
  wrapping: "Wrapping code (templates)",
  restructuring: "Restructuring (templates)",
  surgery: 'AST surgery ({"op": NAME, "params": {...}}; nodes found by locators)',
  files: "Whole files (a new, deleted or renamed file is always its own step)",
  fragments: 'Novel code: typed fragments ({"fragment": {...}, "action": ACTION, "target": LOCATOR})',
  primitives: 'Primitives ({"op": NAME, "params": {...}}): when no template fits',
  composed: "Composed operators",
  legacy: "Legacy (still supported: text patterns and line numbers; use only when nothing above fits)",
};

/**
 * One param as the catalog shows it: `name: kind`, `name?: kind` when
 * optional; a `position` shows its values (the description), a line number
 * `line`, a file `path`.
 */
function showParam(param: ParamSpec, entry: CatalogItem): string {
  let shown: string = param.kind;
  if (entry.form === "fragment" && param.name === "fragment") shown = "{kind, properties?, children?}";
  else if (param.description === LINE_TEXT) shown = "line";
  else if (param.description === PATH_TEXT) shown = "path";
  else if (param.kind === "position") shown = param.description;
  return `${param.name}${param.required ? "" : "?"}: ${shown}`;
}

/**
 * The catalog as compact markdown for a model: groups in order, each entry
 * with its name, summary, params (kind, `?` = optional) and one worked
 * example step as one line of JSON.
 */
export function renderCatalog(options: CatalogOptions = {}): string {
  const entries = catalogEntries(options);
  const out: string[] = [
    "Prefer a template when one fits, AST surgery to rename/move/copy/delete nodes, a fragment for new",
    "code no template covers, primitives otherwise; legacy operators are the last resort.",
    'Locators: {"file", "kind", "name"}, plus "parent" (a locator), "field", "nth_child" or "index" to narrow.',
  ];
  let group = "";
  for (const entry of entries) {
    if (entry.group !== group) {
      group = entry.group;
      out.push("", `## ${GROUP_HEADINGS[group] ?? group}`);
      if (group === "fragments") {
        out.push(
          "Fragment kinds (tree-sitter node types; `?` = optional property; body = statements; a block with no",
          "body gets `pass`). Expressions and parameter lists are source text; docstrings are escaped for you;",
          'a comment\'s text is what follows its "#", space included (" Retry once." gives "# Retry once."):',
          ...fragmentKindLines().map((line) => `  ${line}`),
        );
      }
    }
    const form = entry.form === "template" ? "template " : "";
    out.push(`- ${form}\`${entry.name}\`: ${entry.summary}`);
    if (entry.params.length) {
      out.push(`  params: ${entry.params.map((param) => showParam(param, entry)).join(", ")}`);
    }
    if (entry.example !== undefined) out.push(`  e.g. ${JSON.stringify(entry.example)}`);
  }
  return out.join("\n") + "\n";
}
