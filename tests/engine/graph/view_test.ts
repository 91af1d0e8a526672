/**
 * The LLM-facing view: one block per file, imports, then symbols with
 * methods and nested definitions indented under their parent, one label per
 * kind, and problems as ERROR/WARNING lines.
 */

import assert from "node:assert/strict";
import { buildGraph, type CodeGraph, renderGraphView } from "../../../engine/graph/mod.ts";
import { Workspace } from "../../../engine/workspace.ts";

const SAMPLE = new URL("../../fixtures/sample_project/", import.meta.url).pathname;
const FIXTURES = new URL("../../fixtures/graph/", import.meta.url).pathname;

Deno.test("graph view: the demo project reads as a map of the code", async () => {
  const graph = await buildGraph(Workspace.open(SAMPLE), ["app/service.py"]);
  assert.equal(
    renderGraphView(graph),
    `FILE: app/service.py
  IMPORT: import logging [line 3]
  IMPORT: from decimal import ROUND_HALF_UP [line 4]
  IMPORT: from decimal import Decimal [line 4]
  IMPORT: from typing import Iterable [line 5]
  IMPORT: from .models import Order [line 7]
  IMPORT: from .models import OrderStatus [line 7]
  CLASS: OrderNotFound (lines 15-16)
  CLASS: OrderService (lines 19-60)
    METHOD: __init__ (lines 20-21)
    METHOD: get (lines 23-27)
    METHOD: order_total (lines 29-34)
    METHOD: cancel (lines 36-42)
    METHOD: page (lines 44-50)
    METHOD: report (lines 52-60)
      FUNCTION: line (lines 53-54)
  FUNCTION: _round (lines 63-64)`,
  );
});

Deno.test("graph view: nesting follows parents; Go methods stay at top level; one label per kind", async () => {
  const graph = await buildGraph(Workspace.open(FIXTURES), ["store.go", "geo.cpp", "router.ts"]);
  const view = renderGraphView(graph);
  const block = (file: string) => {
    const start = view.indexOf(`FILE: ${file}`);
    const end = view.indexOf("\nFILE: ", start + 1);
    return view.slice(start, end === -1 ? undefined : end).split("\n");
  };
  assert.deepEqual(block("store.go").filter((line) => !line.includes("IMPORT")), [
    "FILE: store.go",
    "  STRUCT: Store (lines 11-13)",
    "  INTERFACE: Getter (line 15)",
    "  TYPEDEF: ID (line 16)",
    "  TYPE_ALIAS: Alias (line 17)",
    "  FUNCTION: New (line 19)",
    "  METHOD: Get (lines 21-29)",
    "  METHOD: Len (line 31)",
    "  METHOD: First (line 32)",
  ]);
  assert.ok(block("store.go").includes("  IMPORT: strings as str [line 4]"));
  assert.ok(block("store.go").includes("  IMPORT: * from math [line 4]"));
  assert.deepEqual(block("geo.cpp").filter((line) => !line.includes("IMPORT")), [
    "FILE: geo.cpp",
    "  NAMESPACE: geo (lines 6-25)",
    "    CLASS: Shape (lines 7-12)",
    "      METHOD: ~Shape (line 9)",
    "      METHOD: Shape (line 11)",
    "    STRUCT: Point (line 14)",
    "      METHOD: norm (line 14)",
    "    ENUM: Kind (line 16)",
    "    FUNCTION: clamp (lines 19-24)",
    "  FUNCTION: geo::Shape::area (line 27)",
    "  TYPE_ALIAS: Real (line 28)",
    "  FUNCTION: main (line 29)",
  ]);
  assert.ok(block("router.ts").includes("  IMPORT: default as Router from express [line 2]"));
  assert.ok(block("router.ts").includes("  MODULE: express-extra (lines 37-39)"));
});

Deno.test("graph view: problems are listed under their file, or hidden on request", () => {
  const graph: CodeGraph = {
    symbols: [{ name: "ok", kind: "function", file: "a.py", start_line: 1, end_line: 2 }],
    imports: [],
    line_kinds: { "a.py": { "2": "return_statement" } },
    errors: [
      {
        code: "syntax-error",
        severity: "warning",
        message: 'Syntax error in "a.py" at line 5: missing ")"',
        file: "a.py",
        line: 5,
      },
      {
        code: "not-utf8",
        severity: "error",
        message: 'File "b.py" is not valid UTF-8',
        file: "b.py",
        line: 3,
      },
    ],
  };
  assert.equal(
    renderGraphView(graph),
    `FILE: a.py
  FUNCTION: ok (lines 1-2)
  WARNING: Syntax error in "a.py" at line 5: missing ")"
FILE: b.py
  ERROR: File "b.py" is not valid UTF-8 [line 3]`,
  );
  assert.equal(renderGraphView(graph, { errors: false }), "FILE: a.py\n  FUNCTION: ok (lines 1-2)");
});
