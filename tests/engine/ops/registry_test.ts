/**
 * The registry is the one list of built-in operators (issue 29): each
 * descriptor is complete, and the plan schema, plan validation, the catalog
 * and the dispatcher know exactly its operators. A newcomer adds an operator
 * as one file in engine/ops/ plus its line in registry.ts; these tests fail
 * when either is missing or incomplete.
 */

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { CATALOG_GROUPS } from "../../../engine/edit/catalog_types.ts";
import { catalogEntries } from "../../../engine/ops/catalog.ts";
import { OP_RUNNERS } from "../../../engine/ops/dispatch.ts";
import type { Operator } from "../../../engine/ops/operator.ts";
import { FILE_OPS, OPERATOR_LIST, OPERATORS, SURGERY_OPS } from "../../../engine/ops/registry.ts";
import { detectTier, parsePlan, planJsonSchema } from "../../../engine/plan/mod.ts";

const OPS_DIR = fileURLToPath(new URL("../../../engine/ops/", import.meta.url));

/** The files of engine/ops/ that are not operators (the registry's machinery). */
const MACHINERY = [
  "catalog.ts",
  "catalog_parts.ts",
  "check.ts",
  "dispatch.ts",
  "operator.ts",
  "registry.ts",
  "schema_parts.ts",
  "zod_issues.ts",
];

const NAMES = OPERATOR_LIST.map((entry) => entry.name);

/** Whether `value` has the shape of an operator descriptor. */
function isDescriptor(value: unknown): value is Operator {
  return typeof value === "object" && value !== null && "name" in value && "catalog" in value &&
    "run" in value;
}

/** The `op` constants of the JSON Schema's step variants. */
function schemaOpNames(schema: unknown): string[] {
  const out: string[] = [];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(walk);
    if (typeof value !== "object" || value === null) return;
    const op = (value as { properties?: { op?: { const?: unknown } } }).properties?.op?.const;
    if (typeof op === "string") out.push(op);
    Object.values(value).forEach(walk);
  };
  walk(schema);
  return out;
}

Deno.test("registry: every operator file of engine/ops/ is one descriptor, registered, named after it", async () => {
  const files = [...Deno.readDirSync(OPS_DIR)]
    .filter((entry) => entry.isFile && entry.name.endsWith(".ts") && !MACHINERY.includes(entry.name))
    .map((entry) => entry.name)
    .sort();
  assert.ok(files.length >= 28, `only ${files.length} operator files`);
  const registered = new Set<Operator>(OPERATOR_LIST);
  for (const file of files) {
    const module = await import(new URL(`../../../engine/ops/${file}`, import.meta.url).href);
    const descriptors = Object.values(module).filter(isDescriptor);
    assert.equal(descriptors.length, 1, `${file} exports one descriptor`);
    assert.equal(`${descriptors[0].name}.ts`, file, "the file is named after its operator");
    assert.ok(registered.has(descriptors[0]), `${file}: its operator is listed in registry.ts`);
  }
  assert.deepEqual([...NAMES].sort(), files.map((file) => file.replace(/\.ts$/, "")));
  assert.equal(new Set(NAMES).size, NAMES.length, "no name twice");
});

Deno.test("registry: every descriptor is complete (schema, summary, catalog entry, valid example, code)", () => {
  for (const entry of OPERATOR_LIST) {
    const name = entry.name;
    assert.match(name, /^[a-z][a-z_]*$/, name);
    assert.ok(["primitive", "surgery", "composed", "legacy", "file"].includes(entry.kind), name);
    assert.ok(entry.summary.length > 0 && !entry.summary.includes("\n"), `${name}: a one-line summary`);
    assert.ok(Object.keys(entry.params.shape).length > 0, `${name}: a parameter schema`);
    for (const group of entry.oneOf ?? []) {
      assert.ok(group.every((param) => Object.hasOwn(entry.params.shape, param)), `${name}: oneOf ${group}`);
    }
    assert.equal(typeof entry.run, "function", `${name}: code`);
    const { catalog } = entry;
    assert.equal(catalog.name, name);
    assert.ok(
      (CATALOG_GROUPS as readonly string[]).includes(catalog.group),
      `${name}: group ${catalog.group}`,
    );
    assert.ok(catalog.summary.length > 0 && !catalog.summary.includes("\n"), `${name}: a catalog summary`);
    assert.ok(catalog.languages.includes("python"), `${name}: a Python example needs Python`);
    const example = catalog.example as { op: string; params: Record<string, unknown> };
    assert.equal(example.op, name, `${name}: its example calls it`);
    const { plan, issues } = parsePlan([example]);
    assert.ok(plan, `${name}: the example is a valid plan step: ${JSON.stringify(issues)}`);
    assert.deepEqual(issues, [], `${name}: the example validates without warnings`);
    const tier = entry.kind === "surgery" || entry.kind === "file" || name === "delete_node" ? 1 : 0;
    assert.equal(entry.tier, tier, `${name}: tier`);
    assert.equal(detectTier(example), entry.tier, `${name}: detectTier agrees with the descriptor`);
  }
});

Deno.test("registry: the plan schema, validation, catalog and dispatcher know exactly its operators", () => {
  assert.deepEqual(schemaOpNames(planJsonSchema()), NAMES, "graphplan schema");
  const ops = catalogEntries().filter((entry) => entry.form === "op").map((entry) => entry.name);
  assert.deepEqual([...ops].sort(), [...NAMES].sort(), "graphplan catalog");
  assert.deepEqual(Object.keys(OP_RUNNERS), NAMES, "the dispatcher");
  for (const entry of OPERATOR_LIST) assert.equal(OP_RUNNERS[entry.name], entry.run, entry.name);
  assert.deepEqual([...OPERATORS.keys()], NAMES);
  assert.deepEqual(
    [...SURGERY_OPS].sort(),
    [
      "copy_node",
      "delete_node",
      "move_node",
      "relayout_node",
      "rename_identifier",
      "reorder_children",
      "set_blank_lines",
      "swap_nodes",
    ],
  );
  assert.deepEqual([...FILE_OPS], ["create_file", "delete_file", "rename_file", "set_mode"]);
  // An op the registry does not have is refused by validation, with the registry's names as the fix.
  const { issues } = parsePlan([{ op: "swap_node", params: {} }]);
  assert.equal(issues[0]?.code, "unknown-operator");
  assert.match(issues[0].hint ?? issues[0].message, /swap_nodes/);
});
