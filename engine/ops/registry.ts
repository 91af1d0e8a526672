/**
 * The registry: every built-in `op` operator, one descriptor per file of
 * this folder (`operator.ts` says what a descriptor holds). The plan schema
 * and validation (`engine/plan`), `graphplan schema`, the catalog
 * (`catalog.ts`, `graphplan catalog`) and the dispatcher (`dispatch.ts`)
 * read this list and nothing else, so adding an operator is adding its file
 * and one line here (see this folder's README).
 *
 * The order is the JSON Schema's and the "operators: ..." lists' in
 * messages: primitives (seed 002's mutator and read-only primitives), tier-1
 * surgery (seed 001), the composed built-ins (also legacy names), the other
 * legacy operators (seed 002), then the whole-file steps.
 *
 * @module
 */

import { REPLACE_NODE } from "./replace_node.ts";
import { INSERT_BEFORE_NODE } from "./insert_before_node.ts";
import { INSERT_AFTER_NODE } from "./insert_after_node.ts";
import { DELETE_NODE } from "./delete_node.ts";
import { WRAP_NODE } from "./wrap_node.ts";
import { REPLACE_ALL_MATCHING } from "./replace_all_matching.ts";
import { LOCATE } from "./locate.ts";
import { LOCATE_REGION } from "./locate_region.ts";
import { RENAME_IDENTIFIER } from "./rename_identifier.ts";
import { COPY_NODE } from "./copy_node.ts";
import { MOVE_NODE } from "./move_node.ts";
import { SWAP_NODES } from "./swap_nodes.ts";
import { SET_BLANK_LINES } from "./set_blank_lines.ts";
import { RELAYOUT_NODE } from "./relayout_node.ts";
import { REORDER_CHILDREN } from "./reorder_children.ts";
import { ADD_METHOD } from "./add_method.ts";
import { ADD_IMPORT } from "./add_import.ts";
import { ADD_CLASS_ATTRIBUTE } from "./add_class_attribute.ts";
import { REPLACE_CODE } from "./replace_code.ts";
import { INSERT_CODE } from "./insert_code.ts";
import { DELETE_LINES } from "./delete_lines.ts";
import { MODIFY_FUNCTION_SIGNATURE } from "./modify_function_signature.ts";
import { RENAME_SYMBOL } from "./rename_symbol.ts";
import { WRAP_BLOCK } from "./wrap_block.ts";
import { REPLACE_FUNCTION_BODY } from "./replace_function_body.ts";
import { CREATE_FILE } from "./create_file.ts";
import { DELETE_FILE } from "./delete_file.ts";
import { RENAME_FILE } from "./rename_file.ts";
import { SET_MODE } from "./set_mode.ts";
import type { Operator } from "./operator.ts";

/** The operator descriptors, in schema order. */
export const OPERATOR_LIST: readonly Operator[] = [
  REPLACE_NODE,
  INSERT_BEFORE_NODE,
  INSERT_AFTER_NODE,
  DELETE_NODE,
  WRAP_NODE,
  REPLACE_ALL_MATCHING,
  LOCATE,
  LOCATE_REGION,
  RENAME_IDENTIFIER,
  COPY_NODE,
  MOVE_NODE,
  SWAP_NODES,
  SET_BLANK_LINES,
  RELAYOUT_NODE,
  REORDER_CHILDREN,
  ADD_METHOD,
  ADD_IMPORT,
  ADD_CLASS_ATTRIBUTE,
  REPLACE_CODE,
  INSERT_CODE,
  DELETE_LINES,
  MODIFY_FUNCTION_SIGNATURE,
  RENAME_SYMBOL,
  WRAP_BLOCK,
  REPLACE_FUNCTION_BODY,
  CREATE_FILE,
  DELETE_FILE,
  RENAME_FILE,
  SET_MODE,
];

/** Every built-in `op`, by name. */
export const OPERATORS: ReadonlyMap<string, Operator> = new Map(
  OPERATOR_LIST.map((entry) => [entry.name, entry]),
);

/** Tier-1 surgery op names (seed 001 `detect_tier`): tier 1, not a whole-file step. */
export const SURGERY_OPS: ReadonlySet<string> = new Set(
  OPERATOR_LIST.filter((entry) => entry.tier === 1 && entry.kind !== "file").map((entry) => entry.name),
);

/** Whole-file op names (tier 1, kind `file`). */
export const FILE_OPS: ReadonlySet<string> = new Set(
  OPERATOR_LIST.filter((entry) => entry.kind === "file").map((entry) => entry.name),
);
