/**
 * `graphplan graph PATH... [--repo DIR] [--json]`: the code graph of files
 * (a directory stands for the source files below it).
 *
 * Large inputs are graphed in parallel by the worker pool
 * (`engine/graph/pool.ts`); small ones in-process.
 *
 * @module
 */

import type { Issue } from "../engine/base/issue.ts";
import { buildGraph, buildGraphText, renderGraphView } from "../engine/graph/mod.ts";
import { graphMapper, graphTextMapper } from "../engine/graph/pool.ts";
import { Workspace } from "../engine/workspace.ts";
import {
  type Command,
  EXIT,
  printIssues,
  printJson,
  stringOption,
  UsageError,
  writePieces,
} from "./command.ts";

const command: Command = {
  name: "graph",
  summary: "Print the code graph (symbols, imports, line kinds) of files",
  usage: "PATH... [--repo DIR] [--json] [--workers N]",
  help: `
Parses each file PATH (relative to the repository root; a directory stands
for the source files below it, "." for the whole repository, skipping hidden
directories, node_modules, __pycache__ and, in a git work tree, what
.gitignore ignores) with tree-sitter and prints
its symbols (classes, functions, methods, interfaces, enums, structs, traits,
impls, modules, namespaces, typedefs, type aliases, with their line spans and
enclosing symbol), its imports (one record per imported name) and its
control-flow lines (if/for/while/return/raise/try).

Without --json the output is the view an LLM gets:

  FILE: app/service.py
    IMPORT: from app.models import Order [line 3]
    CLASS: OrderService (lines 8-40)
      METHOD: total (lines 12-20)

With --json it is exactly one JSON document:
  {"symbols": [{name, kind, file, start_line, end_line, parent?}],
   "imports": [{file, module, symbol, alias?, line}],
   "line_kinds": {file: {line: kind}}, "errors": [issue]}

When stderr is a terminal and the files take a while, a line there counts
them (graph: 1200/5000 files) and is cleared at the end.

A file that cannot be read (missing, unknown extension, binary, not UTF-8)
is reported as an error issue and the others are still graphed; a file with
syntax errors is graphed as far as it parses and reported as a
"syntax-error" warning with the line of its first error.

Options:
  --repo DIR     repository root (default: the current directory)
  --json         print the graph as JSON
  --workers N    worker threads for large inputs, besides the main thread
                 (default: one per core but one, at most one per MiB of
                 input; 0: in-process only)

Exit codes: 0 every file was graphed (syntax warnings included); 1 a file
could not be read; 2 usage error.

Example:
  graphplan graph --repo tests/fixtures/sample_project app/models.py app/service.py
`,
  options: { workers: { type: "string" } },
  async run(args) {
    if (args.positionals.length === 0) {
      throw new UsageError("graph needs at least one PATH (a file, a directory or .)");
    }
    const workersText = stringOption(args, "workers");
    const workers = workersText === undefined ? undefined : Number(workersText);
    if (workers !== undefined && !(Number.isInteger(workers) && workers >= 0)) {
      throw new UsageError(`--workers must be a whole number, got "${workersText}"`);
    }
    const workspace = Workspace.open(stringOption(args, "repo", "."));
    const poolOptions = { ...(workers === undefined ? {} : { workers }), progress: progressLine() };
    let errors: Issue[];
    if (args.values.json && !Deno.stdout.isTerminal()) {
      // Compact JSON for a program: assembled from per-file text, never built as one object.
      const mapFiles = graphTextMapper(workspace, poolOptions);
      const graph = await buildGraphText(workspace, args.positionals, { mapFiles });
      writePieces([...graph.pieces, "\n"]);
      errors = graph.errors;
    } else {
      const mapFiles = graphMapper(workspace, poolOptions);
      const graph = await buildGraph(workspace, args.positionals, { mapFiles });
      if (args.values.json) {
        printJson(graph);
      } else {
        const view = renderGraphView(graph, { errors: false });
        if (view) console.log(view);
        printIssues(graph.errors);
      }
      errors = graph.errors;
    }
    return errors.some((issue) => issue.severity === "error") ? EXIT.rejected : EXIT.ok;
  },
};

/**
 * A progress line on stderr (`graph: 1200/5000 files`, rewritten in place)
 * when stderr is a terminal, cleared when the files are done; nothing
 * otherwise, so logs and pipes stay clean.
 */
function progressLine(): ((done: number, total: number) => void) | undefined {
  if (!Deno.stderr.isTerminal()) return undefined;
  const encoder = new TextEncoder();
  let shown = false;
  return (done, total) => {
    if (done >= total && !shown) return;
    shown = done < total;
    Deno.stderr.writeSync(encoder.encode(shown ? `\rgraph: ${done}/${total} files` : "\r\x1b[K"));
  };
}

export default command;
