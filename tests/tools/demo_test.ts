/**
 * `deno task demo` prints the plan the model wrote in full (pretty JSON,
 * the same plan as the scripted model's heredoc) and its verification
 * result, not only the cut-off first line of the command that wrote it.
 *
 * @module
 */

import assert from "node:assert/strict";
import { parse } from "yaml";
import { planReport } from "../../tools/demo_report.ts";
import { skipReason } from "../_support/skips.ts";
import { slow } from "../_support/quick.ts";

const SLOW = slow("tests that start processes (the CLI, a helper, pytest, podman, the bundle)");

const ROOT = new URL("../../", import.meta.url).pathname;

function gitSkip(): string | undefined {
  try {
    if (new Deno.Command("git", { args: ["--version"] }).outputSync().success) return undefined;
  } catch { /* not installed */ }
  return skipReason("git not found on PATH");
}

/** The plan the scripted demo model writes, read from its heredoc in config/demo/scripted_run.yaml. */
async function scriptedPlan(): Promise<unknown> {
  const script = parse(await Deno.readTextFile(`${ROOT}config/demo/scripted_run.yaml`)) as {
    command?: string;
  }[];
  const command = script.map((turn) => turn.command ?? "").find((text) => text.includes("PLAN_EOF"))!;
  return JSON.parse(/'PLAN_EOF'\n([\s\S]*?)\nPLAN_EOF/.exec(command)![1]);
}

Deno.test({
  name: "demo: the plan is printed in full and pretty, followed by its verification result",
  ignore: gitSkip() !== undefined || SLOW.ignore,
  async fn() {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "tools/demo.ts"],
      cwd: ROOT,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 0, text);
    const start = text.indexOf("demo: the plan of attempt 1 (from the file):\n");
    assert.ok(start >= 0, text);
    const after = text.slice(start).split("\n").slice(1);
    const end = after.findIndex((line) => line.startsWith("demo: verification"));
    const printed = after.slice(0, end).join("\n");
    assert.deepEqual(JSON.parse(printed), await scriptedPlan());
    assert.ok(printed.split("\n").length > 10, "pretty-printed over several lines");
    assert.equal(after[end], "demo: verification passed (verify_plan): 0 errors, 0 warnings");
  },
});

Deno.test("planReport: each attempt with its verification, issues listed; no plan said so", () => {
  const plan = [{ op: "delete_node", params: { locator: { file: "a.py", kind: "import", name: "os" } } }];
  const issue = { code: "locator-not-found", severity: "error" as const, message: 'no import "os"', step: 0 };
  const lines = planReport([
    { name: "plan", status: "done", started_at: "", attempt: 1, source: "file", plan },
    {
      name: "verify",
      status: "failed",
      started_at: "",
      attempt: 1,
      method: "verify_plan",
      errors: [issue],
      warnings: [],
    },
    { name: "plan", status: "done", started_at: "", attempt: 2, source: "recent messages", plan },
  ]);
  assert.deepEqual(lines, [
    "demo: the plan of attempt 1 (from the file):",
    JSON.stringify(plan, null, 2),
    "demo: verification failed (verify_plan): 1 error, 0 warnings",
    'error[locator-not-found] no import "os" (step 0)',
    "demo: the plan of attempt 2 (from the recent messages):",
    JSON.stringify(plan, null, 2),
    "demo: it was not verified",
  ]);
  assert.deepEqual(planReport([]), ["demo: the model wrote no plan"]);
});
