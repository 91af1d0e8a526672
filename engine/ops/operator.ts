/**
 * What one built-in `op` operator is: the {@link Operator} descriptor every
 * file in this folder exports. The plan schema (`engine/plan`), the catalog
 * (`catalog.ts`), the params check (`check.ts`) and the dispatcher
 * (`dispatch.ts`) read only this, through `registry.ts`, so an operator is
 * one file: its schema, its summary, its catalog entry with a worked
 * example, and the code that runs it.
 *
 * @module
 */

import type { z } from "zod";
import type { CatalogEntry } from "../edit/catalog_types.ts";
import type { OperatorFn } from "../edit/operator.ts";

/**
 * How a step reaches its implementation and how the catalog groups it:
 * - `primitive`: AST-node mutators and read-only ops; take a `locator`.
 * - `surgery`: tier-1 formal transforms (seed 001); take a `target`
 *   (`delete_node` is a primitive accepting `locator` or `target`).
 * - `composed`: the built-in composed operators, DSL programs; `add_method`,
 *   `add_import` and `add_class_attribute` are also the legacy operators of
 *   the same names, accepting both spellings of their parameters.
 * - `legacy`: the other seven string/line-based operators of seed 002.
 * - `file`: whole-file steps, tier 1: a plan never creates, deletes or
 *   renames a file or changes its mode except through one of these (seed
 *   002's File Existence Invariant).
 */
export type OperatorKind = "primitive" | "surgery" | "composed" | "legacy" | "file";

/** What plan validation needs of an operator: name, kind, summary and parameter schema. */
export interface OperatorSpec {
  name: string;
  kind: OperatorKind;
  /** One line for the JSON Schema (`graphplan schema`). */
  summary: string;
  /** Parameters; keys not declared here are reported as unknown. */
  params: z.ZodObject;
  /** Groups of alternative spellings: exactly one of each group is required. */
  oneOf?: string[][];
}

/** A built-in operator, complete: what validation needs, its catalog entry and its code. */
export interface Operator extends OperatorSpec {
  /** Seed 001's tier of a step calling it: 1 for surgery and whole-file steps, 0 otherwise. */
  tier: 0 | 1;
  /**
   * The LLM-facing catalog entry (`graphplan catalog`): its group, a summary
   * that may say more than `summary`, each parameter's kind (the `required`
   * flags agree with `params`, a test checks), one worked Python example
   * step, and the languages it works in. Examples in other languages are in
   * `engine/edit/catalog_examples.ts`, one fixture file per language.
   */
  catalog: CatalogEntry;
  /** Run a validated step. */
  run: OperatorFn;
}
