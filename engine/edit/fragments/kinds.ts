/**
 * The fragment kinds (tier 3): for each node kind (tree-sitter-python's node
 * type names) the properties it takes, whether each is required and how its
 * value is checked, and which children it allows in which order.
 *
 * Property values that are source text (expressions, parameter lists, type
 * annotations) are checked by parsing them in their grammatical role
 * (`validateParam` in `engine/edit/params.ts`); the other value shapes
 * (identifiers, dotted module names, booleans, lists) are checked here.
 *
 * @module
 */

import type { ParamKind } from "../catalog_types.ts";

/** How a property's JSON value is shaped and checked. */
export type PropertyShape =
  /** A string, parsed in the grammatical role of `role`. */
  | { type: "text"; role: ParamKind }
  /** An assignment / loop target (`x`, `a, b`, `self.x`, `d[k]`). */
  | { type: "target" }
  /** A Python identifier. */
  | { type: "identifier" }
  /** A dotted module name, for `from` imports possibly relative (`.`, `..pkg.mod`). */
  | { type: "module"; relative: boolean }
  /** Free text (a docstring). */
  | { type: "string" }
  /** One line of free text (no line break). */
  | { type: "line" }
  /** `true` or `false`. */
  | { type: "boolean" }
  /** An augmented assignment operator (`+=`; `+` is accepted too). */
  | { type: "operator" }
  /** A list of strings, each parsed in the role of `role`. */
  | { type: "text_list"; role: ParamKind }
  /** `with` items: `[{"expression", "as"?}]`. */
  | { type: "with_items" }
  /** Imported names: `["name", {"name", "as"}]`, or `["*"]`. */
  | { type: "import_names" };

/** One property of a fragment kind. */
export interface PropertySpec {
  required: boolean;
  shape: PropertyShape;
  /** The catalog kind of the value. */
  kind: ParamKind;
  description: string;
}

/** The children a kind allows: body statements, then the listed clause kinds. */
export interface ChildrenSpec {
  /** Whether the kind has a body (statements among its children). */
  body: boolean;
  /**
   * Clause kinds allowed after the body statements, in this order; `many`
   * clauses may repeat, the others appear at most once.
   */
  clauses: { kind: string; many: boolean }[];
}

/** A fragment kind. */
export interface FragmentKind {
  /** Statement (placed in a block) or clause (part of a compound statement). */
  role: "statement" | "clause";
  properties: Record<string, PropertySpec>;
  /** Children; `undefined` for a leaf. */
  children?: ChildrenSpec;
  /** One line for the catalog. */
  summary: string;
}

const text = (role: ParamKind, required: boolean, description: string): PropertySpec => ({
  required,
  shape: { type: "text", role },
  kind: role,
  description,
});

const BODY_ONLY: ChildrenSpec = { body: true, clauses: [] };
const ASYNC: PropertySpec = {
  required: false,
  shape: { type: "boolean" },
  kind: "boolean",
  description: "async form",
};
const DECORATORS: PropertySpec = {
  required: false,
  shape: { type: "text_list", role: "decorator" },
  kind: "decorator",
  description: 'decorator expressions, without "@"',
};
const DOCSTRING: PropertySpec = {
  required: false,
  shape: { type: "string" },
  kind: "string",
  description: "docstring text (escaped by the engine)",
};

/** Every fragment kind, by tree-sitter-python node type. */
export const FRAGMENT_KINDS: Readonly<Record<string, FragmentKind>> = {
  function_definition: {
    role: "statement",
    summary: "def NAME(PARAMETERS) -> RETURN_TYPE: body",
    properties: {
      name: {
        required: true,
        shape: { type: "identifier" },
        kind: "identifier",
        description: "function name",
      },
      parameters: text("parameters", true, 'parameter list text, e.g. "self, x=1" ("" for none)'),
      return_type: text("type_annotation", false, "return annotation"),
      async: ASYNC,
      decorators: DECORATORS,
      docstring: DOCSTRING,
    },
    children: BODY_ONLY,
  },
  class_definition: {
    role: "statement",
    summary: "class NAME(BASES): body",
    properties: {
      name: { required: true, shape: { type: "identifier" }, kind: "identifier", description: "class name" },
      bases: {
        required: false,
        shape: { type: "text_list", role: "expression" },
        kind: "expression",
        description: 'base classes / keywords, e.g. ["Base", "metaclass=Meta"]',
      },
      decorators: DECORATORS,
      docstring: DOCSTRING,
    },
    children: BODY_ONLY,
  },
  if_statement: {
    role: "statement",
    summary: "if CONDITION: body, then elif_clause..., else_clause?",
    properties: { condition: text("condition", true, "the condition expression") },
    children: {
      body: true,
      clauses: [{ kind: "elif_clause", many: true }, { kind: "else_clause", many: false }],
    },
  },
  elif_clause: {
    role: "clause",
    summary: "elif CONDITION: body (child of if_statement)",
    properties: { condition: text("condition", true, "the condition expression") },
    children: BODY_ONLY,
  },
  else_clause: {
    role: "clause",
    summary: "else: body (child of if/for/while/try)",
    properties: {},
    children: BODY_ONLY,
  },
  for_statement: {
    role: "statement",
    summary: "for TARGET in ITERABLE: body, else_clause?",
    properties: {
      target: {
        required: true,
        shape: { type: "target" },
        kind: "expression",
        description: "loop variable(s)",
      },
      iterable: text("expression", true, "the iterated expression"),
      async: ASYNC,
    },
    children: { body: true, clauses: [{ kind: "else_clause", many: false }] },
  },
  while_statement: {
    role: "statement",
    summary: "while CONDITION: body, else_clause?",
    properties: { condition: text("condition", true, "the loop condition") },
    children: { body: true, clauses: [{ kind: "else_clause", many: false }] },
  },
  with_statement: {
    role: "statement",
    summary: "with EXPR as NAME, ...: body",
    properties: {
      items: {
        required: true,
        shape: { type: "with_items" },
        kind: "expression",
        description: 'context managers: [{"expression": "open(p)", "as": "f"}]',
      },
      async: ASYNC,
    },
    children: BODY_ONLY,
  },
  try_statement: {
    role: "statement",
    summary:
      "try: body, then except_clause..., else_clause?, finally_clause? (at least one except or finally)",
    properties: {},
    children: {
      body: true,
      clauses: [
        { kind: "except_clause", many: true },
        { kind: "else_clause", many: false },
        { kind: "finally_clause", many: false },
      ],
    },
  },
  except_clause: {
    role: "clause",
    summary: "except EXCEPTION as NAME: body (child of try_statement)",
    properties: {
      exception: text("expression", false, 'exception type(s), e.g. "(KeyError, IndexError)"'),
      as: { required: false, shape: { type: "identifier" }, kind: "identifier", description: "bound name" },
    },
    children: BODY_ONLY,
  },
  finally_clause: {
    role: "clause",
    summary: "finally: body (child of try_statement)",
    properties: {},
    children: BODY_ONLY,
  },
  return_statement: {
    role: "statement",
    summary: "return VALUE",
    properties: { value: text("expression", false, "returned expression") },
  },
  raise_statement: {
    role: "statement",
    summary: "raise EXCEPTION from CAUSE",
    properties: {
      exception: text("expression", false, "the exception (omit to re-raise)"),
      cause: text("expression", false, "the cause (needs exception)"),
    },
  },
  assignment: {
    role: "statement",
    summary: "TARGET: ANNOTATION = VALUE (an annotated declaration may omit the value)",
    properties: {
      target: {
        required: true,
        shape: { type: "target" },
        kind: "expression",
        description: "assigned target",
      },
      value: text("expression", false, "assigned value (required without an annotation)"),
      annotation: text("type_annotation", false, "type annotation"),
    },
  },
  augmented_assignment: {
    role: "statement",
    summary: "TARGET OPERATOR VALUE, e.g. x += 1",
    properties: {
      target: {
        required: true,
        shape: { type: "target" },
        kind: "expression",
        description: "assigned target",
      },
      operator: {
        required: true,
        shape: { type: "operator" },
        kind: "string",
        description: '"+=", "-=", ...',
      },
      value: text("expression", true, "right-hand side"),
    },
  },
  expression_statement: {
    role: "statement",
    summary: "an expression as a statement, e.g. a call",
    properties: { expression: text("expression", true, "the expression") },
  },
  import_statement: {
    role: "statement",
    summary: "import MODULE as NAME",
    properties: {
      module: {
        required: true,
        shape: { type: "module", relative: false },
        kind: "names",
        description: "dotted module name",
      },
      as: { required: false, shape: { type: "identifier" }, kind: "identifier", description: "alias" },
    },
  },
  import_from_statement: {
    role: "statement",
    summary: "from MODULE import NAMES",
    properties: {
      module: {
        required: true,
        shape: { type: "module", relative: true },
        kind: "names",
        description: 'module, may be relative (".models")',
      },
      names: {
        required: true,
        shape: { type: "import_names" },
        kind: "names",
        description: 'imported names: ["a", {"name": "b", "as": "c"}]',
      },
    },
  },
  assert_statement: {
    role: "statement",
    summary: "assert CONDITION, MESSAGE",
    properties: {
      condition: text("condition", true, "asserted condition"),
      message: text("expression", false, "message expression"),
    },
  },
  pass_statement: { role: "statement", summary: "pass", properties: {} },
  comment: {
    role: "statement",
    summary: "a comment on its own line: `#` then text",
    properties: {
      text: {
        required: true,
        shape: { type: "line" },
        kind: "string",
        description: 'what follows "#", as written (e.g. " Retry once.")',
      },
    },
  },
  break_statement: { role: "statement", summary: "break", properties: {} },
  continue_statement: { role: "statement", summary: "continue", properties: {} },
};

/** Kind names that are statements (allowed in a body and as a placed fragment). */
export const STATEMENT_KINDS: readonly string[] = Object.entries(FRAGMENT_KINDS)
  .filter(([, spec]) => spec.role === "statement").map(([name]) => name);

/** Kind names that are clauses of a compound statement. */
export const CLAUSE_KINDS: readonly string[] = Object.entries(FRAGMENT_KINDS)
  .filter(([, spec]) => spec.role === "clause").map(([name]) => name);
