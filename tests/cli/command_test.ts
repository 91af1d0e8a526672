/**
 * What every command shares (cli/command.ts, main.ts), seen the way a user
 * meets it: an input file that cannot be read is named with a plain reason
 * and where it was looked for, and a mistyped command or option is still
 * one JSON document under `--json`.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { readInput } from "../../cli/command.ts";
import { IssueError } from "../../engine/base/issue.ts";
import { runCli } from "../_support/cli.ts";
import { slow } from "../_support/quick.ts";

const SLOW = slow("tests that start processes (the CLI, a helper, pytest, podman, the bundle)");

/** The issue `readInput(arg)` refuses with. */
async function unreadable(arg: string) {
  const err = await readInput(arg).then(() => undefined, (e) => e);
  assert.ok(err instanceof IssueError, `readInput(${JSON.stringify(arg)}) did not refuse with an issue`);
  assert.equal(err.issues.length, 1);
  return err.issues[0];
}

Deno.test("readInput: a missing file or a directory is named with a plain reason, no OS error text", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "graphplan_input_" });
  const missing = await unreadable(join(dir, "plan.json"));
  assert.equal(missing.code, "input-unreadable");
  assert.equal(missing.message, `Cannot read "${join(dir, "plan.json")}": no such file`);
  assert.doesNotMatch(JSON.stringify(missing), /os error|readfile/);
  const folder = await unreadable(dir);
  assert.equal(folder.message, `Cannot read "${dir}": it is a directory`);
  Deno.removeSync(dir, { recursive: true });
});

Deno.test(
  "a relative input path is read from the current directory, and the hint says so",
  SLOW,
  async () => {
    const repo = Deno.makeTempDirSync({ prefix: "graphplan_input_repo_" });
    const cwd = Deno.makeTempDirSync({ prefix: "graphplan_input_cwd_" });
    await Deno.writeTextFile(join(repo, "plan.json"), "[]");
    const run = await runCli(["verify", "--repo", repo, "plan.json", "--json"], { cwd });
    assert.equal(run.code, 1);
    const [issue] = run.json.errors;
    assert.equal(issue.message, 'Cannot read "plan.json": no such file');
    assert.equal(issue.hint, `relative paths are read from the current directory "${cwd}", not from --repo`);
    Deno.removeSync(repo, { recursive: true });
    Deno.removeSync(cwd, { recursive: true });
  },
);

Deno.test(
  "usage errors exit 2 with the reason on stderr, and under --json as one JSON document",
  SLOW,
  async () => {
    const unknownOption = await runCli(["verify", "plan.json", "--bogus", "--json"]);
    assert.equal(unknownOption.code, 2);
    assert.match(unknownOption.stderr, /^graphplan: Unknown option '--bogus'\nRun with --help for usage\n$/);
    assert.equal(unknownOption.json?.success, false, `stdout: ${JSON.stringify(unknownOption.stdout)}`);
    assert.deepEqual(unknownOption.json.errors.map((i: { code: string }) => i.code), ["usage-error"]);
    const missingPlan = await runCli(["apply", "--json"]);
    assert.equal(missingPlan.code, 2);
    assert.match(missingPlan.json.errors[0].message, /^Missing the PLAN argument/);
    const unknownCommand = await runCli(["verfy", "plan.json", "--json"]);
    assert.equal(unknownCommand.code, 2);
    assert.match(
      unknownCommand.stderr,
      /^graphplan: Unknown command "verfy"\nCommands: graph, locate, verify/,
    );
    assert.equal(unknownCommand.json.errors[0].message, 'Unknown command "verfy"');
    const text = await runCli(["apply", "--bogus", "plan.json"]);
    assert.equal(text.code, 2);
    assert.equal(text.stdout, "", "without --json stdout stays empty");
  },
);
