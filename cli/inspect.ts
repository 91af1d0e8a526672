/**
 * `graphplan inspect`: write one self-contained HTML page for a trajectory,
 * a run's output directory or a batch output directory (see
 * agent/trajectory/inspect).
 *
 * @module
 */

import { type Command, EXIT, printJson, stringOption, UsageError } from "./command.ts";
import { inspect } from "../agent/trajectory/inspect/mod.ts";
import { inspectSectionOf } from "../agent/strategies.ts";

/** The command that opens a file with the desktop's default program. */
function opener(): string[] {
  if (Deno.build.os === "darwin") return ["open"];
  if (Deno.build.os === "windows") return ["cmd", "/c", "start", ""];
  return ["xdg-open"];
}

const command: Command = {
  name: "inspect",
  summary: "Write one self-contained HTML page for a trajectory, a run or a batch",
  usage: "PATH [-o FILE.html] [--open] [--json]",
  help: `
PATH is a .traj.json file, the output directory of graphplan run (or one
instance's folder in it), or the output directory of graphplan batch.

The page holds everything inline (style, script, charts as SVG): no network,
no CDN, no file beside it, so it can be attached to a bug report. Everything
from the model, the repository or the task is shown as text.

A trajectory's page: the task, the phase timeline (fallback point and reason,
time and cost per phase), each plan with its steps (tier, operator, target in
words), the verification and execution issues attached to their steps, the
rollback, the final patch as a coloured diff, model stats, the gate when
recorded, and every message (collapsible) with its tool calls and output.

A batch's page: totals, charts (exit statuses, cost per instance, how far
instances got in the phase machine) and a table of instances sortable by any
column and filterable by status. Each instance's page is written to the
folder NAME_instances/ beside the batch page NAME.html, and the rows link to
it.

Options:
  -o, --output FILE   the page to write (default: X.html beside X.traj.json;
                      DIR/inspect.html for a batch)
  --open              open the page with the desktop's default program
  --json              print {success, kind, page, pages, errors, warnings}

Examples:
  graphplan inspect graphplan-runs/sample-1/sample-1.traj.json
  graphplan inspect runs/batch-1 -o batch.html --open

Exit: 0 written, 1 PATH missing or not a trajectory/run/batch, 2 usage error.`,
  options: {
    output: { type: "string", short: "o" },
    open: { type: "boolean" },
  },
  async run(args) {
    if (args.positionals.length !== 1) {
      throw new UsageError(
        args.positionals.length === 0
          ? "Missing PATH: give a .traj.json file, a run's output directory or a batch output directory"
          : `Expected one PATH, got ${args.positionals.length}: ${
            args.positionals.map((a) => `"${a}"`).join(" ")
          }`,
      );
    }
    const result = await inspect(args.positionals[0], {
      output: stringOption(args, "output"),
      sectionOf: inspectSectionOf,
    });
    const warnings = [];
    if (args.values.open === true) {
      const [program, ...rest] = opener();
      try {
        const child = new Deno.Command(program, {
          args: [...rest, result.page],
          stdout: "null",
          stderr: "null",
        })
          .spawn();
        child.unref();
      } catch (err) {
        warnings.push({
          code: "open-failed",
          severity: "warning" as const,
          message: `Cannot open the page with "${program}": ${(err as Error).message}`,
          hint: `open "${result.page}" in a browser`,
        });
      }
    }
    if (args.values.json === true) {
      printJson({ success: true, ...result, errors: [], warnings });
    } else {
      const more = result.pages.length > 1
        ? ` (and ${result.pages.length - 1} instance pages beside it)`
        : "";
      console.log(`Wrote the ${result.kind} page "${result.page}"${more}`);
      for (const warning of warnings) console.error(`warning[${warning.code}] ${warning.message}`);
    }
    return EXIT.ok;
  },
};

export default command;
