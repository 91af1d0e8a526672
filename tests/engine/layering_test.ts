import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import {
  importCycles,
  type ImportGraph,
  importsOf,
  type LayerRule,
  layerViolations,
  readImportGraph,
} from "../_support/import_graph.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

const under = (...prefixes: string[]) => (file: string) => prefixes.some((prefix) => file.startsWith(prefix));

/** The engine's layers (ARCHITECTURE.md, issue 20): data flows down, never back. */
const RULES: LayerRule[] = [
  {
    name: "engine/edit must not import engine/verify (shared knowledge lives in engine/analysis)",
    from: under("engine/edit/"),
    to: under("engine/verify/"),
  },
  {
    name: "engine must not import the orchestrator, the CLI or the tools",
    from: under("engine/"),
    to: (file) => under("agent/", "cli/", "tools/", "tests/")(file) || file === "main.ts",
  },
  {
    name: "engine/analysis knows about code and sits below everything that edits or judges it",
    from: under("engine/analysis/"),
    to: under("engine/edit/", "engine/verify/", "engine/exec/", "engine/lift/", "engine/helper/"),
  },
  {
    name: "engine/verify runs edit operators only in plan/simulate.ts (elsewhere: type imports)",
    from: under("engine/verify/"),
    to: (file) => under("engine/edit/")(file) || file === "engine/ops/dispatch.ts",
    allow: (file, edge) => edge.typeOnly || file === "engine/verify/plan/simulate.ts",
  },
  {
    name: "engine/verify judges edits and never runs transactions (exec uses verify, not the reverse)",
    from: under("engine/verify/"),
    to: under("engine/exec/"),
  },
  {
    name: "engine/gate judges a patch applied in memory: it never edits, verifies, executes or plans",
    from: under("engine/gate/"),
    to: under("engine/edit/", "engine/verify/", "engine/exec/", "engine/plan/", "engine/helper/"),
  },
  {
    name: "engine/gate sits on top of what it reads: only the helper may import it from inside the engine",
    from: (file) => file.startsWith("engine/") && !under("engine/gate/", "engine/helper/")(file),
    to: under("engine/gate/"),
  },
  {
    name: "engine/edit implements operators and knows neither the plan nor the registry (they import it)",
    from: under("engine/edit/"),
    to: under("engine/plan/", "engine/ops/"),
  },
  {
    name: "engine/ops (the operator registry) is below the plan: the plan schema reads it, never the reverse",
    from: under("engine/ops/"),
    to: under("engine/plan/"),
  },
];

/**
 * Import cycles tolerated today, each confined to one folder: the levels
 * import their shared types from `levels/mod.ts`, which imports the levels;
 * `graph/mod.ts` and the per-language extractors likewise. A cycle anywhere
 * else (the old `edit/composed.ts` <-> `edit/dsl.ts` and
 * `edit/fragments/serialize.ts` <-> `edit/fragments/validate.ts` included)
 * fails the test.
 */
const TOLERATED_CYCLE_FOLDERS = ["engine/verify/levels/", "engine/graph/"];

Deno.test("layering: importsOf reads static, type-only, re-export and dynamic imports, not quoted code", () => {
  const source = [
    `import { a } from "./a.ts";`,
    `import type { B } from "../b.ts";`,
    `import "./side_effect.ts";`,
    `export { c } from "./c.ts";`,
    `export type { D } from "./d.ts";`,
    `export * from "./e.ts";`,
    `const f = await import("./f.ts");`,
    `const g = import.meta.url; // import { x } from "./comment.ts"`,
    `/* import("./block.ts") */ const h = "import { y } from './string.ts'";`,
    'const i = `import { z } from "./template.ts" ${`nested ${import.meta.url}`}`;',
    `const j = /["'](import)/.test(k) ? 1 : 2;`,
    `import {`,
    `  l,`,
    `  type M,`,
    `} from "./multi_line.ts";`,
    `export const n = 1;`,
    `const o = await import(name);`,
  ].join("\n");
  assert.deepEqual(importsOf(source), [
    { specifier: "./a.ts", typeOnly: false, line: 1 },
    { specifier: "../b.ts", typeOnly: true, line: 2 },
    { specifier: "./side_effect.ts", typeOnly: false, line: 3 },
    { specifier: "./c.ts", typeOnly: false, line: 4 },
    { specifier: "./d.ts", typeOnly: true, line: 5 },
    { specifier: "./e.ts", typeOnly: false, line: 6 },
    { specifier: "./f.ts", typeOnly: false, line: 7 },
    { specifier: "./multi_line.ts", typeOnly: false, line: 12 },
  ]);
});

Deno.test("layering: a violation and a cycle in a small graph are reported with file and line", () => {
  const graph: ImportGraph = new Map([
    ["engine/edit/x.ts", [{ to: "engine/verify/scope.ts", typeOnly: false, line: 3 }]],
    ["engine/edit/composed.ts", [{ to: "engine/edit/dsl.ts", typeOnly: true, line: 7 }]],
    ["engine/edit/dsl.ts", [{ to: "engine/edit/composed.ts", typeOnly: false, line: 9 }]],
    ["engine/verify/plan/simulate.ts", [{ to: "engine/ops/dispatch.ts", typeOnly: false, line: 41 }]],
    ["engine/verify/levels/l9.ts", [
      { to: "engine/edit/operator.ts", typeOnly: true, line: 2 },
      { to: "engine/ops/dispatch.ts", typeOnly: false, line: 4 },
    ]],
    ["engine/helper/run.ts", [{ to: "agent/model/mod.ts", typeOnly: false, line: 5 }]],
    ["engine/verify/plan/simulate2.ts", [{ to: "engine/exec/checks.ts", typeOnly: true, line: 6 }]],
  ]);
  assert.deepEqual(layerViolations(graph, RULES), [
    `${RULES[0].name}: engine/edit/x.ts:3 imports engine/verify/scope.ts`,
    `${RULES[3].name}: engine/verify/levels/l9.ts:4 imports engine/ops/dispatch.ts`,
    `${RULES[1].name}: engine/helper/run.ts:5 imports agent/model/mod.ts`,
    `${RULES[4].name}: engine/verify/plan/simulate2.ts:6 imports engine/exec/checks.ts`,
  ]);
  assert.deepEqual(importCycles(graph), [["engine/edit/composed.ts", "engine/edit/dsl.ts"]]);
  const folder = (file: string) => file.split("/").slice(0, 2).join("/");
  assert.deepEqual(importCycles(graph, folder), [["engine/edit", "engine/verify"]]);
});

Deno.test("layering: the engine's imports follow its layers", async () => {
  const graph = await readImportGraph(ROOT, ["engine"]);
  // the scanner sees the engine (guards against a test that passes on an empty graph)
  assert.ok(graph.size > 100, `only ${graph.size} engine files found`);
  assert.ok(
    graph.get("engine/verify/plan/simulate.ts")?.some((edge) => edge.to === "engine/ops/dispatch.ts"),
    "the scanner missed simulate.ts importing ops/dispatch.ts",
  );
  for (const edges of graph.values()) {
    for (const { to } of edges) {
      assert.ok(graph.has(to) || !to.startsWith("engine/") || !to.endsWith(".ts"), `unresolved import ${to}`);
    }
  }
  assert.ok(
    graph.get("engine/gate/invariants.ts")?.some((edge) => edge.to === "engine/lift/apply.ts"),
    "the scanner missed the gate applying patches with lift/apply.ts",
  );
  const violations = layerViolations(graph, RULES);
  assert.deepEqual(violations, [], `layering violations:\n${violations.join("\n")}`);
});

Deno.test("layering: no import cycle outside the tolerated folders", async () => {
  const graph = await readImportGraph(ROOT, ["engine"]);
  const cycles = importCycles(graph).filter((cycle) =>
    !TOLERATED_CYCLE_FOLDERS.some((folder) => cycle.every((file) => file.startsWith(folder)))
  );
  assert.deepEqual(cycles, [], `import cycles:\n${cycles.map((cycle) => cycle.join(" <-> ")).join("\n")}`);
});

/**
 * The node a file counts as in the folder-level graph: its folder two levels
 * down (`engine/verify/levels/l0.ts` -> `engine/verify`), or the file itself
 * when it sits at the root of `engine/`, `agent/` or `cli/` (`engine/workspace.ts`).
 */
function folderOf(file: string): string {
  const parts = file.split("/");
  return parts.length > 2 ? parts.slice(0, 2).join("/") : file;
}

/**
 * Folder cycles tolerated while another change removes them; each entry says
 * who removes it and the edges that make it. None is left (the last, the
 * config's schema built from the strategies that read its type, went with
 * issue 29) and nothing may be added here: a new folder cycle is fixed, not listed.
 */
const ALLOWED_FOLDER_CYCLES: { members: string[]; why: string }[] = [];

Deno.test("layering: the folder-level cycle check lists a cycle through a folder and a root file", () => {
  // the shape the engine had before issue 29: workspace.ts loaded the parser, the pool in parse/ built graphs
  const before: ImportGraph = new Map([
    ["engine/workspace.ts", [{ to: "engine/parse/mod.ts", typeOnly: false, line: 10 }]],
    ["engine/parse/documents.ts", [{ to: "engine/workspace.ts", typeOnly: false, line: 13 }]],
    ["engine/parse/pool.ts", [{ to: "engine/graph/mod.ts", typeOnly: true, line: 49 }]],
    ["engine/graph/mod.ts", [{ to: "engine/parse/mod.ts", typeOnly: false, line: 16 }]],
    ["engine/graph/files.ts", [{ to: "engine/workspace.ts", typeOnly: true, line: 22 }]],
    ["engine/base/issue.ts", []],
    ["agent/rfsn/agent.ts", [{ to: "agent/common/helper.ts", typeOnly: false, line: 3 }]],
  ]);
  assert.deepEqual(importCycles(before, folderOf), [["engine/graph", "engine/parse", "engine/workspace.ts"]]);
  // the agent's shape before issue 29: the config's schema built from the registry, its type read back
  const config: ImportGraph = new Map([
    ["agent/config.ts", [{ to: "agent/strategies.ts", typeOnly: false, line: 21 }]],
    ["agent/strategies.ts", [{ to: "agent/rfsn/strategy.ts", typeOnly: false, line: 17 }]],
    ["agent/rfsn/strategy.ts", [{ to: "agent/common/strategy.ts", typeOnly: true, line: 12 }]],
    ["agent/common/strategy.ts", [{ to: "agent/config.ts", typeOnly: true, line: 14 }]],
  ]);
  assert.deepEqual(importCycles(config, folderOf), [
    ["agent/common", "agent/config.ts", "agent/rfsn", "agent/strategies.ts"],
  ]);
});

Deno.test("layering: no folder-level import cycle in engine/, agent/ and cli/ beyond the allowed ones", async () => {
  const graph = await readImportGraph(ROOT, ["engine", "agent", "cli"]);
  assert.ok(graph.has("agent/run.ts") && graph.has("cli/graph.ts"), "the scanner missed agent/ or cli/");
  const allowed = new Set(ALLOWED_FOLDER_CYCLES.map(({ members }) => [...members].sort().join(" <-> ")));
  const cycles = importCycles(graph, folderOf).map((cycle) => cycle.join(" <-> "));
  const unexpected = cycles.filter((cycle) => !allowed.has(cycle));
  assert.deepEqual(unexpected, [], `folder import cycles:\n${unexpected.join("\n")}`);
  // graph <-> parse <-> workspace (issue 29) stays gone: the workspace names languages from the leaf table
  assert.ok(
    !cycles.some((cycle) => cycle.includes("engine/parse")),
    "engine/parse is in a folder cycle again",
  );
});

/**
 * The engine's leaf helpers: modules every layer uses that import nothing
 * else from the engine. They live in `engine/base/` (moved there by the
 * lead's codemod, issue 29); until then at the engine's root under these names.
 */
const LEAF_FOLDER = "engine/base/";
const LEAF_NAMES = [
  "issue.ts",
  "issue_codes.ts",
  "limits.ts",
  "budget.ts",
  "suggest.ts",
  "read_failure.ts",
  "node_builtins.ts",
  "file_mode.ts",
  "languages.ts",
  "header_language.ts",
];
const isLeaf = (file: string) =>
  file.startsWith(LEAF_FOLDER) || LEAF_NAMES.some((name) => file === `engine/${name}`);

Deno.test("layering: the leaf helpers import nothing from the project outside themselves", async () => {
  const graph = await readImportGraph(ROOT, ["engine"]);
  const leaves = [...graph.keys()].filter(isLeaf);
  assert.ok(leaves.length >= 8, `only ${leaves.length} leaf helpers found: ${leaves.join(", ")}`);
  const rule: LayerRule = {
    name: `a leaf helper (${LEAF_FOLDER}) imports only other leaf helpers`,
    from: isLeaf,
    to: (file) => !isLeaf(file),
  };
  // the rule catches the edge issue 29 removed: the language lookup loading the parser
  const before: ImportGraph = new Map([["engine/base/languages.ts", [{
    to: "grammars/mod.ts",
    typeOnly: false,
    line: 3,
  }]]]);
  assert.deepEqual(layerViolations(before, [rule]), [
    `${rule.name}: engine/base/languages.ts:3 imports grammars/mod.ts`,
  ]);
  const violations = layerViolations(graph, [rule]);
  assert.deepEqual(violations, [], `leaf violations:\n${violations.join("\n")}`);
  // once the folder exists, no leaf helper is left behind at the engine's root
  if (leaves.some((file) => file.startsWith(LEAF_FOLDER))) {
    assert.deepEqual(leaves.filter((file) => !file.startsWith(LEAF_FOLDER)), []);
  }
});

Deno.test("layering: engine/edit and engine/plan import each other in no cycle (issue 29)", async () => {
  const folder = (file: string) => file.split("/").slice(0, 2).join("/");
  // What the code did before the registry: the plan validated define_operators through edit/dsl.ts, the
  // legacy operators checked their params with plan/mod.ts, the catalog read plan/operators.ts.
  const before: ImportGraph = new Map([
    ["engine/plan/mod.ts", [{ to: "engine/edit/dsl.ts", typeOnly: false, line: 41 }]],
    ["engine/edit/legacy/_util.ts", [{ to: "engine/plan/mod.ts", typeOnly: false, line: 12 }]],
    ["engine/edit/catalog.ts", [{ to: "engine/plan/operators.ts", typeOnly: false, line: 24 }]],
    ["engine/edit/dsl.ts", []],
    ["engine/plan/operators.ts", []],
  ]);
  assert.deepEqual(importCycles(before, folder), [["engine/edit", "engine/plan"]]);
  const editRule = RULES.find((rule) => rule.name.startsWith("engine/edit implements operators"))!;
  assert.deepEqual(layerViolations(before, [editRule]), [
    `${editRule.name}: engine/edit/legacy/_util.ts:12 imports engine/plan/mod.ts`,
    `${editRule.name}: engine/edit/catalog.ts:24 imports engine/plan/operators.ts`,
  ]);
  const graph = await readImportGraph(ROOT, ["engine"]);
  assert.ok(
    graph.get("engine/plan/operators.ts")?.some((edge) => edge.to === "engine/ops/registry.ts"),
    "the scanner missed the plan reading the operator registry",
  );
  const cycles = importCycles(graph, folder).filter((cycle) =>
    cycle.some((name) => ["engine/edit", "engine/plan", "engine/ops"].includes(name))
  );
  assert.deepEqual(cycles, []);
});

/** The strategy folder (`agent/NAME/`, whose `strategy.ts` `agent/strategies.ts` registers) `file` is in, or undefined. */
function strategyFolderOf(file: string, folders: readonly string[]): string | undefined {
  return folders.find((folder) => file.startsWith(folder));
}

/** The orchestrator's layers: strategies stand side by side on `agent/common/`, registered in one place. */
function agentRules(folders: readonly string[]): LayerRule[] {
  const inStrategy = (file: string) => strategyFolderOf(file, folders) !== undefined;
  return [
    {
      name: "a strategy never reaches into another strategy's folder (shared code belongs in agent/common/)",
      from: inStrategy,
      to: inStrategy,
      allow: (file, edge) => strategyFolderOf(file, folders) === strategyFolderOf(edge.to, folders),
    },
    {
      name: "shared agent code and the CLI never import a strategy: they go through agent/strategies.ts",
      from: (file) => under("agent/", "cli/")(file) && !inStrategy(file) && file !== "agent/strategies.ts",
      to: inStrategy,
    },
    {
      name: "agent/strategies.ts registers each strategy through its strategy.ts alone",
      from: (file) => file === "agent/strategies.ts",
      to: (file) => inStrategy(file) && !file.endsWith("/strategy.ts"),
    },
    {
      name:
        "agent/config/ (the strategies' names and config sections) imports no other agent code or the CLI",
      from: under("agent/config/"),
      to: (file) => under("agent/", "cli/")(file) && !under("agent/config/")(file),
    },
    {
      name:
        "agent/common/ is below the strategies and the run: it never imports run.ts, the registry or the CLI",
      from: under("agent/common/"),
      to: (file) =>
        ["agent/run.ts", "agent/strategies.ts"].includes(file) || under("cli/", "agent/swebench/")(file),
    },
  ];
}

Deno.test("layering: strategies import agent/common/, never each other; only the registry imports them", async () => {
  const graph = await readImportGraph(ROOT, ["agent", "cli"]);
  // A strategy's folder is the folder of a file the registry imports.
  const folders = (graph.get("agent/strategies.ts") ?? []).flatMap(({ to }) => {
    const match = /^agent\/([^/]+)\/[^/]+\.ts$/.exec(to);
    return match && !["common", "config"].includes(match[1]) ? [`agent/${match[1]}/`] : [];
  });
  assert.deepEqual(folders.sort(), ["agent/graphplan/", "agent/rfsn/"]);
  assert.ok(
    graph.get("agent/strategies.ts")?.some((edge) => edge.to === "agent/rfsn/strategy.ts"),
    "the scanner missed the registry importing rfsn/strategy.ts",
  );
  const rules = agentRules(folders);
  // The rules catch what the code did before the move: rfsn importing the phase machine's loop and the helper
  // client from its folder, run.ts the rfsn agent.
  const before: ImportGraph = new Map([
    ["agent/rfsn/agent.ts", [{ to: "agent/graphplan/loop.ts", typeOnly: false, line: 36 }]],
    ["agent/run.ts", [{ to: "agent/rfsn/mod.ts", typeOnly: false, line: 41 }]],
    ["agent/rfsn/controller.ts", [{ to: "agent/graphplan/helper.ts", typeOnly: false, line: 30 }]],
    ["agent/config/rfsn.ts", [{ to: "agent/config.ts", typeOnly: true, line: 12 }]],
  ]);
  assert.deepEqual(layerViolations(before, rules), [
    `${rules[0].name}: agent/rfsn/agent.ts:36 imports agent/graphplan/loop.ts`,
    `${rules[1].name}: agent/run.ts:41 imports agent/rfsn/mod.ts`,
    `${rules[0].name}: agent/rfsn/controller.ts:30 imports agent/graphplan/helper.ts`,
    `${rules[3].name}: agent/config/rfsn.ts:12 imports agent/config.ts`,
  ]);
  const violations = layerViolations(graph, rules);
  assert.deepEqual(violations, [], `layering violations:\n${violations.join("\n")}`);
});
