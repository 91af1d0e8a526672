/**
 * A helper for the EXECUTE fallback test: the real `graphplan helper`, except
 * that `execute_plan` without `dry_run` answers as a plan that failed and was
 * rolled back (nothing is written), so verification (a dry run) passes and
 * execution fails every time. Started through `environment.helper_command`.
 *
 * @module
 */

import { METHODS } from "../../engine/helper/methods.ts";
import { main } from "../../main.ts";

const real = METHODS.execute_plan;
METHODS.execute_plan = (params, session) => {
  if (params.dry_run === true) return real(params, session);
  return Promise.resolve({
    success: false,
    rolled_back: true,
    failed_step: 0,
    errors: [{
      code: "write-failed",
      severity: "error",
      message: 'Cannot write "app/service.py": injected failure',
      step: 0,
    }],
    warnings: [],
    files_changed: [],
    outputs: [],
  });
};

if (import.meta.main) Deno.exit(await main(["helper", ...Deno.args]));
