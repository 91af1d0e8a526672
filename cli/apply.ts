/**
 * `graphplan apply PLAN`: execute an edit plan as one transaction, or show
 * its diff with `--dry-run`.
 *
 * @module
 */

import {
  type Command,
  EXIT,
  printIssues,
  printJson,
  readInput,
  stringOption,
  UsageError,
} from "./command.ts";
import { capIssues, IssueError, partition } from "../engine/base/issue.ts";
import { withBudget } from "../engine/base/budget.ts";
import { limits } from "../engine/base/limits.ts";
import { BOUND_HELP, BOUND_OPTIONS, configureBounds } from "./bounds.ts";
import { DocumentStore } from "../engine/parse/documents.ts";
import { Workspace } from "../engine/workspace.ts";
import { executePlan, type PlanResult } from "../engine/exec/execute.ts";
import { checkJournal } from "../engine/exec/journal.ts";
import { parsePlanSteps } from "../engine/exec/wiring.ts";
import { Compilers } from "../engine/verify/compile/mod.ts";
import { STRICT_HELP, STRICT_OPTIONS, strictFromArgs } from "./strict.ts";

const command: Command = {
  name: "apply",
  summary: "Execute an edit plan as one transaction (or --dry-run for the diff)",
  usage: "PLAN [--repo DIR] [--dry-run] [--strict] [--json] [--timeout SECONDS] [--limit KEY=N]...",
  help: `
PLAN is a plan file (JSON) or - for stdin. Every step is a transaction
(pre-check, edit in memory, post-check, atomic write); the plan is all or
nothing: when a step fails, every file changed by earlier steps is restored
and the command exits 1. The original bytes of every touched file are kept in
a journal outside the repository until the plan succeeds, so an interrupted
run can be undone with "graphplan rollback". Where python3 (or node) is on
PATH, every changed Python (or JavaScript) file is compiled with it after
the last step; a file that compiled before and does not now rolls the plan
back ("compiled" in the JSON says with what, null: no interpreter used).

Options:
  --repo DIR   repository root (default: .)
  --dry-run    run the plan in memory and print the unified diff; write nothing
${STRICT_HELP}
  --json       print the result {success, rolled_back, failed_step?, errors,
               warnings, files_changed, compiled} (plus diff with --dry-run) as JSON
${BOUND_HELP}

Exit codes: 0 applied (or dry run passed), 1 rejected or rolled back,
2 usage error, 3 internal error.

Examples:
  graphplan apply plan.json --repo .
  cat plan.json | graphplan apply - --dry-run`,
  options: { "dry-run": { type: "boolean" }, ...STRICT_OPTIONS, ...BOUND_OPTIONS },
  async run(args) {
    configureBounds(args);
    const [planArg, ...extra] = args.positionals;
    if (!planArg) throw new UsageError("Missing the PLAN argument (a file, or - for stdin)");
    if (extra.length > 0) {
      throw new UsageError(`Unexpected arguments: ${extra.map((a) => `"${a}"`).join(" ")}`);
    }
    const json = args.values.json === true;
    const dryRun = args.values["dry-run"] === true;
    const strict = strictFromArgs(args);
    const workspace = Workspace.open(stringOption(args, "repo", "."));
    if (!dryRun) checkJournal(workspace);
    const text = await readInput(planArg);
    let document: unknown;
    try {
      document = JSON.parse(text);
    } catch (err) {
      throw new IssueError({
        code: "json-invalid",
        severity: "error",
        message: `The plan is not valid JSON: ${(err as Error).message}`,
      });
    }
    const { steps, issues, runStep } = await parsePlanSteps(document);
    const { errors: planErrors, warnings: planWarnings } = partition(issues);
    let result: PlanResult;
    if (planErrors.length > 0) {
      result = {
        success: false,
        rolled_back: false,
        errors: planErrors,
        warnings: planWarnings,
        files_changed: [],
        outputs: [],
        compiled: null,
      };
    } else {
      const compilers = new Compilers();
      try {
        const store = new DocumentStore(workspace);
        result = await withBudget(
          undefined,
          () => executePlan(store, steps, { runStep, dryRun, compilers, strict }),
        );
      } finally {
        await compilers.close();
      }
      const perCode = limits().max_issues_per_code;
      result = {
        ...result,
        errors: capIssues(result.errors, perCode),
        warnings: capIssues(planWarnings.concat(result.warnings), perCode),
      };
    }
    if (json) {
      printJson(result);
    } else {
      printIssues(result.warnings);
      if (result.success) {
        if (dryRun) await Deno.stdout.write(new TextEncoder().encode(result.diff ?? ""));
        const files = result.files_changed.length ? `: ${result.files_changed.join(", ")}` : "";
        const verb = dryRun ? "Would change" : "Changed";
        console.error(`${verb} ${result.files_changed.length} file(s) in ${steps.length} step(s)${files}`);
      } else {
        printIssues(result.errors);
        if (result.failed_step === undefined) console.error("The plan was rejected: nothing was executed");
        else {
          console.error(
            `Step ${result.failed_step} failed: ${
              dryRun ? "nothing was written" : "every file was restored"
            }`,
          );
        }
      }
    }
    return result.success ? EXIT.ok : EXIT.rejected;
  },
};

export default command;
