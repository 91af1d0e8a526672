/**
 * Subprocess for the fault trials: rolls back a repository's pending
 * journal with the real journal code, so a trial can kill it with SIGKILL
 * part-way. Prints `graphplan-test: ready` on stderr just before it starts
 * and the rollback report on stdout.
 *
 * Usage: deno run -A _rollback_runner.ts REPO
 *
 * @module
 */

import { rollbackRepository } from "../../../engine/exec/journal.ts";
import { Workspace } from "../../../engine/workspace.ts";

const workspace = Workspace.open(Deno.args[0]);
await Deno.stderr.write(new TextEncoder().encode("graphplan-test: ready\n"));
console.log(JSON.stringify(await rollbackRepository(workspace)));
