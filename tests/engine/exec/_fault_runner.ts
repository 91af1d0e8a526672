/**
 * Subprocess for the crash tests: executes a plan of test steps (see
 * `_test_operator.ts`) with the real executor and journal, so the test can
 * kill it with SIGKILL at a chosen write (GRAPHPLAN_TEST_PAUSE_AFTER_WRITE).
 *
 * Usage: deno run -A _fault_runner.ts REPO PLAN_FILE
 *
 * Prints `graphplan-test: ready` on stderr once its modules are loaded,
 * just before the plan starts (the fault trials time their kills from it).
 *
 * @module
 */

import { DocumentStore } from "../../../engine/parse/documents.ts";
import { Workspace } from "../../../engine/workspace.ts";
import { executePlan } from "../../../engine/exec/execute.ts";
import { IssueError } from "../../../engine/base/issue.ts";
import { runTestStep } from "./_test_operator.ts";

const [repo, planFile] = Deno.args;
const steps = JSON.parse(Deno.readTextFileSync(planFile));
await Deno.stderr.write(new TextEncoder().encode("graphplan-test: ready\n"));
try {
  const result = await executePlan(new DocumentStore(Workspace.open(repo)), steps, { runStep: runTestStep });
  console.log(JSON.stringify(result));
} catch (err) {
  // A plan refused before it started (`journal-busy`, `journal-pending`), as `apply --json` reports it.
  if (!(err instanceof IssueError)) throw err;
  console.log(JSON.stringify({ success: false, rolled_back: false, errors: err.issues }));
}
