/**
 * Symbols, imports and line kinds for every language, on one realistic
 * source each (tests/fixtures/graph/): a class with methods, nested
 * definitions, several import forms and control flow. Each expectation was
 * checked by hand against the source.
 *
 * Notation: a symbol is `"KIND NAME START-END [in PARENT]"`, an import
 * `"LINE: MODULE SYMBOL [as ALIAS]"` (`-` for a null symbol).
 */

import assert from "node:assert/strict";
import { buildGraph, type CodeGraph, extractFileGraph } from "../../../engine/graph/mod.ts";
import { parse } from "../../../engine/parse/mod.ts";
import { Workspace } from "../../../engine/workspace.ts";

const FIXTURES = new URL("../../fixtures/graph/", import.meta.url).pathname;

interface Expected {
  language: string;
  symbols: string[];
  imports: string[];
  line_kinds: Record<number, string>;
}

const EXPECTED: Record<string, Expected> = {
  "inventory.py": {
    language: "Python",
    symbols: [
      "class Inventory 13-41",
      "method __init__ 16-18 in Inventory",
      "method load 21-26 in Inventory",
      "method reserve 28-37 in Inventory",
      "function available 29-30 in reserve",
      "class Snapshot 39-41 in Inventory",
      "method __init__ 40-41 in Snapshot",
      "function restock_plan 44-52",
    ],
    imports: [
      "3: logging -",
      "4: os.path -",
      "4: json - as _json",
      "5: collections defaultdict",
      "6: .errors OutOfStock",
      "6: .errors UnknownSku as Missing",
      "7: . metrics",
      "8: ..shared.util *",
    ],
    line_kinds: {
      23: "if_statement",
      26: "return_statement",
      30: "return_statement",
      32: "if_statement",
      33: "raise_statement",
      34: "while_statement",
      35: "raise_statement",
      46: "for_statement",
      47: "if_statement",
      48: "try_statement",
      52: "return_statement",
    },
  },
  "cart.js": {
    language: "JavaScript",
    symbols: [
      "class Cart 6-22",
      "method onChange 8-10 in Cart",
      "method fromJSON 12-14 in Cart",
      "method add 16-21 in Cart",
      "function total 24-37",
      "function priceOf 25-27 in total",
      "function formatPrice 39-39",
      "function legacyTotal 40-40",
      "function default 41-41",
    ],
    imports: [
      "1: node:fs default as fs",
      "1: node:fs readFile as read",
      "1: node:fs stat",
      "2: node:path * as path",
      "3: ./polyfills.js -",
      "4: events -",
      "42: ./discounts.js *",
      "43: ./checkout.js -",
    ],
    line_kinds: {
      9: "if_statement",
      13: "return_statement",
      17: "for_statement",
      18: "if_statement",
      20: "raise_statement",
      26: "return_statement",
      29: "try_statement",
      34: "while_statement",
      36: "return_statement",
      40: "while_statement",
    },
  },
  "router.ts": {
    language: "TypeScript",
    symbols: [
      "interface Handler 5-7",
      "enum Method 9-12",
      "type_alias Route 14-14",
      "class BaseRouter 16-29",
      "method add 21-24 in BaseRouter",
      "method onError 26-28 in BaseRouter",
      "namespace Paths 31-35",
      "function join 32-34 in Paths",
      "module express-extra 37-39",
    ],
    imports: [
      "1: express Request",
      "1: express Response",
      "2: express default as Router",
      "2: express * as express",
      "3: fs - as fs",
    ],
    line_kinds: { 22: "if_statement", 33: "return_statement" },
  },
  "widget.tsx": {
    language: "TSX",
    symbols: [
      "interface Props 3-3",
      "function Counter 5-10",
      "function increment 7-7 in Counter",
      "class Panel 12-14",
      "method render 13-13 in Panel",
    ],
    imports: [
      "1: react default as React",
      "1: react useState",
    ],
    line_kinds: { 8: "if_statement", 9: "return_statement", 13: "return_statement" },
  },
  "OrderService.java": {
    language: "Java",
    symbols: [
      "class OrderService 8-29",
      "method OrderService 11-13 in OrderService",
      "method find 16-22 in OrderService",
      "interface Listener 24-24 in OrderService",
      "method onOrder 24-24 in Listener",
      "enum Status 25-25 in OrderService",
      "method done 25-25 in Status",
      "class Pair 26-26 in OrderService",
      "class Helper 27-27 in OrderService",
      "interface Marker 28-28 in OrderService",
    ],
    imports: [
      "3: java.util List",
      "4: java.util *",
      "5: java.util.Objects requireNonNull",
    ],
    line_kinds: {
      17: "for_statement",
      18: "if_statement",
      20: "try_statement",
      21: "return_statement",
      25: "return_statement",
    },
  },
  "store.go": {
    language: "Go",
    symbols: [
      "struct Store 11-13",
      "interface Getter 15-15",
      "typedef ID 16-16",
      "type_alias Alias 17-17",
      "function New 19-19",
      "method Get 21-29 in Store",
      "method Len 31-31 in Store",
      "method First 32-32 in Pair",
    ],
    imports: [
      "3: fmt -",
      "4: errors -",
      "4: strings - as str",
      "4: math *",
      "4: embed - as _",
    ],
    line_kinds: {
      19: "return_statement",
      22: "if_statement",
      23: "return_statement",
      25: "for_statement",
      28: "return_statement",
      31: "return_statement",
      32: "return_statement",
    },
  },
  "shapes.rs": {
    language: "Rust",
    symbols: [
      "struct Point 8-8",
      "enum Shape 10-10",
      "trait Area 12-15",
      "method area 13-13 in Area",
      "method describe 14-14 in Area",
      "impl Point 17-22",
      "method new 18-21 in Point",
      "function helper 19-19 in new",
      "impl Shape 24-31",
      "method area 25-30 in Shape",
      "module tests 33-35",
      "function check 34-34 in tests",
      "type_alias Map 36-36",
      "struct U 37-37",
      "function main 38-38",
    ],
    imports: [
      "1: std::collections HashMap",
      "2: std::io -",
      "2: std::io Read as R",
      "2: std::io::prelude *",
      "3: serde Deserialize",
      "3: serde::de Visitor",
      "3: serde::de Error",
      "4: log -",
      "5: crate util",
    ],
    line_kinds: { 27: "if_statement", 34: "for_statement", 38: "if_statement" },
  },
  "billing.rb": {
    language: "Ruby",
    symbols: [
      "module Billing 5-40",
      "class Invoice 6-39 in Billing",
      "method initialize 9-11 in Invoice",
      "method parse 13-17 in Invoice",
      "method overdue? 19-34 in Invoice",
      "method build 37-37 in Invoice",
      "function helper 42-44",
      "class Billing::Report 46-46",
    ],
    imports: [
      "1: json -",
      "2: lib/helper -",
      "3: tasks.rb -",
    ],
    line_kinds: {
      15: "if_statement",
      20: "if_statement",
      21: "try_statement",
      25: "raise_statement",
      28: "if_statement",
      30: "while_statement",
      31: "for_statement",
      32: "while_statement",
      33: "return_statement",
      43: "if_statement",
    },
  },
  "gateway.php": {
    language: "PHP",
    symbols: [
      "namespace App\\Billing 2-2",
      "interface Payable 10-10",
      "method pay 10-10 in Payable",
      "trait Logs 12-14",
      "method log 13-13 in Logs",
      "class Gateway 17-31",
      "method __construct 20-20 in Gateway",
      "method pay 22-28 in Gateway",
      "method make 30-30 in Gateway",
      "function helper 33-33",
      "enum Suit 34-34",
    ],
    imports: [
      "4: App\\Models Invoice",
      "5: App\\Support Money",
      "5: App\\Support Currency as Cur",
      "6: App\\Support format_money",
      "7: __DIR__ . '/helpers.php' -",
      "8: config.php -",
    ],
    line_kinds: {
      23: "if_statement",
      24: "raise_statement",
      26: "for_statement",
      27: "try_statement",
      30: "return_statement",
      33: "for_statement",
    },
  },
  "list.c": {
    language: "C",
    symbols: [
      "typedef node_t 4-7",
      "struct node 4-7",
      "struct pair 9-9",
      "enum color 10-10",
      "typedef level 11-11",
      "typedef size 12-12",
      "struct data 13-13",
      "function count 17-23",
      "function dup_name 25-25",
      "function get_handler 26-26",
      "function trace 28-28",
    ],
    imports: [
      "1: stdio.h -",
      "2: buffer.h -",
    ],
    line_kinds: {
      19: "while_statement",
      20: "for_statement",
      21: "while_statement",
      22: "return_statement",
      25: "return_statement",
      26: "return_statement",
    },
  },
  "geo.cpp": {
    language: "C++",
    symbols: [
      "namespace geo 6-25",
      "class Shape 7-12 in geo",
      "method ~Shape 9-9 in Shape",
      "method Shape 11-11 in Shape",
      "struct Point 14-14 in geo",
      "method norm 14-14 in Point",
      "enum Kind 16-16 in geo",
      "function clamp 19-24 in geo",
      "function geo::Shape::area 27-27",
      "type_alias Real 28-28",
      "function main 29-29",
    ],
    imports: [
      "1: vector -",
      "2: shape.hpp -",
      "3: std *",
      "4: std string",
    ],
    line_kinds: {
      14: "return_statement",
      20: "if_statement",
      21: "try_statement",
      22: "for_statement",
      23: "return_statement",
      27: "return_statement",
      29: "return_statement",
    },
  },
};

function symbolsOf(graph: CodeGraph): string[] {
  return graph.symbols.map((s) =>
    `${s.kind} ${s.name} ${s.start_line}-${s.end_line}${s.parent ? ` in ${s.parent}` : ""}`
  );
}

function importsOf(graph: CodeGraph): string[] {
  return graph.imports.map((r) =>
    `${r.line}: ${r.module} ${r.symbol ?? "-"}${r.alias !== undefined ? ` as ${r.alias}` : ""}`
  );
}

const workspace = Workspace.open(FIXTURES);

for (const [file, expected] of Object.entries(EXPECTED)) {
  Deno.test(`graph: ${expected.language} (${file})`, async () => {
    const graph = await buildGraph(workspace, [file]);
    assert.deepEqual(graph.errors, []);
    assert.deepEqual(symbolsOf(graph), expected.symbols);
    assert.deepEqual(importsOf(graph), expected.imports);
    assert.deepEqual(
      graph.line_kinds,
      { [file]: Object.fromEntries(Object.entries(expected.line_kinds).map(([k, v]) => [String(k), v])) },
    );
    for (const symbol of graph.symbols) assert.equal(symbol.file, file);
    for (const record of graph.imports) assert.equal(record.file, file);
  });
}

Deno.test("graph: records are plain JSON in the documented shape (optional keys absent, not undefined)", async () => {
  const graph = await buildGraph(workspace, ["inventory.py"]);
  assert.deepEqual(Object.keys(graph), ["symbols", "imports", "line_kinds", "errors"]);
  assert.deepEqual(graph.symbols[0], {
    name: "Inventory",
    kind: "class",
    file: "inventory.py",
    start_line: 13,
    end_line: 41,
  });
  assert.deepEqual(Object.keys(graph.symbols[1]), [
    "name",
    "kind",
    "file",
    "start_line",
    "end_line",
    "parent",
  ]);
  assert.deepEqual(graph.imports[0], { file: "inventory.py", module: "logging", symbol: null, line: 3 });
  assert.deepEqual(Object.keys(graph.imports[2]), ["file", "module", "symbol", "alias", "line"]);
  assert.deepEqual(JSON.parse(JSON.stringify(graph)), graph);
});

Deno.test("graph: several files keep their order, each with its own line kinds", async () => {
  const graph = await buildGraph(workspace, ["list.c", "inventory.py", "list.c"]);
  assert.deepEqual(Object.keys(graph.line_kinds), ["list.c", "inventory.py"]);
  assert.deepEqual([...new Set(graph.symbols.map((s) => s.file))], ["list.c", "inventory.py"]);
  assert.equal(graph.symbols.filter((s) => s.name === "count").length, 1);
});

Deno.test("graph: extractFileGraph is pure and its result survives structured cloning (worker-safe)", async () => {
  const file = workspace.read("cart.js");
  const tree = await parse(file.language, file.text);
  try {
    const first = extractFileGraph(file, tree);
    const second = extractFileGraph(file, tree);
    assert.deepEqual(second, first);
    assert.deepEqual(structuredClone(first), first);
    assert.equal(first.file, "cart.js");
    assert.equal(first.language, "javascript");
  } finally {
    tree.delete();
  }
});

Deno.test("graph: CRLF line endings and a BOM do not shift lines", async () => {
  const dir = await Deno.makeTempDir({ prefix: "graphplan-graph-crlf-" });
  try {
    const text = await Deno.readTextFile(`${FIXTURES}/inventory.py`);
    await Deno.writeTextFile(`${dir}/inventory.py`, "\ufeff" + text.replaceAll("\n", "\r\n"));
    const crlf = await buildGraph(Workspace.open(dir), ["inventory.py"]);
    const lf = await buildGraph(workspace, ["inventory.py"]);
    assert.deepEqual(crlf, lf);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
