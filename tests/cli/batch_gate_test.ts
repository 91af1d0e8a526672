/** A batch protects the benchmark: its gate refuses test weakening unless told to only report. */

import assert from "node:assert/strict";
import batch from "../../cli/batch.ts";
import { parseCommandArgs, UsageError } from "../../cli/command.ts";
import { batchConfig, checkBatchOptions } from "../../cli/batch_options.ts";

const args = (...argv: string[]) => parseCommandArgs(batch, ["--subset", "lite", ...argv]);

Deno.test("batch: the gate refuses by default, --gate report only records, -c gate.mode is honoured", async () => {
  assert.equal((await batchConfig(args())).gate.mode, "refuse");
  assert.equal((await batchConfig(args("--strategy", "rfsn"))).gate.mode, "refuse");
  assert.equal((await batchConfig(args("--gate", "report"))).gate.mode, "report");
  assert.equal((await batchConfig(args("-c", "gate.mode=report"))).gate.mode, "report");
  // The option is the last word over -c.
  assert.equal((await batchConfig(args("-c", "gate.mode=report", "--gate", "refuse"))).gate.mode, "refuse");
  assert.throws(() => checkBatchOptions(args("--gate", "warn")), (err: unknown) => {
    assert.ok(err instanceof UsageError);
    assert.equal(err.message, 'Unknown gate mode "warn": use refuse or report');
    return true;
  });
});
