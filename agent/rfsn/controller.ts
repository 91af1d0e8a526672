/**
 * The controller: carries out a proposal the gate accepted, through the
 * task's environment and the GraphPlan helper, and reports what happened.
 *
 * - `run_tests`: the configured test command with the node ids (or paths)
 *   quoted in place of `{{tests}}`; the output's evidence and the number of
 *   failed tests (pytest's and unittest's summaries; a failing exit with no
 *   summary counts as one failure). A run that says nothing about the tests
 *   (`testCommandProblem`: the command not found or not executable,
 *   pytest not installed, pytest's usage error or nothing collected) is
 *   not a failure: its feedback has `not_run` and no failed tests.
 * - `read_file`: the file (or its lines), cut to `read_limit` characters.
 * - `search_repo`: the Python files that contain the pattern (`grep -rlF`).
 * - `edit_file`: the change becomes a verified plan (`edit.ts`: a plan as
 *   it is, a unified diff lifted by the helper) and runs through the
 *   helper's `execute_plan`, one transaction: a failed step leaves every
 *   file as it was. Before it runs, the bytes of the files it will change
 *   are recorded (`pre_image.ts`); `revertEdits()` undoes the edits made so
 *   far, newest first, by writing those bytes back (the helper's journal is
 *   committed when a plan succeeds, so it cannot undo a plan that verified
 *   but did not fix the failure). A change that cannot be lifted or
 *   verified is feedback for the planner, with nothing changed on disk.
 *
 * @module
 */

import type { Environment } from "../env/mod.ts";
import { shellQuote } from "../env/shell_quote.ts";
import { BaselineError, changesSince } from "../common/baseline.ts";
import { type Helper, HelperError } from "../common/helper.ts";
import { extractEvidence } from "./evidence.ts";
import type { Feedback } from "./meta_planner.ts";
import type { Proposal } from "./proposal.ts";
import { type EditChange, type PreparedEdit, prepareEdit } from "./edit.ts";
import { type PreImage, recordPreImages, restorePreImages } from "./pre_image.ts";

/** Options of the controller. */
export interface ControllerOptions {
  /** The test command with `{{tests}}` where the tests go. */
  testCommand: string;
  /** Characters of a file returned by `read_file`. */
  readLimit: number;
  /** The helper (started on first use). */
  helper: () => Promise<Helper>;
  /** Warning codes that fail an edit's verification (the helper's `strict`); none by default. */
  strict?: readonly string[];
  /** The tree the submission is diffed from (the run's baseline, `snapshotTree`); `HEAD` by default. */
  baseline?: string;
}

/** Failed tests from a pytest or unittest summary, or null when there is none. */
export function countFailures(output: string): number | null {
  const pytest =
    /=+ (.*\b(?:passed|failed|error|errors|skipped|xfailed|deselected|no tests ran)\b.*) in [\d.]+s/
      .exec(output) ?? /^(\d+ (?:passed|failed).*) in [\d.]+s/m.exec(output);
  if (pytest) {
    const count = (word: string) => Number(new RegExp(`(\\d+) ${word}`).exec(pytest[1])?.[1] ?? 0);
    return count("failed") + count("errors?");
  }
  const unit = /^FAILED \((.*)\)$/m.exec(output);
  if (unit) {
    return [...unit[1].matchAll(/(?:failures|errors)=(\d+)/g)].reduce((sum, m) => sum + Number(m[1]), 0);
  }
  if (/^OK\b/m.test(output) && /^Ran \d+ tests?/m.test(output)) return 0;
  return null;
}

/**
 * Why a test command's run says nothing about the tests, or null when it
 * does: exit 127 or 126 (the shell could not find or execute the command),
 * a shell's "not found" with no test summary, pytest missing, or pytest's
 * own exit 4 (usage error, e.g. a test path that does not exist) or 5 (no
 * tests collected). pytest's 1 (tests failed) and 2 (interrupted, e.g. a
 * test module that fails to import) are results.
 */
export function testCommandProblem(
  command: string,
  run: { returncode: number; output: string },
): string | null {
  const { returncode, output } = run;
  if (returncode === 0) return null;
  if (returncode === 127) return "the command was not found (exit 127)";
  if (returncode === 126) return "the command is not executable (exit 126)";
  if (countFailures(output) === null || /\bno tests ran\b/.test(output)) {
    if (/No module named pytest\b/.test(output)) return `pytest is not installed (exit ${returncode})`;
    if (/(?:command not found|: not found|: Permission denied)\s*$/m.test(output.slice(0, 2000))) {
      return `the command could not be started (exit ${returncode})`;
    }
  }
  const pytest = command.includes("pytest") || /\bno tests ran\b/.test(output);
  if (pytest && returncode === 4) {
    return "pytest's usage error (exit 4): a bad option or a test path that does not exist";
  }
  if (pytest && returncode === 5) return "pytest collected no tests (exit 5)";
  return null;
}

/** Executes accepted proposals. */
export class Controller {
  readonly env: Environment;
  readonly options: ControllerOptions;
  /** Files the edits changed, in order (for the final diff). */
  readonly filesChanged: string[] = [];
  /** The pre-images of the edits applied, oldest first. */
  #applied: PreImage[][] = [];

  constructor(env: Environment, options: ControllerOptions) {
    this.env = env;
    this.options = options;
  }

  /**
   * Make an `edit_file` change into the verified plan it would run (a diff
   * lifted, then the helper's dry run), or say why it cannot be; nothing is
   * written. Passing the result to `execute` runs that plan without lifting
   * or preparing it again.
   */
  async prepare(change: EditChange): Promise<{ edit: PreparedEdit } | { problems: string[] }> {
    const helper = await this.#helper();
    if ("unavailable" in helper) return { problems: [helper.unavailable] };
    return await prepareEdit(helper, change, { strict: this.options.strict });
  }

  /**
   * Carry out `proposal` and report. For an edit, `options.edit` is what
   * `prepare` made of this proposal's change in the same state of the
   * repository; without it the change is prepared here.
   */
  async execute(proposal: Proposal, options: { edit?: PreparedEdit } = {}): Promise<Feedback> {
    const action = proposal.action;
    switch (action.type) {
      case "run_tests": {
        const tests = action.tests.map(shellQuote).join(" ");
        const command = action.command ?? this.options.testCommand.replace("{{tests}}", tests);
        const run = await this.env.execute(command);
        const problem = run.timedOut ? null : testCommandProblem(command, run);
        if (problem) {
          return {
            proposal,
            success: false,
            tests_failed: null,
            not_run: problem,
            output: `The test command could not run, so there is no test result: ${problem}: "${command}"\n${
              excerpt(run.output)
            }`,
          };
        }
        const counted = countFailures(run.output);
        const failed = counted ?? (run.returncode === 0 ? 0 : 1);
        return {
          proposal,
          success: !run.timedOut,
          tests_failed: failed,
          output: excerpt(run.output),
          evidence: extractEvidence(run.output, this.env.cwd),
        };
      }
      case "read_file": {
        const range = action.start_line !== null
          ? `sed -n ${shellQuote(`${action.start_line},${action.end_line ?? "$"}p`)} ${
            shellQuote(action.path)
          }`
          : `cat ${shellQuote(action.path)}`;
        const read = await this.env.execute(range, { outputLimit: this.options.readLimit });
        return { proposal, success: read.returncode === 0, tests_failed: null, output: read.output };
      }
      case "search_repo": {
        const where = shellQuote(action.path ?? ".");
        const found = await this.env.execute(
          `grep -rlIF --include='*.py' -e ${shellQuote(action.pattern)} ${where} | head -n 50`,
        );
        const files = found.output.split("\n").map((l) => l.trim().replace(/^\.\//, "")).filter(Boolean);
        return { proposal, success: true, tests_failed: null, output: found.output, found_files: files };
      }
      case "edit_file":
        return await this.#edit(proposal, options.edit ?? action);
      case "explain_stuck":
        return { proposal, success: true, tests_failed: null, output: action.explanation };
    }
  }

  async #edit(proposal: Proposal, change: EditChange | PreparedEdit): Promise<Feedback> {
    const refused = (output: string): Feedback => ({ proposal, success: false, tests_failed: null, output });
    const helper = await this.#helper();
    if ("unavailable" in helper) return refused(helper.unavailable);
    const prepared = "source" in change
      ? { edit: change }
      : await prepareEdit(helper, change, { strict: this.options.strict });
    if (!("edit" in prepared)) return refused(prepared.problems.join("\n"));
    const { edit } = prepared;
    const images = await recordPreImages(this.env, edit.files);
    if ("error" in images) return refused(`Edit not applied: ${images.error}`);
    const strict = this.options.strict?.length ? { strict: this.options.strict } : {};
    let result: { success: boolean; files_changed: string[]; errors: { message: string }[] };
    try {
      result = await helper.call("execute_plan", { plan: edit.plan, ...strict }) as typeof result;
    } catch (err) {
      if (!(err instanceof HelperError)) throw err;
      return refused(`Edit not applied: the helper refused it: ${err.message}`);
    }
    if (!result.success) {
      return refused(
        `Edit rolled back, nothing changed: ${result.errors.map((e) => e.message).join("; ")}`,
      );
    }
    this.#applied.push(images);
    this.#noteFiles(result.files_changed);
    return {
      proposal,
      success: true,
      tests_failed: null,
      output: `changed ${result.files_changed.join(", ")} (${
        edit.source === "lifted" ? "lifted from the diff" : "plan"
      }: ${edit.tiers.length} step(s), tiers ${edit.tiers.join(", ")})`,
      edit,
    };
  }

  /** The helper, or why there is none (it could not be deployed or started): edits then fail, runs go on. */
  async #helper(): Promise<Helper | { unavailable: string }> {
    try {
      return await this.options.helper();
    } catch (err) {
      return { unavailable: `Edit not applied: the helper is unavailable: ${(err as Error).message}` };
    }
  }

  #noteFiles(files: string[]): void {
    for (const file of files) if (!this.filesChanged.includes(file)) this.filesChanged.push(file);
  }

  /** Undo every edit made so far, newest first, byte for byte (throws when a file cannot be restored). */
  async revertEdits(): Promise<void> {
    while (this.#applied.length > 0) await restorePreImages(this.env, this.#applied.pop()!);
  }

  /**
   * The patch of every edit kept (new files included) from the baseline, as
   * `git diff --binary` prints it, limited to the files the edits changed;
   * "" when git cannot make it. The index is not changed.
   */
  async submission(): Promise<string> {
    if (this.filesChanged.length === 0) return "";
    try {
      return await changesSince(this.env, this.options.baseline ?? "HEAD", { paths: this.filesChanged });
    } catch (err) {
      if (err instanceof BaselineError) return "";
      throw err;
    }
  }
}

function excerpt(output: string): string {
  return output.length <= 4000 ? output : `${output.slice(0, 1000)}\n...\n${output.slice(-3000)}`;
}
