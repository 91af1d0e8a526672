/**
 * Subprocess for the crash tests: executes a plan of test steps (see
 * `_test_operator.ts`) with the real executor and journal, so the test can
 * kill it with SIGKILL at a chosen write (GRAPHPLAN_TEST_PAUSE_AFTER_WRITE).
 *
 * Usage: deno run -A _fault_runner.ts REPO PLAN_FILE
 *
 * @module
 */

import { DocumentStore } from "../../../engine/parse/documents.ts";
import { Workspace } from "../../../engine/workspace.ts";
import { executePlan } from "../../../engine/exec/execute.ts";
import { runTestStep } from "./_test_operator.ts";

const [repo, planFile] = Deno.args;
const steps = JSON.parse(Deno.readTextFileSync(planFile));
const result = await executePlan(new DocumentStore(Workspace.open(repo)), steps, { runStep: runTestStep });
console.log(JSON.stringify(result));
