/**
 * CPython as the oracle for Python symbols: for every `before` .py file of
 * the corpus, the graph's symbols are exactly the `def`/`async def`/`class`
 * nodes `ast` finds, with the same names and start lines (`node.lineno`, the
 * keyword's line, decorators excluded). End lines agree too, except where
 * tree-sitter's block also holds trailing comment lines, which CPython's
 * `end_lineno` (the last statement) leaves out: then every line between the
 * two ends must be blank or a comment.
 *
 * The same oracle checks imports (one record per `ast.alias`, relative
 * modules spelled with their dots) and line kinds (the shallowest `If`, `For`,
 * `While`, `Return`, `Raise`, `Try` starting on each line; an `elif` is an
 * `If` to CPython but a clause to tree-sitter, so `elif` lines are left out).
 */

import assert from "node:assert/strict";
import { extractFileGraph } from "../../../engine/graph/mod.ts";
import { parse, syntaxProblems } from "../../../engine/parse/mod.ts";
import type { SourceFile } from "../../../engine/workspace.ts";
import { CORPUS_SKIP, corpusBeforeFiles } from "../../_support/corpus.ts";
import { PYTHON_SKIP, runPythonJson } from "../../_support/python.ts";

const AST_SCRIPT = `
import ast, json, sys
out = []
for src in json.load(sys.stdin):
    try:
        tree = ast.parse(src)
    except SyntaxError as e:
        out.append({"error": f"{e.msg} (line {e.lineno})"})
        continue
    defs = [
        [node.name, node.lineno, node.end_lineno]
        for node in ast.walk(tree)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
    ]
    out.append({"defs": defs})
print(json.dumps(out))
`;

const IMPORTS_AND_LINES_SCRIPT = `
import ast, json, sys
KINDS = [
    (ast.If, "if_statement"), (ast.For, "for_statement"), (ast.AsyncFor, "for_statement"),
    (ast.While, "while_statement"), (ast.Return, "return_statement"), (ast.Raise, "raise_statement"),
    (ast.Try, "try_statement"),
] + ([(ast.TryStar, "try_statement")] if hasattr(ast, "TryStar") else [])
out = []
for src in json.load(sys.stdin):
    try:
        tree = ast.parse(src)
    except SyntaxError:
        out.append(None)
        continue
    lines = src.splitlines()
    imports, kinds = [], {}
    for node in ast.walk(tree):  # breadth first: the shallowest node of a line comes first
        if isinstance(node, ast.Import):
            for a in node.names:
                imports.append([a.name, None, a.asname, node.lineno])
        elif isinstance(node, ast.ImportFrom):
            module = "." * node.level + (node.module or "")
            for a in node.names:
                imports.append([module, a.name, a.asname, node.lineno])
        for cls, kind in KINDS:
            if isinstance(node, cls) and node.lineno not in kinds:
                if cls is ast.If and lines[node.lineno - 1].lstrip().startswith("elif"):
                    continue
                kinds[node.lineno] = kind
    out.append({"imports": imports, "line_kinds": {str(k): v for k, v in kinds.items()}})
print(json.dumps(out))
`;

type AstResult = { error: string } | { defs: [string, number, number][] };

const skip = PYTHON_SKIP ?? CORPUS_SKIP;
if (skip) console.log(`cpython_oracle_test: skipped: ${skip}`);

function sourceFile(path: string, text: string): SourceFile {
  return { path, absPath: `/corpus/${path}`, language: "python", text, bom: false, eol: "\n", mode: null };
}

/** Whether a line holds nothing but whitespace or a comment. */
function blankOrComment(line: string): boolean {
  const trimmed = line.trim();
  return trimmed === "" || trimmed.startsWith("#");
}

Deno.test({
  name: "graph: Python symbols match CPython's ast on every corpus before file",
  ignore: skip !== undefined,
  async fn() {
    const files = await corpusBeforeFiles(".py");
    assert.ok(files.length > 100, `expected the corpus to hold many Python files, got ${files.length}`);
    const oracle = await runPythonJson<AstResult[]>(AST_SCRIPT, files.map((file) => file.text));
    let compared = 0;
    let symbols = 0;
    let trailingComments = 0;
    const unparsable: string[] = [];
    const failures: string[] = [];
    for (let i = 0; i < files.length; i++) {
      const { id, path, text } = files[i];
      const expected = oracle[i];
      if ("error" in expected) {
        unparsable.push(`${id}:${path}: ${expected.error}`);
        continue;
      }
      const tree = await parse("python", text);
      const graph = extractFileGraph(sourceFile(path, text), tree);
      tree.delete();
      const lines = text.split(/\r?\n/);
      const ours = graph.symbols
        .map((s) => ({ name: s.name, start: s.start_line, end: s.end_line }))
        .sort((a, b) => a.start - b.start || a.name.localeCompare(b.name));
      const theirs = expected.defs
        .map(([name, start, end]) => ({ name, start, end }))
        .sort((a, b) => a.start - b.start || a.name.localeCompare(b.name));
      const where = `${id}:${path}`;
      if (ours.length !== theirs.length) {
        failures.push(`${where}: ${ours.length} symbols, CPython finds ${theirs.length}`);
        continue;
      }
      for (let k = 0; k < ours.length; k++) {
        const [a, b] = [ours[k], theirs[k]];
        if (a.name !== b.name || a.start !== b.start) {
          failures.push(`${where}: "${a.name}" at line ${a.start}, CPython "${b.name}" at line ${b.start}`);
          continue;
        }
        if (a.end !== b.end) {
          const between = lines.slice(b.end, a.end); // lines b.end+1 .. a.end (1-based)
          if (a.end < b.end || !between.every(blankOrComment)) {
            failures.push(`${where}: "${a.name}" ends at line ${a.end}, CPython at ${b.end}`);
            continue;
          }
          trailingComments++;
        }
        symbols++;
      }
      compared++;
    }
    console.log(
      `CPython oracle: ${compared} files, ${symbols} symbols compared ` +
        `(${trailingComments} end after trailing comment lines); ` +
        `${unparsable.length} files CPython rejects${unparsable.length ? `: ${unparsable.join("; ")}` : ""}`,
    );
    assert.deepEqual(failures, []);
    assert.ok(compared > 100 && symbols > 1000, `too little compared: ${compared} files, ${symbols} symbols`);
  },
});

type ImportsAndLines = {
  imports: [string, string | null, string | null, number][];
  line_kinds: Record<string, string>;
};

Deno.test({
  name: "graph: Python imports and line kinds match CPython's ast on every corpus before file",
  ignore: skip !== undefined,
  async fn() {
    const files = await corpusBeforeFiles(".py");
    const oracle = await runPythonJson<(ImportsAndLines | null)[]>(
      IMPORTS_AND_LINES_SCRIPT,
      files.map((file) => file.text),
    );
    let compared = 0;
    let imports = 0;
    let lines = 0;
    let filesWithProblems = 0;
    let brokenLines = 0;
    const failures: string[] = [];
    for (let i = 0; i < files.length; i++) {
      const { id, path, text } = files[i];
      const expected = oracle[i];
      if (expected === null) continue;
      const tree = await parse("python", text);
      const graph = extractFileGraph(sourceFile(path, text), tree);
      const problems = syntaxProblems(tree);
      if (problems.length > 0) filesWithProblems++;
      tree.delete();
      const ours = graph.imports.map((r) => [r.module, r.symbol, r.alias ?? null, r.line]);
      const key = (r: unknown[]) => JSON.stringify(r);
      const sortedOurs = ours.map(key).sort();
      const sortedTheirs = expected.imports.map(key).sort();
      try {
        assert.deepEqual(sortedOurs, sortedTheirs);
      } catch {
        failures.push(`${id}:${path}: imports differ`);
      }
      // Compare every line but `elif` lines and the lines of regions the
      // pinned grammar cannot parse (it fails on a few valid strings).
      const excluded = new Set(
        text.split(/\r?\n/).flatMap((line, row) =>
          line.trimStart().startsWith("elif") ? [String(row + 1)] : []
        ),
      );
      for (const problem of problems) {
        const last = problem.line +
          (text.slice(problem.startIndex, problem.endIndex).match(/\n/g)?.length ?? 0);
        for (let line = problem.line; line <= last; line++) {
          if (!excluded.has(String(line))) brokenLines++;
          excluded.add(String(line));
        }
      }
      const keep = ([line]: [string, string]) => !excluded.has(line);
      const ourKinds = Object.fromEntries(Object.entries(graph.line_kinds).filter(keep));
      const theirKinds = Object.fromEntries(Object.entries(expected.line_kinds).filter(keep));
      try {
        assert.deepEqual(ourKinds, theirKinds);
      } catch {
        const diff = [...new Set([...Object.keys(ourKinds), ...Object.keys(theirKinds)])]
          .filter((line) => ourKinds[line] !== theirKinds[line])
          .slice(0, 5)
          .map((line) => `line ${line}: ${ourKinds[line]} vs ${theirKinds[line]}`);
        failures.push(`${id}:${path}: line kinds differ (${diff.join(", ")})`);
      }
      compared++;
      imports += ours.length;
      lines += Object.keys(ourKinds).length;
    }
    console.log(
      `CPython oracle: ${compared} files, ${imports} imports and ${lines} line kinds compared; ` +
        `${brokenLines} lines in ${filesWithProblems} files left out where the grammar reports a syntax error`,
    );
    assert.deepEqual(failures, []);
    assert.ok(compared > 100 && imports > 1000 && lines > 1000);
  },
});
