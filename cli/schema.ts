/**
 * `graphplan schema [--json] [--check PLAN | --issue-codes]`: the JSON Schema
 * of edit plans, the structural check of one plan against it, or the closed
 * list of issue codes.
 *
 * @module
 */

import { formatIssue } from "../engine/base/issue.ts";
import { ISSUE_CODES } from "../engine/base/issue_codes.ts";
import { parsePlanText, planJsonSchema } from "../engine/plan/mod.ts";
import {
  type Command,
  EXIT,
  printJson,
  readInput,
  stringOption,
  usageFailure,
  writeLine,
} from "./command.ts";

const command: Command = {
  name: "schema",
  summary: "Print the JSON Schema of edit plans",
  usage: "[--json] [--check PLAN | --issue-codes]",
  help: `
Prints the JSON Schema (draft 2020-12) of a plan document: an array of steps,
or {"define_operators": [...], "plan": [...]}, where a step is
  {"op": NAME, "params": {...}}            primitive, tier-1 surgery, composed or legacy operator
  {"template": NAME, "params": {...}}      tier-2 template ("params.target" is a locator)
  {"fragment": {...}, "action", "target"}  tier-3 typed fragment
Use it to validate plans in an editor, or as the response format of an LLM
(structured output). The schema is generated from the same zod schemas the
engine validates plans with. --json prints the same document.

With --check PLAN (a file, or - for stdin) it validates the plan's structure
instead (operators, parameters and their types, locator shapes; not whether
files or nodes exist, which "graphplan apply --dry-run" checks) and prints
the problems: as {"passed", "errors", "warnings"} with --json.

With --issue-codes it prints every code an issue object can carry, one per
line with its meaning (as {"code": "meaning", ...} with --json); the list is
closed, so scripts may match on these codes. docs/issue_codes.md has it too.

Options:
  --json          print JSON (the schema, the check's report, or the codes)
  --check PLAN    check a plan file (or - for stdin) instead of printing the schema
  --issue-codes   print the issue codes and their meanings

Exit codes: 0 schema printed or plan valid; 1 the plan is invalid; 2 usage error.

Examples:
  graphplan schema > plan.schema.json
  graphplan schema --check plan.json
  graphplan schema --issue-codes
`,
  options: { check: { type: "string" }, "issue-codes": { type: "boolean" } },
  async run(args) {
    const planArg = stringOption(args, "check");
    if (args.values["issue-codes"]) {
      if (planArg !== undefined) {
        return usageFailure(args.values.json === true, '"--check" and "--issue-codes" exclude each other');
      }
      return printIssueCodes(args.values.json === true);
    }
    if (planArg === undefined) {
      printJson(planJsonSchema());
      return EXIT.ok;
    }
    const { plan, issues } = parsePlanText(await readInput(planArg));
    const errors = issues.filter((issue) => issue.severity === "error");
    const warnings = issues.filter((issue) => issue.severity === "warning");
    if (args.values.json) {
      printJson({ passed: plan !== undefined, errors, warnings });
    } else {
      for (const issue of issues) console.error(formatIssue(issue));
      if (plan) console.log(`Plan is valid: ${plan.steps.length} step(s)`);
    }
    return plan ? EXIT.ok : EXIT.rejected;
  },
};

function printIssueCodes(json: boolean): number {
  if (json) {
    printJson(ISSUE_CODES);
    return EXIT.ok;
  }
  const width = Math.max(...Object.keys(ISSUE_CODES).map((code) => code.length));
  writeLine(
    Object.entries(ISSUE_CODES).map(([code, meaning]) => `${code.padEnd(width)}  ${meaning}`).join("\n"),
  );
  return EXIT.ok;
}

export default command;
