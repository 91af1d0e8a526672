/**
 * Shared shapes for the LLM-facing operator catalog. Every registry (surgery operators, templates,
 * fragments, primitives, composed and legacy operators) describes its entries with these types so the
 * catalog is generated from the code and cannot drift from it.
 *
 * @module
 */

/** How a parameter value is interpreted and validated. */
export type ParamKind =
  | "identifier"
  | "expression"
  | "statements"
  | "locator"
  | "type_annotation"
  | "import_statement"
  | "decorator"
  | "condition"
  | "string"
  | "boolean"
  | "position"
  | "names"
  | "count"
  | "parameters";

/** One parameter of a catalog entry. */
export interface ParamSpec {
  /** Parameter name as it appears in a plan step. */
  name: string;
  /** Grammatical role / value type of the parameter. */
  kind: ParamKind;
  /** Whether the step must provide the parameter. */
  required: boolean;
  /** One short sentence for the catalog. */
  description: string;
}

/** Catalog groups in the order the catalog presents them. */
export const CATALOG_GROUPS = [
  "adding",
  "modifying",
  "wrapping",
  "restructuring",
  "surgery",
  "files",
  "fragments",
  "primitives",
  "composed",
  "legacy",
] as const;

/** One operator, template or fragment entry as the model sees it. */
export interface CatalogEntry {
  /** Operator / template name used in plan steps. */
  name: string;
  /** adding | modifying | wrapping | restructuring | surgery | files | fragments | primitives | composed | legacy */
  group: string;
  /** One line for the catalog. */
  summary: string;
  /** Parameters of the step. */
  params: ParamSpec[];
  /** One complete worked JSON plan step, valid against the real code of a realistic file. */
  example: unknown;
  /** Languages supported (e.g. "python", "javascript", "typescript", "tsx"). */
  languages: string[];
}
