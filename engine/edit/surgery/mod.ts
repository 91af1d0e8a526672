/**
 * Tier 1, AST surgery: operators that move existing code around without the
 * model retyping it. Each takes a `target` locator:
 *
 * | op | parameters besides `target` | file |
 * | --- | --- | --- |
 * | `rename_identifier` | `new_name`, `include_strings?`, `include_comments?`, `scope?` | `rename.ts`, `rename_imports.ts` |
 * | `copy_node`, `move_node` | `destination`, `position` | `move.ts` |
 * | `swap_nodes` | `other` | `swap.ts` |
 * | `delete_node` | — (the primitive; `locator` accepted too) | `../primitives.ts` |
 * | `reorder_children` | `order` | `reorder.ts` |
 * | `set_blank_lines` | `before?`, `after?` | `blank_lines.ts` |
 * | `relayout_node` | `text` | `relayout.ts` |
 *
 * What travels with a node (decorators, `export`, attached comments) and
 * where code can be put is in `units.ts`. `SURGERY_OPS` is the registry:
 * catalog data and the operator together, so the catalog cannot drift.
 *
 * @module
 */

import type { z } from "zod";
import { LANGUAGES } from "../../../grammars/mod.ts";
import { OPERATORS } from "../../plan/operators.ts";
import type { CatalogEntry } from "../catalog_types.ts";
import type { OperatorFn } from "../operator.ts";
import { PRIMITIVES } from "../primitives.ts";
import { setBlankLines } from "./blank_lines.ts";
import { relayoutNode } from "./relayout.ts";
import { copyNode, moveNode } from "./move.ts";
import { renameIdentifier } from "./rename.ts";
import { BRACED_RENAME_LANGUAGES } from "./rename_braced.ts";
import { reorderChildren } from "./reorder.ts";
import { swapNodes } from "./swap.ts";

/** A surgery operator: catalog entry, zod schema of its params, and code. */
export interface SurgeryOp extends CatalogEntry {
  run: OperatorFn;
  /**
   * The shape of `params`: the plan catalog's (`engine/plan/operators.ts`),
   * so plan validation and the registry cannot disagree. Values are checked
   * again, with better messages, when the op runs.
   */
  paramsSchema: z.ZodType;
}

const EXAMPLE_FILE = "requests/auth.py";
/** Where the other surgery ops work (beyond Python: tests/engine/edit/surgery/languages_test.ts). */
const ALL = ["python", "javascript", "typescript", "tsx", "go", "rust", "java"];

const target = {
  name: "target",
  kind: "locator",
  required: true,
  description: "The node to operate on.",
} as const;

/** The plan catalog's parameter schema of a surgery op. */
function planParams(name: string): z.ZodType {
  const spec = OPERATORS.get(name);
  if (!spec) throw new Error(`Surgery op "${name}" is missing from the plan catalog`);
  return spec.params;
}

/** Tier-1 surgery operators by name. */
export const SURGERY_OPS: Record<string, SurgeryOp> = {
  rename_identifier: {
    name: "rename_identifier",
    group: "surgery",
    summary:
      'Rename a binding and exactly its uses (scope-aware; strings, comments untouched); "scope": "repository" also renames it in the files that import it.',
    params: [
      { ...target, description: "The binding (def, class, parameter, assignment, import) or any use of it." },
      { name: "new_name", kind: "identifier", required: true, description: "The new name." },
      {
        name: "include_strings",
        kind: "boolean",
        required: false,
        description: "Also rename whole-word occurrences in string literals of the scope.",
      },
      {
        name: "include_comments",
        kind: "boolean",
        required: false,
        description: "Also rename whole-word occurrences in comments of the scope.",
      },
      {
        name: "scope",
        kind: "position",
        required: false,
        description:
          'file | repository: "repository" also renames a module-level name where other files import it (`from m import old`, `m.old`), all files in one step; with "file" (default) such a name is refused.',
      },
    ],
    example: {
      op: "rename_identifier",
      params: {
        target: { file: EXAMPLE_FILE, kind: "function", name: "_basic_auth_str" },
        new_name: "_basic_auth_header",
      },
    },
    languages: ["python", ...BRACED_RENAME_LANGUAGES],
    run: renameIdentifier,
    paramsSchema: planParams("rename_identifier"),
  },
  copy_node: {
    name: "copy_node",
    group: "surgery",
    summary: "Copy a node (with its decorators and comments) before/after another node or into a body.",
    params: [
      target,
      { name: "destination", kind: "locator", required: true, description: "Where the copy goes." },
      {
        name: "position",
        kind: "position",
        required: true,
        description: "before | after | append_to_body | prepend_to_body (after a docstring).",
      },
    ],
    example: {
      op: "copy_node",
      params: {
        target: {
          file: EXAMPLE_FILE,
          kind: "method",
          name: "__init__",
          parent: { kind: "class", name: "HTTPBasicAuth" },
        },
        destination: { file: EXAMPLE_FILE, kind: "class", name: "HTTPProxyAuth" },
        position: "prepend_to_body",
      },
    },
    languages: ALL,
    run: copyNode,
    paramsSchema: planParams("copy_node"),
  },
  move_node: {
    name: "move_node",
    group: "surgery",
    summary: "Move a node (with its decorators and comments) before/after another node or into a body.",
    params: [
      target,
      { name: "destination", kind: "locator", required: true, description: "Where the node goes." },
      {
        name: "position",
        kind: "position",
        required: true,
        description: "before | after | append_to_body | prepend_to_body (after a docstring).",
      },
    ],
    example: {
      op: "move_node",
      params: {
        target: {
          file: EXAMPLE_FILE,
          kind: "method",
          name: "handle_401",
          parent: { kind: "class", name: "HTTPDigestAuth" },
        },
        destination: {
          file: EXAMPLE_FILE,
          kind: "method",
          name: "__call__",
          parent: { kind: "class", name: "HTTPDigestAuth" },
        },
        position: "after",
      },
    },
    languages: ALL,
    run: moveNode,
    paramsSchema: planParams("move_node"),
  },
  swap_nodes: {
    name: "swap_nodes",
    group: "surgery",
    summary: "Swap two statements, definitions or arguments; each takes the other's place and indentation.",
    params: [
      target,
      { name: "other", kind: "locator", required: true, description: "The node to swap with (same kind)." },
    ],
    example: {
      op: "swap_nodes",
      params: {
        target: {
          file: EXAMPLE_FILE,
          kind: "method",
          name: "__init__",
          parent: { kind: "class", name: "HTTPBasicAuth" },
        },
        other: {
          file: EXAMPLE_FILE,
          kind: "method",
          name: "__call__",
          parent: { kind: "class", name: "HTTPBasicAuth" },
        },
      },
    },
    languages: ALL,
    run: swapNodes,
    paramsSchema: planParams("swap_nodes"),
  },
  delete_node: {
    name: "delete_node",
    group: "surgery",
    summary: "Delete a node with its separator (a list element's comma, a statement's line).",
    params: [
      { ...target, description: "The node to delete (the primitive's `locator` is accepted too)." },
      { name: "all", kind: "boolean", required: false, description: "Delete every match of the locator." },
    ],
    example: {
      op: "delete_node",
      params: {
        target: {
          file: EXAMPLE_FILE,
          kind: "method",
          name: "__call__",
          parent: { kind: "class", name: "HTTPProxyAuth" },
        },
      },
    },
    languages: [...LANGUAGES],
    run: PRIMITIVES.delete_node,
    paramsSchema: planParams("delete_node"),
  },
  reorder_children: {
    name: "reorder_children",
    group: "surgery",
    summary: "Reorder a class's members, a block's statements, a call's arguments or decorators.",
    params: [
      {
        ...target,
        description:
          "A class/function/block (its members), a call or list (its elements), a decorated definition.",
      },
      {
        name: "order",
        kind: "names",
        required: true,
        description: "Every child once, in the new order: names or 0-based indices (docstring excluded).",
      },
    ],
    example: {
      op: "reorder_children",
      params: {
        target: { file: EXAMPLE_FILE, kind: "class", name: "HTTPDigestAuth" },
        order: ["__init__", "__call__", "handle_401", "build_digest_header"],
      },
    },
    languages: ALL,
    run: reorderChildren,
    paramsSchema: planParams("reorder_children"),
  },
  set_blank_lines: {
    name: "set_blank_lines",
    group: "surgery",
    summary: "Set how many blank lines separate a statement or definition from the code above or below it.",
    params: [
      {
        ...target,
        description: "The statement or definition (a decorated one is spaced from its decorators).",
      },
      {
        name: "before",
        kind: "count",
        required: false,
        description: "Blank lines wanted directly above it.",
      },
      { name: "after", kind: "count", required: false, description: "Blank lines wanted directly below it." },
    ],
    example: {
      op: "set_blank_lines",
      params: { target: { file: EXAMPLE_FILE, kind: "class", name: "HTTPDigestAuth" }, before: 1 },
    },
    languages: ALL,
    run: setBlankLines,
    paramsSchema: planParams("set_blank_lines"),
  },
  relayout_node: {
    name: "relayout_node",
    group: "surgery",
    summary: "Re-lay a node's whole lines: the same tokens and tree with other spaces and line breaks.",
    params: [
      {
        ...target,
        description: "The node whose lines are re-laid (a trailing comment on its last line included).",
      },
      {
        name: "text",
        kind: "string",
        required: true,
        description: "The new text of those lines, from the first line's start to the last line's end.",
      },
    ],
    example: {
      op: "relayout_node",
      params: {
        target: { file: EXAMPLE_FILE, kind: "return", parent: { kind: "function", name: "_basic_auth_str" } },
        text:
          "    return 'Basic ' + b64encode(\n        ('%s:%s' % (username, password)).encode('latin1')\n    ).strip().decode('latin1')",
      },
    },
    languages: ["python"],
    run: relayoutNode,
    paramsSchema: planParams("relayout_node"),
  },
};
