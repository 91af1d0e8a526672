/**
 * `graphplan schema [--json] [--check PLAN]`: the JSON Schema of edit plans,
 * or the structural check of one plan against it.
 *
 * @module
 */

import { formatIssue } from "../engine/issue.ts";
import { parsePlanText, planJsonSchema } from "../engine/plan/mod.ts";
import { type Command, EXIT, printJson, readInput, stringOption } from "./command.ts";

const command: Command = {
  name: "schema",
  summary: "Print the JSON Schema of edit plans",
  usage: "[--json] [--check PLAN]",
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

Options:
  --json         print JSON (the schema, or the check's report)
  --check PLAN   check a plan file (or - for stdin) instead of printing the schema

Exit codes: 0 schema printed or plan valid; 1 the plan is invalid; 2 usage error.

Examples:
  graphplan schema > plan.schema.json
  graphplan schema --check plan.json
`,
  options: { check: { type: "string" } },
  async run(args) {
    const planArg = stringOption(args, "check");
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

export default command;
