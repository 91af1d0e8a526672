/**
 * Shorthands for descriptors' catalog entries: one parameter per line, and
 * the descriptions several operators share (the catalog shows a line-number
 * parameter as `line` and a repository path as `path`, by these texts).
 *
 * @module
 */

import type { ParamKind, ParamSpec } from "../edit/catalog_types.ts";

/** A repository-relative file path parameter (shown as `path`). */
export const PATH_TEXT = "file path relative to the repository root";
/** A 1-based line number parameter (shown as `line`). */
export const LINE_TEXT = "1-based line number";
/** A primitive's `locator`. */
export const NODES = "the node(s) to act on";
/** A primitive's `file`: the file of locators that name none. */
export const DEFAULT_FILE = "default file for locators without one";

/** A surgery operator's `target`. */
export const TARGET = "The node to operate on.";
/** Where `copy_node` and `move_node` put the node. */
export const PLACEMENT = "before | after | append_to_body | prepend_to_body (after a docstring).";

/** One catalog parameter. */
export function param(name: string, kind: ParamKind, required: boolean, description: string): ParamSpec {
  return { name, kind, required, description };
}
