/**
 * The plan document as zod schemas, written once: `parsePlan` validates each
 * step against the schema of its kind, and `planJsonSchema()` turns the
 * whole into the JSON Schema `graphplan schema` prints (for editors and for
 * LLM structured output).
 *
 * A plan is an array of steps, or `{"define_operators": [...], "plan": [...]}`.
 * A step is one of
 * - `{"op": NAME, "params": {...}}`: a built-in operator (`operators.ts`) or
 *   one defined in `define_operators`;
 * - `{"template": NAME, "params": {"target": LOCATOR, ...}}`: tier 2;
 * - `{"fragment": {"kind", "properties", "children"}, "action", "target"}`: tier 3.
 * Every step may carry a free-text `description`, which the engine ignores.
 *
 * @module
 */

import * as z from "zod";
import { LOCATOR_SCHEMA } from "../locate/schema.ts";
import { FRAGMENT_ACTIONS, OPERATORS, type OperatorSpec, TEMPLATE_NAMES } from "./operators.ts";
import { TEMPLATES } from "../edit/templates/mod.ts";

/** Free text on a step, for people; ignored by the engine. */
const DESCRIPTION = z.string().optional().meta({ description: "What the step is for (ignored)" });

/** The params object of a built-in operator, with its alternative spellings in the JSON Schema. */
function paramsSchema(spec: OperatorSpec): z.ZodType {
  if (!spec.oneOf) return spec.params;
  return spec.params.meta({
    allOf: spec.oneOf.map((group) => ({ oneOf: group.map((key) => ({ required: [key] })) })),
  });
}

/** The step schema of one built-in operator. */
export function opStepSchema(spec: OperatorSpec): z.ZodObject {
  return z.object({
    op: z.literal(spec.name),
    params: paramsSchema(spec),
    description: DESCRIPTION,
  }).meta({ title: spec.name, description: `${spec.summary} (${spec.kind})` });
}

/** A step calling an operator from `define_operators`. */
export const CUSTOM_STEP_SCHEMA = z.object({
  op: z.string().min(1),
  params: z.record(z.string(), z.unknown()),
  description: DESCRIPTION,
}).meta({ title: "custom operator", description: "A call of an operator defined in define_operators" });

/** Tier 2, one template: its name and its typed parameters (from the template registry). */
export function templateStepSchema(name: string): z.ZodType {
  const entry = TEMPLATES[name];
  return z.object({
    template: z.literal(name),
    params: entry.paramsSchema,
    description: DESCRIPTION,
  }).meta({ title: `template ${name}`, description: entry.summary });
}

/** Tier 2: a parameterized template applied at `params.target`, one variant per template. */
export const TEMPLATE_STEP_SCHEMA = z.union(
  TEMPLATE_NAMES.map((name) => templateStepSchema(name)) as [z.ZodType, z.ZodType, ...z.ZodType[]],
).meta({ title: "template", description: "Tier 2: a parameterized transform template" });

/** A typed AST fragment (tier 3), serialized to source by the engine. */
export const FRAGMENT_SCHEMA = z.object({
  kind: z.string().min(1).meta({ description: "Node kind, e.g. if_statement, function_definition" }),
  properties: z.record(z.string(), z.unknown()).optional(),
  get children(): z.ZodOptional<z.ZodArray<typeof FRAGMENT_SCHEMA>> {
    return z.array(FRAGMENT_SCHEMA).optional();
  },
});

/** Tier 3: a typed fragment placed at `target`. */
export const FRAGMENT_STEP_SCHEMA = z.object({
  fragment: FRAGMENT_SCHEMA,
  action: z.enum(FRAGMENT_ACTIONS),
  target: LOCATOR_SCHEMA,
  description: DESCRIPTION,
}).meta({ title: "fragment", description: "Tier 3: a typed AST fragment" });

/**
 * One step of a composed operator's body: `{"primitive": NAME, "params": {...},
 * "bind"?: VAR}` or `{"if": EXPR, "then": STEP(S), "else"?: STEP(S)}`. The
 * DSL's validator (`validateDefinitions` in `engine/edit/dsl.ts`) checks
 * definitions in depth; this describes them for the JSON Schema.
 */
export const DSL_STEP_SCHEMA = z.record(z.string(), z.unknown()).meta({
  description:
    '{"primitive": NAME, "params": {...}, "bind"?: VAR} or {"if": EXPR, "then": STEP or [STEP], "else"?: STEP or [STEP]}; "$param" and "$var.field" are substituted in params',
});

/** An entry of `define_operators`. */
export const DEFINITION_SCHEMA = z.object({
  define: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/),
  description: z.string().optional(),
  params_schema: z.record(z.string(), z.string()).optional().meta({
    description:
      'Parameter names and types: "string", "number", "integer", "boolean", "object", "array", "locator", "any"; a trailing "?" makes one optional',
  }),
  steps: z.union([z.array(DSL_STEP_SCHEMA).min(1), DSL_STEP_SCHEMA]),
});

/** Any step. */
export const STEP_SCHEMA = z.union([
  ...[...OPERATORS.values()].map(opStepSchema),
  TEMPLATE_STEP_SCHEMA,
  FRAGMENT_STEP_SCHEMA,
  CUSTOM_STEP_SCHEMA,
]);

/** A whole plan. */
export const PLAN_SCHEMA = z.union([
  z.array(STEP_SCHEMA).min(1).meta({ title: "plan (array format)" }),
  z.object({
    define_operators: z.array(DEFINITION_SCHEMA).optional(),
    plan: z.array(STEP_SCHEMA).min(1),
  }).meta({ title: "plan (object format, with custom operators)" }),
]);

/** The JSON Schema (draft 2020-12) of a plan document. */
export function planJsonSchema(): Record<string, unknown> {
  const schema = withIds(
    [[LOCATOR_SCHEMA, "locator"], [FRAGMENT_SCHEMA, "fragment"], [STEP_SCHEMA, "step"]],
    () => z.toJSONSchema(PLAN_SCHEMA, { unrepresentable: "any" }) as Record<string, unknown>,
  );
  // A custom operator's name is any name that is not a built-in one.
  const builtins = [...OPERATORS.keys()];
  const patch = (node: unknown): void => {
    if (!node || typeof node !== "object") return;
    const record = node as Record<string, unknown>;
    if (record.title === "custom operator" && record.properties) {
      const props = record.properties as Record<string, Record<string, unknown>>;
      props.op = { ...props.op, not: { enum: builtins } };
      return;
    }
    for (const value of Object.values(record)) patch(value);
  };
  patch(schema);
  return {
    $schema: schema.$schema,
    $id: "https://graphplan.dev/schema/plan.json",
    title: "GraphPlan edit plan",
    description:
      "An array of steps, or {define_operators, plan}. Step kinds: {op, params} (primitive, tier-1 surgery, composed or legacy operator), {template, params} (tier 2), {fragment, action, target} (tier 3).",
    ...Object.fromEntries(Object.entries(schema).filter(([key]) => key !== "$schema")),
  };
}

/**
 * Run `fn` with `ids` given to the schemas in zod's global registry, so the
 * JSON Schema names them in `$defs` (`#/$defs/locator`) instead of repeating
 * them at every use; the registry is restored afterwards.
 */
function withIds<T>(ids: [z.ZodType, string][], fn: () => T): T {
  const saved = ids.map(([schema]) => [schema, z.globalRegistry.get(schema)] as const);
  for (const [schema, id] of ids) z.globalRegistry.add(schema, { ...z.globalRegistry.get(schema), id });
  try {
    return fn();
  } finally {
    for (const [schema, meta] of saved) {
      z.globalRegistry.remove(schema);
      if (meta) z.globalRegistry.add(schema, meta);
    }
  }
}
