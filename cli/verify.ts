/**
 * `graphplan verify PLAN`: check an edit plan without writing anything (seed
 * 002 layers 0–6, with the edit levels L0–L6 on every simulated step).
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
import type { Issue } from "../engine/base/issue.ts";
import { DocumentStore } from "../engine/parse/documents.ts";
import { Workspace } from "../engine/workspace.ts";
import { parsePlanText } from "../engine/plan/mod.ts";
import { verifyPlan, type VerifyResult } from "../engine/verify/mod.ts";
import { withBudget } from "../engine/base/budget.ts";
import { BOUND_HELP, BOUND_OPTIONS, configureBounds } from "./bounds.ts";
import { Compilers } from "../engine/verify/compile/mod.ts";
import { STRICT_HELP, STRICT_OPTIONS, strictFromArgs } from "./strict.ts";

const command: Command = {
  name: "verify",
  summary: "Verify an edit plan in memory (layers 0-6, levels L0-L6); write nothing",
  usage: "PLAN [--repo DIR] [--strict] [--json] [--timeout SECONDS] [--limit KEY=N]...",
  help: `
PLAN is a plan file (JSON) or - for stdin. The whole plan is simulated in
memory, each step against the files as the earlier steps left them: a plan
that adds an import and then uses it verifies. Nothing on disk changes.
Every problem of every step is reported (after a failing step the later
steps are checked against the last good state).

Plan-level layers (seed 002): 0 schema, files, symbols, line bounds;
0b locators resolve; 1 content exists (near misses warn); 2 line drift
(warning); 3 pattern inside a string or comment (warning); 4 renamed name
in strings/comments (warning); 5 syntax of the simulated result; 6 changed
symbols imported by files outside the plan (warning). The edit levels
L0-L6 run on every simulated step as they do when executing. Where python3
(or node) is on PATH, the simulated result of every changed Python (or
JavaScript) file is also compiled with it; "compiled" in the JSON says with
what (null: no interpreter was used).

Options:
  --repo DIR   repository root (default: .)
${STRICT_HELP}
  --json       print {passed, errors, warnings, compiled} as JSON
${BOUND_HELP}

Exit codes: 0 passed, 1 not passed (errors found), 2 usage error,
3 internal error.

Examples:
  graphplan verify plan.json --repo .
  cat plan.json | graphplan verify - --json`,
  options: { ...STRICT_OPTIONS, ...BOUND_OPTIONS },
  async run(args) {
    configureBounds(args);
    const [planArg, ...extra] = args.positionals;
    if (!planArg) throw new UsageError("Missing the PLAN argument (a file, or - for stdin)");
    if (extra.length > 0) {
      throw new UsageError(`Unexpected arguments: ${extra.map((a) => `"${a}"`).join(" ")}`);
    }
    const json = args.values.json === true;
    const strict = strictFromArgs(args);
    const workspace = Workspace.open(stringOption(args, "repo", "."));
    const text = await readInput(planArg);
    let result: VerifyResult;
    const compilers = new Compilers();
    try {
      const plan = JSON.parse(text);
      result = await withBudget(
        undefined,
        () => verifyPlan(new DocumentStore(workspace), plan, { compilers, strict }),
      );
    } catch (err) {
      if (!(err instanceof SyntaxError)) throw err;
      // parsePlanText words the problem (with what a plan looks like).
      const errors = parsePlanText(text).issues.map((issue): Issue => ({ ...issue, layer: "0" }));
      result = { passed: false, errors, warnings: [], compiled: null };
    } finally {
      await compilers.close();
    }
    if (json) {
      printJson({
        passed: result.passed,
        errors: result.errors,
        warnings: result.warnings,
        compiled: result.compiled ?? null,
      });
    } else {
      printIssues([...result.errors, ...result.warnings]);
      const summary = `${result.passed ? "Plan verified" : "Plan failed verification"}: ${
        count(result.errors.length, "error")
      }, ${count(result.warnings.length, "warning")}`;
      if (result.passed) console.log(summary);
      else console.error(summary);
    }
    return result.passed ? EXIT.ok : EXIT.rejected;
  },
};

function count(n: number, what: string): string {
  return `${n} ${what}${n === 1 ? "" : "s"}`;
}

export default command;
