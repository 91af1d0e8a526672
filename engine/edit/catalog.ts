/**
 * The LLM-facing operator catalog (seed 001, task 2a), generated from the
 * registries so it cannot drift from the code:
 *
 * - templates (`TEMPLATES`, grouped adding / modifying / wrapping /
 *   restructuring by their own `group`), AST surgery (`SURGERY_OPS`) and
 *   fragments (`FRAGMENT_ENTRY`) are `CatalogEntry` records already;
 * - primitives, composed and legacy operators have their parameter names,
 *   required flags and summaries from the plan schema
 *   (`engine/plan/operators.ts`), and the operator names from `PRIMITIVES`,
 *   `COMPOSED_OPS` and `LEGACY_OPS`; only what the schema cannot say (the
 *   kind of each parameter, a worked example, the languages) is kept in
 *   {@link OPERATOR_NOTES} here, and a test fails when a note names a
 *   parameter or operator the registries do not have, or misses one.
 *
 * `renderCatalog()` is the compact markdown the agent's plan prompt includes
 * (`{{operator_catalog}}` in config/graphplan.yaml); `catalogEntries()` the
 * same entries as data (`graphplan catalog --json`).
 *
 * @module
 */

import { LANGUAGES } from "../../grammars/mod.ts";
import { OPERATORS } from "../plan/operators.ts";
import { CATALOG_GROUPS, type CatalogEntry, type ParamKind, type ParamSpec } from "./catalog_types.ts";
import { catalogExample } from "./catalog_examples.ts";
import { COMPOSED_OPS } from "./composed_ops.ts";
import { FRAGMENT_ENTRY, fragmentKindLines } from "./fragments/mod.ts";
import { FILE_OPS } from "./file_ops.ts";
import { LEGACY_OPS } from "./legacy/mod.ts";
import { PRIMITIVES } from "./primitives.ts";
import { SURGERY_OPS } from "./surgery/mod.ts";
import { TEMPLATES } from "./templates/mod.ts";

/** A catalog entry with the shape of its step, for rendering. */
export interface CatalogItem extends CatalogEntry {
  /** How a step calls it: `op`, `template` or `fragment`. */
  form: "op" | "template" | "fragment";
}

/** What the catalog says about a primitive, composed or legacy operator beyond the plan schema. */
export interface OperatorNote {
  group: "primitives" | "composed" | "legacy";
  /** Per parameter (every one the schema declares, alternative spellings excepted): kind and description. */
  params: Record<string, { kind: ParamKind; description: string }>;
  /** One worked step, valid against `EXAMPLE_FILE`'s code. */
  example: { op: string; params: Record<string, unknown> };
  /** Languages; all parsed languages when absent. */
  languages?: readonly string[];
  /** A summary replacing the schema's, when the catalog needs more than it says. */
  summary?: string;
}

/** The file every primitive, composed and legacy example edits (its text is in the catalog test). */
export const EXAMPLE_FILE = "src/pkg/config.py";

const F = EXAMPLE_FILE;
const LOCATOR = { kind: "locator" as const, description: "the node(s) to act on" };
const FILE = { kind: "string" as const, description: "default file for locators without one" };
const PATH = { kind: "string" as const, description: "file path relative to the repository root" };
const LINE = { kind: "position" as const, description: "1-based line number" };

/**
 * Catalog notes for the operators that are not `CatalogEntry` records, by
 * name, in catalog order within each group.
 */
export const OPERATOR_NOTES: Readonly<Record<string, OperatorNote>> = {
  replace_node: {
    group: "primitives",
    params: {
      locator: LOCATOR,
      replacement: { kind: "statements", description: "the node's new text" },
      file: FILE,
    },
    example: {
      op: "replace_node",
      params: {
        locator: { file: F, kind: "method", name: "get_option", parent: { kind: "class", name: "Config" } },
        replacement: "def get_option(self, name, default=None):\n    return self.values.get(name, default)",
      },
    },
  },
  insert_before_node: {
    group: "primitives",
    params: {
      locator: LOCATOR,
      code: { kind: "statements", description: "code inserted before the node" },
      separator: {
        kind: "string",
        description: 'between code and node: "\\n\\n" = one blank line, ", " inline',
      },
      file: FILE,
    },
    example: {
      op: "insert_before_node",
      params: {
        locator: { file: F, kind: "function", name: "load_config" },
        code:
          'def parse_line(line):\n    key, _, value = line.partition("=")\n    return key.strip(), value.strip()',
      },
    },
  },
  insert_after_node: {
    group: "primitives",
    params: {
      locator: LOCATOR,
      code: { kind: "statements", description: "code inserted after the node" },
      separator: {
        kind: "string",
        description: 'between node and code: "\\n\\n" = one blank line, ", " inline',
      },
      file: FILE,
    },
    example: {
      op: "insert_after_node",
      params: { locator: { file: F, kind: "import", name: "os" }, code: "import sys" },
    },
  },
  delete_node: {
    group: "primitives",
    params: {
      locator: LOCATOR,
      all: { kind: "boolean", description: "delete every match instead of exactly one" },
      file: FILE,
    },
    example: {
      op: "delete_node",
      params: { locator: { file: F, kind: "import", name: "os" } },
    },
  },
  wrap_node: {
    group: "primitives",
    params: {
      locator: LOCATOR,
      before: { kind: "statements", description: "code before the node (e.g. a block header)" },
      after: { kind: "statements", description: "code after the node" },
      indent_body: {
        kind: "string",
        description:
          "indentation added to the wrapped lines: true (default) one unit of the file, false none, spaces or text",
      },
      file: FILE,
    },
    example: {
      op: "wrap_node",
      params: {
        locator: { file: F, kind: "with", parent: { kind: "function", name: "load_config" } },
        before: "try:",
        after: "except OSError:\n    return Config({})",
      },
    },
  },
  replace_all_matching: {
    group: "primitives",
    params: {
      locator: LOCATOR,
      replacement: { kind: "expression", description: "new text of every match" },
      filter: { kind: "string", description: '"not_in_string_or_comment"' },
      file: FILE,
    },
    example: {
      op: "replace_all_matching",
      params: {
        locator: { file: F, kind: "identifier", name: "DEFAULT_TIMEOUT" },
        replacement: "TIMEOUT_SECONDS",
        filter: "not_in_string_or_comment",
      },
    },
  },
  locate: {
    group: "primitives",
    params: { locator: LOCATOR, file: FILE },
    example: { op: "locate", params: { locator: { file: F, kind: "class", name: "Config" } } },
  },
  locate_region: {
    group: "primitives",
    params: { locator: LOCATOR, file: FILE },
    example: {
      op: "locate_region",
      params: {
        locator: { file: F, kind: "method", name: "__init__", parent: { kind: "class", name: "Config" } },
      },
    },
  },
  add_method: {
    group: "composed",
    languages: ["python", "javascript", "typescript", "tsx", "java"],
    params: {
      file: PATH,
      class_name: { kind: "identifier", description: "the class" },
      method_code: { kind: "statements", description: "the whole method" },
    },
    example: {
      op: "add_method",
      params: {
        file: F,
        class_name: "Config",
        method_code: "def has_option(self, name):\n    return name in self.values",
      },
    },
  },
  add_import: {
    group: "composed",
    languages: ["python", "javascript", "typescript", "tsx", "java", "go", "rust", "c", "cpp", "php"],
    params: {
      file: PATH,
      import_statement: { kind: "import_statement", description: "one import statement" },
    },
    example: { op: "add_import", params: { file: F, import_statement: "from pathlib import Path" } },
  },
  add_class_attribute: {
    group: "composed",
    languages: ["python", "javascript", "typescript", "tsx", "java"],
    params: {
      file: PATH,
      class_name: { kind: "identifier", description: "the class" },
      attribute: { kind: "statements", description: "the attribute statement" },
    },
    example: {
      op: "add_class_attribute",
      params: { file: F, class_name: "Config", attribute: 'separator = "="' },
    },
  },
  replace_code: {
    group: "legacy",
    params: {
      file: PATH,
      pattern: { kind: "string", description: "text to find (exact, then whitespace-insensitive)" },
      replacement: { kind: "statements", description: "its replacement" },
    },
    example: {
      op: "replace_code",
      params: { file: F, pattern: "DEFAULT_TIMEOUT = 30", replacement: "DEFAULT_TIMEOUT = 60" },
    },
  },
  insert_code: {
    group: "legacy",
    params: {
      file: PATH,
      anchor_line: LINE,
      position: { kind: "position", description: '"before" or "after"' },
      code: { kind: "statements", description: "code inserted" },
    },
    example: {
      op: "insert_code",
      params: { file: F, anchor_line: 2, position: "after", code: "import sys" },
    },
  },
  delete_lines: {
    group: "legacy",
    params: { file: PATH, start_line: LINE, end_line: LINE },
    example: { op: "delete_lines", params: { file: F, start_line: 4, end_line: 4 } },
  },
  modify_function_signature: {
    group: "legacy",
    params: {
      file: PATH,
      func_name: { kind: "identifier", description: "the function" },
      old_signature: { kind: "string", description: "current signature text" },
      new_signature: { kind: "string", description: "new signature text" },
    },
    example: {
      op: "modify_function_signature",
      params: {
        file: F,
        func_name: "load_config",
        old_signature: "def load_config(path):",
        new_signature: 'def load_config(path, encoding="utf-8"):',
      },
    },
  },
  rename_symbol: {
    group: "legacy",
    params: {
      file: PATH,
      old_name: { kind: "identifier", description: "current name" },
      new_name: { kind: "identifier", description: "new name" },
    },
    example: {
      op: "rename_symbol",
      params: { file: F, old_name: "DEFAULT_TIMEOUT", new_name: "TIMEOUT_SECONDS" },
    },
  },
  wrap_block: {
    group: "legacy",
    params: {
      file: PATH,
      start_line: LINE,
      end_line: LINE,
      before_code: { kind: "statements", description: "code before the lines" },
      after_code: { kind: "statements", description: "code after the lines" },
    },
    example: {
      op: "wrap_block",
      params: {
        file: F,
        start_line: 23,
        end_line: 24,
        before_code: "try:",
        after_code: "except OSError:\n    return Config({})",
      },
    },
  },
  replace_function_body: {
    group: "legacy",
    params: {
      file: PATH,
      func_name: { kind: "identifier", description: "the function" },
      new_body: { kind: "statements", description: "the new body" },
    },
    example: {
      op: "replace_function_body",
      params: {
        file: F,
        func_name: "load_config",
        new_body: "with open(path) as handle:\n    return Config(parse_line(line) for line in handle)",
      },
    },
  },
};

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
  "relayout_node",
];

/** The registries the catalog is built from (tests substitute their own). */
export interface CatalogSources {
  templates: Readonly<Record<string, CatalogEntry>>;
  surgery: Readonly<Record<string, CatalogEntry>>;
  /** Whole-file steps (`file_ops.ts`). */
  files?: Readonly<Record<string, CatalogEntry>>;
  fragment: CatalogEntry;
  /** Operator names of each group of `OPERATOR_NOTES`. */
  primitives: readonly string[];
  composed: readonly string[];
  legacy: readonly string[];
}

/** The real registries. */
export function registrySources(): CatalogSources {
  return {
    templates: TEMPLATES,
    surgery: SURGERY_OPS,
    files: FILE_OPS,
    fragment: FRAGMENT_ENTRY,
    primitives: Object.keys(PRIMITIVES),
    composed: Object.keys(COMPOSED_OPS),
    legacy: Object.keys(LEGACY_OPS),
  };
}

/** The catalog params of an operator: the schema's names and required flags, the note's kinds. */
export function operatorParams(name: string, note: OperatorNote): ParamSpec[] {
  const spec = OPERATORS.get(name);
  if (!spec) throw new Error(`The plan schema has no operator "${name}"`);
  const alternatives = new Set((spec.oneOf ?? []).flatMap((group) => group.slice(1)));
  const oneOfFirst = new Set((spec.oneOf ?? []).map((group) => group[0]));
  const out: ParamSpec[] = [];
  for (const [param, schema] of Object.entries(spec.params.shape)) {
    if (alternatives.has(param)) continue;
    const info = note.params[param];
    if (!info) throw new Error(`The catalog has no note for parameter "${param}" of "${name}"`);
    const optional =
      (schema as { safeParse(value: unknown): { success: boolean } }).safeParse(undefined).success;
    out.push({
      name: param,
      kind: info.kind,
      required: !optional || oneOfFirst.has(param),
      description: info.description,
    });
  }
  return out;
}

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

/** Every catalog entry, in catalog order: groups as in `CATALOG_GROUPS`, then by the seed's order. */
export function catalogEntries(options: CatalogOptions = {}): CatalogItem[] {
  const sources = options.sources ?? registrySources();
  const items: CatalogItem[] = [];
  for (const entry of byName(Object.values(sources.templates))) items.push(plain(entry, "template"));
  for (const entry of byName(Object.values(sources.surgery))) items.push(plain(entry, "op"));
  for (const entry of Object.values(sources.files ?? {})) items.push(plain(entry, "op"));
  items.push(plain(sources.fragment, "fragment"));
  const listed = new Set(items.filter((item) => item.form === "op").map((item) => item.name));
  for (const group of ["primitives", "composed", "legacy"] as const) {
    for (const name of sources[group]) {
      if (listed.has(name)) continue; // delete_node: a surgery op and a primitive, listed once
      const note = OPERATOR_NOTES[name];
      if (!note) throw new Error(`The catalog has no note for the ${group} operator "${name}"`);
      items.push({
        name,
        group,
        summary: note.summary ?? OPERATORS.get(name)?.summary ?? name,
        params: operatorParams(name, note),
        example: note.example,
        languages: [...(note.languages ?? LANGUAGES)],
        form: "op",
      });
    }
  }
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
  else if (param.description === LINE.description) shown = "line";
  else if (param.description === PATH.description) shown = "path";
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
