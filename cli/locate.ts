/**
 * `graphplan locate`: print the AST nodes a locator matches.
 *
 * @module
 */

import { IssueError } from "../engine/base/issue.ts";
import { locateResult, parseLocator, resolveSome } from "../engine/locate/mod.ts";
import { DocumentStore } from "../engine/parse/documents.ts";
import { Workspace } from "../engine/workspace.ts";
import { withBudget } from "../engine/base/budget.ts";
import { BOUND_HELP, BOUND_OPTIONS, configureBounds } from "./bounds.ts";
import {
  type Command,
  EXIT,
  printIssues,
  printJson,
  readJsonArg,
  stringOption,
  UsageError,
} from "./command.ts";

const command: Command = {
  name: "locate",
  summary: "Print the AST nodes a locator matches",
  usage: "LOCATOR [--repo DIR] [--json] [--timeout SECONDS] [--limit KEY=N]...",
  help: `
Resolve a locator against the current files of the repository and print every
match: its line range, kind and first line. LOCATOR is inline JSON, @FILE, or
- for stdin. "index" keeps one match; without it all matches are printed.

Structured:   {"file": "a.py", "kind": "method", "name": "add", "parent": {"kind": "class", "name": "Inventory"}}
Refinements:  "field": "body", "nth_child": -1 (named children, comments skipped), "index": 0
S-expression: {"type": "sexp", "file": "a.py", "query": "(identifier) @id (#eq? @id \\"foo\\")", "capture": "id"}

Options:
  --repo DIR   repository root (default: .)
  --json       print {found, count, file, nodes: [{start_line, end_line, kind, type, text_preview}]}
${BOUND_HELP}

Exit codes: 0 found, 1 nothing found or the locator is invalid, 2 usage error.
`,
  options: { ...BOUND_OPTIONS },
  async run(args) {
    configureBounds(args);
    const json = args.values.json === true;
    if (args.positionals.length !== 1) {
      throw new UsageError(args.positionals.length === 0 ? "missing LOCATOR" : "give exactly one LOCATOR");
    }
    const locator = parseLocator(await readJsonArg(args.positionals[0], "locator"));
    const store = new DocumentStore(Workspace.open(stringOption(args, "repo", ".")));
    try {
      const { doc, nodes } = await withBudget(undefined, () => resolveSome(store, locator));
      const result = locateResult(doc, nodes);
      if (json) {
        printJson(result);
      } else {
        for (const node of result.nodes) {
          const lines = node.start_line === node.end_line
            ? `${node.start_line}`
            : `${node.start_line}-${node.end_line}`;
          console.log(`${result.file}:${lines} ${node.kind}: ${node.text_preview}`);
        }
      }
      return EXIT.ok;
    } catch (err) {
      if (!(err instanceof IssueError) || err.issues[0]?.code !== "locator-not-found") throw err;
      if (json) {
        printJson({
          found: false,
          count: 0,
          file: locator.file,
          nodes: [],
          errors: err.issues,
          warnings: [],
        });
      } else printIssues(err.issues);
      return EXIT.rejected;
    }
  },
};

export default command;
