import assert from "node:assert/strict";
import catalogCommand from "../../../cli/catalog.ts";
import { parseCommandArgs, UsageError } from "../../../cli/command.ts";
import { catalogEntries, EXAMPLE_FILE, renderCatalog } from "../../../engine/ops/catalog.ts";
import { CATALOG_GROUPS, type ParamKind } from "../../../engine/edit/catalog_types.ts";
import { runStep } from "../../../engine/ops/dispatch.ts";
import { FRAGMENT_ENTRY, runFragment } from "../../../engine/edit/fragments/mod.ts";
import { LEGACY_OPS } from "../../../engine/edit/legacy/mod.ts";
import { TEMPLATES } from "../../../engine/edit/templates/mod.ts";
import { parsePlan } from "../../../engine/plan/mod.ts";
import { FRAGMENT_ACTIONS as PLAN_FRAGMENT_ACTIONS, OPERATORS } from "../../../engine/plan/operators.ts";
import { FRAGMENT_ACTIONS } from "../../../engine/edit/fragments/mod.ts";
import { assertPythonParses } from "../../_support/python.ts";
import { contextWith, textOf } from "./_edit_support.ts";

/** The file the primitive, composed, legacy and fragment examples are written against. */
const EXAMPLE_SOURCE = `"""Configuration loading."""
import os

DEFAULT_TIMEOUT = 30


class Config:
    """Settings read from the environment."""

    prefix = "APP_"

    def __init__(self, values):
        self.values = dict(values)

    def get_option(self, name, default=None):
        value = self.values.get(name)
        if value is None:
            return default
        return value


def load_config(path):
    with open(path) as handle:
        lines = handle.read().splitlines()
    return Config(line.split("=", 1) for line in lines if "=" in line)
`;

const PARAM_KINDS: readonly ParamKind[] = [
  "count",
  "identifier",
  "expression",
  "statements",
  "locator",
  "type_annotation",
  "import_statement",
  "decorator",
  "condition",
  "string",
  "boolean",
  "position",
  "names",
  "parameters",
];

/** `form:name` of every entry the registries hold (delete_node once: a surgery op that is also a primitive). */
function registryKeys(): Set<string> {
  return new Set([
    ...Object.keys(TEMPLATES).map((name) => `template:${name}`),
    ...[...OPERATORS.keys()].map((name) => `op:${name}`),
    "fragment:fragment",
  ]);
}

Deno.test("every registry entry appears in the catalog, and nothing else does", () => {
  const entries = catalogEntries();
  const keys = entries.map((entry) => `${entry.form}:${entry.name}`);
  assert.equal(new Set(keys).size, keys.length, "no entry twice");
  assert.deepEqual(new Set(keys), registryKeys());
  assert.ok(Object.keys(TEMPLATES).length >= 15, "the 15 templates");
  const markdown = renderCatalog();
  const shown = [...markdown.matchAll(/^- (template )?`([a-z_]+)`/gm)].map((match) =>
    `${match[1] ? "template" : match[2] === "fragment" ? "fragment" : "op"}:${match[2]}`
  );
  assert.deepEqual(shown, keys, "the markdown lists the entries in order");
});

Deno.test("groups come in the specified order, templates by use case first and legacy last", () => {
  const order = [...new Set(catalogEntries().map((entry) => entry.group))];
  assert.deepEqual(order, [...CATALOG_GROUPS]);
  assert.deepEqual([...CATALOG_GROUPS], [
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
  ]);
  const markdown = renderCatalog();
  const headings = [...markdown.matchAll(/^## (.*)$/gm)].map((match) => match[1]);
  assert.equal(headings.length, CATALOG_GROUPS.length);
  assert.match(headings[0], /^Adding code/);
  assert.match(headings.at(-1)!, /^Legacy/);
  // Seed order inside a group.
  const adding = catalogEntries({ groups: ["adding"] }).map((entry) => entry.name);
  assert.equal(adding[0], "guard_clause");
  const surgery = catalogEntries({ groups: ["surgery"] }).map((entry) => entry.name);
  assert.deepEqual(surgery.slice(0, 2), ["rename_identifier", "delete_node"]);
});

Deno.test("every example step is a valid plan step", () => {
  const invalid = catalogEntries().flatMap((entry) =>
    parsePlan([entry.example]).issues.map((issue) => `${entry.name}: [${issue.code}] ${issue.message}`)
  );
  assert.deepEqual(invalid, []);
});

Deno.test("every entry is well formed: known param kinds, examples use the entry's form, name and params", () => {
  for (const entry of catalogEntries()) {
    assert.ok(
      entry.summary.trim() !== "" && !entry.summary.includes("\n"),
      `${entry.name}: one-line summary`,
    );
    assert.ok(entry.languages.length > 0, `${entry.name}: languages`);
    for (const param of entry.params) {
      assert.ok(PARAM_KINDS.includes(param.kind), `${entry.name}.${param.name}: kind "${param.kind}"`);
    }
    const example = entry.example as Record<string, unknown>;
    if (entry.form === "fragment") {
      assert.deepEqual(Object.keys(example).sort(), ["action", "fragment", "target"]);
      continue;
    }
    assert.equal(example[entry.form], entry.name, `${entry.name}: example names it`);
    const params = example.params as Record<string, unknown>;
    const names = entry.params.map((param) => param.name);
    for (const key of Object.keys(params)) {
      assert.ok(names.includes(key), `${entry.name}: example param "${key}"`);
    }
    for (const param of entry.params.filter((p) => p.required)) {
      assert.ok(Object.hasOwn(params, param.name), `${entry.name}: example lacks required "${param.name}"`);
    }
  }
});

Deno.test("every parameter an op entry documents is one the plan schema accepts", () => {
  const unknown = catalogEntries().filter((entry) => entry.form === "op").flatMap((entry) => {
    const shape = OPERATORS.get(entry.name)?.params.shape ?? {};
    return entry.params.filter((param) => !Object.hasOwn(shape, param.name)).map((param) =>
      `${entry.name}.${param.name}`
    );
  });
  assert.deepEqual(unknown, []);
});

Deno.test("op entries follow the plan schema: required flags agree, every required parameter is listed", () => {
  for (const spec of OPERATORS.values()) {
    const entry = spec.catalog;
    assert.equal(entry.name, spec.name);
    const inOneOf = new Set((spec.oneOf ?? []).flat());
    const optional = (param: string) =>
      (spec.params.shape[param] as { safeParse(v: unknown): { success: boolean } }).safeParse(undefined)
        .success;
    for (const param of entry.params) {
      assert.equal(
        param.required,
        !optional(param.name) || inOneOf.has(param.name),
        `${spec.name}.${param.name}`,
      );
    }
    const listed = new Set(entry.params.map((param) => param.name));
    for (const param of Object.keys(spec.params.shape).filter((param) => !optional(param))) {
      assert.ok(listed.has(param), `${spec.name}: the catalog lists "${param}"`);
    }
    for (const group of spec.oneOf ?? []) {
      assert.ok(group.some((param) => listed.has(param)), `${spec.name}: the catalog lists one of ${group}`);
    }
  }
});

Deno.test("the primitive, composed, legacy and fragment examples run on the example file", async () => {
  const examples = catalogEntries({ groups: ["fragments", "primitives", "composed", "legacy"] });
  assert.ok(examples.length >= 18);
  for (const entry of examples) {
    const { ctx } = await contextWith({ [EXAMPLE_FILE]: EXAMPLE_SOURCE });
    if (entry.form === "fragment") {
      await runFragment(entry.example as Record<string, unknown>, ctx);
    } else {
      const { plan, issues } = parsePlan([entry.example]);
      assert.ok(plan, JSON.stringify(issues));
      await runStep(plan.steps[0], ctx);
    }
    const after = await textOf(ctx, EXAMPLE_FILE);
    const readOnly = entry.name === "locate" || entry.name === "locate_region";
    assert.equal(
      after === EXAMPLE_SOURCE,
      readOnly,
      `${entry.name} ${readOnly ? "changes nothing" : "edits"}`,
    );
    assert.deepEqual(ctx.warnings, [], entry.name);
    await assertPythonParses(after, `result of the ${entry.name} example`);
  }
});

Deno.test("the fragment entry is the fragments registry's, and its actions are the plan schema's", () => {
  const entry = catalogEntries({ groups: ["fragments"] });
  assert.equal(entry.length, 1);
  assert.equal(entry[0].name, FRAGMENT_ENTRY.name);
  assert.deepEqual(entry[0].example, FRAGMENT_ENTRY.example);
  // The plan schema must accept every action the fragment runner implements.
  assert.deepEqual([...PLAN_FRAGMENT_ACTIONS].sort(), [...FRAGMENT_ACTIONS].sort());
});

Deno.test("language and group filters", () => {
  const js = catalogEntries({ language: "javascript" });
  assert.ok(js.every((entry) => entry.languages.includes("javascript")));
  assert.ok(!js.some((entry) => entry.form === "fragment"), "fragments are Python only");
  assert.ok(js.some((entry) => entry.name === "replace_node"));
  const markdown = renderCatalog({ language: "javascript" });
  assert.ok(!markdown.includes("typed fragments"));
  const python = renderCatalog({ language: "python" });
  assert.ok(python.includes("typed fragments") && python.includes("if_statement(condition)"));
  const legacyOnly = catalogEntries({ groups: ["legacy"] });
  assert.deepEqual(legacyOnly.map((entry) => entry.name), Object.keys(LEGACY_OPS));
  // Entries are one line of JSON each in the markdown.
  for (const line of renderCatalog().split("\n").filter((l) => l.startsWith("  e.g. "))) {
    assert.doesNotThrow(() => JSON.parse(line.slice("  e.g. ".length)));
  }
});

Deno.test("graphplan catalog: markdown, --json entries, filters, usage errors", async () => {
  // The markdown goes out through console.log, JSON through stdout's writeSync: capture both.
  const logged: string[] = [];
  const original = console.log;
  const originalWrite = Deno.stdout.writeSync;
  console.log = (...args: unknown[]) => logged.push(args.join(" "));
  Deno.stdout.writeSync = (bytes: Uint8Array) => {
    logged.push(new TextDecoder().decode(bytes).replace(/\n$/, ""));
    return bytes.length;
  };
  try {
    assert.equal(await catalogCommand.run(parseCommandArgs(catalogCommand, ["--language", "python"])), 0);
    assert.equal(logged.join("\n"), renderCatalog({ language: "python" }).trimEnd());
    logged.length = 0;
    assert.equal(
      await catalogCommand.run(
        parseCommandArgs(catalogCommand, ["--json", "--group", "surgery", "--group", "legacy"]),
      ),
      0,
    );
    const entries = JSON.parse(logged.join("\n")) as { name: string; group: string; run?: unknown }[];
    assert.deepEqual(entries, catalogEntries({ groups: ["surgery", "legacy"] }));
    assert.ok(entries.every((entry) => !Object.hasOwn(entry, "run")));
  } finally {
    console.log = original;
    Deno.stdout.writeSync = originalWrite;
  }
  assert.throws(
    () => catalogCommand.run(parseCommandArgs(catalogCommand, ["--language", "cobol"])),
    UsageError,
  );
  assert.throws(() => catalogCommand.run(parseCommandArgs(catalogCommand, ["--group", "misc"])), UsageError);
});

Deno.test("the catalog says what a comment fragment's text is, and that rule gives the comment it shows", async () => {
  // sympy-24152: a model wrote {"text": "Check for TensorProduct ..."} and got "#Check ..."; "# Check" gives "## Check".
  const text = renderCatalog({ groups: ["fragments"] });
  const rule = /a comment's text is what follows its "#", space included \("( [^"]+)" gives "(# [^"]+)"\)/
    .exec(text);
  assert.ok(rule, "the fragment section explains the comment text");
  const { ctx } = await contextWith({ [EXAMPLE_FILE]: EXAMPLE_SOURCE });
  await runFragment({
    fragment: { kind: "comment", properties: { text: rule[1] } },
    action: "insert_before",
    target: { file: EXAMPLE_FILE, kind: "function", name: "load_config" },
  }, ctx);
  const lines = (await textOf(ctx, EXAMPLE_FILE)).split("\n");
  assert.ok(lines.includes(rule[2]), lines.join("\n"));
});
