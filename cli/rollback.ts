/**
 * `graphplan rollback`: restore the files of an interrupted plan from its
 * journal.
 *
 * @module
 */

import { type Command, EXIT, printIssues, printJson, stringOption } from "./command.ts";
import { Workspace } from "../engine/workspace.ts";
import { rollbackRepository } from "../engine/exec/journal.ts";

const command: Command = {
  name: "rollback",
  summary: "Restore the files of an interrupted or failed plan from the journal",
  usage: "[--repo DIR] [--force] [--json]",
  help: `
Finds the journal of the repository (kept outside it, under
$XDG_STATE_HOME/graphplan/ or ~/.local/state/graphplan/) left by a plan that
did not finish (the process was killed, the machine went down) and puts every
file back, byte for byte, with its mode. Without a journal there is nothing to
do (exit 0).

A file whose bytes are neither its original nor a version GraphPlan wrote was
changed by someone else since: it is reported as a conflict and left alone,
and the journal is kept, unless --force restores the original anyway.

Options:
  --repo DIR   repository root (default: .)
  --force      restore conflicting files too
  --json       print {success, nothing_to_do, restored, errors, warnings}`,
  options: { force: { type: "boolean" } },
  async run(args) {
    const workspace = Workspace.open(stringOption(args, "repo", "."));
    const report = await rollbackRepository(workspace, { force: args.values.force === true });
    if (args.values.json === true) {
      printJson(report);
    } else if (report.nothing_to_do) {
      console.log(`Nothing to roll back: no pending journal for "${workspace.root}"`);
    } else {
      if (report.restored.length > 0) {
        console.log(`Restored ${report.restored.length} file(s): ${report.restored.join(", ")}`);
      } else if (report.success) {
        console.log("Every file already had its original bytes; journal cleared");
      }
      printIssues([...report.warnings, ...report.errors]);
    }
    return report.success ? EXIT.ok : EXIT.rejected;
  },
};

export default command;
