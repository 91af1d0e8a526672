/**
 * `formatIssue`, the one line a person reads for an issue: the step is
 * said once, whether the message already opens with it or not.
 */

import assert from "node:assert/strict";
import { formatIssue } from "../../engine/base/issue.ts";
import { runCli } from "../_support/cli.ts";
import { slow } from "../_support/quick.ts";

const SLOW = slow("tests that start processes (the CLI, a helper, pytest, podman, the bundle)");

Deno.test("formatIssue: the step is named once, at the end unless the message opens with it", () => {
  const base = {
    code: "file-not-found" as const,
    severity: "error" as const,
    file: "app/service.py",
    step: 2,
  };
  assert.equal(
    formatIssue({ ...base, message: 'Step 2 (replace_expression): File "app/service.py" does not exist' }),
    'error[file-not-found] app/service.py: Step 2 (replace_expression): File "app/service.py" does not exist',
  );
  assert.equal(
    formatIssue({ ...base, message: 'File "app/service.py" does not exist' }),
    'error[file-not-found] app/service.py: File "app/service.py" does not exist (step 2)',
  );
  // "Step 12" is not "Step 1": only the same step is left out.
  assert.match(formatIssue({ ...base, step: 1, message: "Step 12: Unknown operator 'x'" }), /\(step 1\)$/);
});

Deno.test(
  "graphplan verify: a misspelt locator name on the sample project names step 0 once",
  SLOW,
  async () => {
    const repo = new URL("../fixtures/sample_project", import.meta.url).pathname;
    const plan = [{
      template: "replace_expression",
      params: {
        target: {
          file: "app/service.py",
          kind: "attribute",
          name: "discont",
          parent: { kind: "method", name: "order_total" },
        },
        expression: 'order.customer.discount or Decimal("0")',
      },
    }];
    const run = await runCli(["verify", "--repo", repo, "-"], { stdin: JSON.stringify(plan) });
    assert.equal(run.code, 1);
    const first = run.stderr.split("\n")[0];
    assert.match(
      first,
      /^error\[locator-not-found\]\[layer 0b\] app\/service\.py: Step 0 \(replace_expression\): /,
    );
    assert.equal(first.match(/step 0/gi)?.length, 1, first);
  },
);
