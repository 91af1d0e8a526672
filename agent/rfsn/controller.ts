/**
 * The controller: carries out a proposal the gate accepted, through the
 * task's environment and the GraphPlan helper, and reports what happened.
 *
 * - `run_tests`: the configured test command with the node ids (or paths)
 *   quoted in place of `{{tests}}`; the output's evidence and the number of
 *   failed tests (pytest's and unittest's summaries; a failing exit with no
 *   summary counts as one failure).
 * - `read_file`: the file (or its lines), cut to `read_limit` characters.
 * - `search_repo`: the Python files that contain the pattern (`grep -rlF`).
 * - `edit_file`: a plan runs through the helper's `execute_plan` (verified,
 *   one transaction: a failed step leaves every file as it was); a diff is
 *   checked with `git apply --check`, then applied. `revertEdits()` undoes the
 *   edits made so far, newest first, with `git apply -R` of each edit's diff
 *   (a plan's is its dry run's, taken before it runs: the helper's journal is
 *   committed when a plan succeeds, so it cannot undo a plan that verified
 *   but did not fix the failure).
 *
 * @module
 */

import type { Environment } from "../env/mod.ts";
import { shellQuote } from "../graphplan/deploy.ts";
import type { Helper } from "../graphplan/helper.ts";
import { extractEvidence } from "./evidence.ts";
import type { Feedback } from "./meta_planner.ts";
import type { Proposal } from "./proposal.ts";
import { diffFacts } from "./diff_facts.ts";

/** Options of the controller. */
export interface ControllerOptions {
  /** The test command with `{{tests}}` where the tests go. */
  testCommand: string;
  /** Characters of a file returned by `read_file`. */
  readLimit: number;
  /** The helper (started on first use). */
  helper: () => Promise<Helper>;
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

/** Executes accepted proposals. */
export class Controller {
  readonly env: Environment;
  readonly options: ControllerOptions;
  /** Files the edits changed, in order (for the final diff). */
  readonly filesChanged: string[] = [];
  /** Paths (in the environment) of the diffs of the edits applied, oldest first. */
  #applied: string[] = [];

  constructor(env: Environment, options: ControllerOptions) {
    this.env = env;
    this.options = options;
  }

  /** The unified diff of a plan without writing anything (the helper's dry run), or its problems. */
  async planDiff(plan: unknown): Promise<{ diff: string | null; problems: string[] }> {
    const helper = await this.options.helper();
    const result = await helper.call("execute_plan", { plan, dry_run: true }) as {
      success: boolean;
      diff?: string;
      errors: { message: string }[];
    };
    return result.success
      ? { diff: result.diff ?? "", problems: [] }
      : { diff: null, problems: result.errors.map((e) => e.message) };
  }

  /** Carry out `proposal` and report. */
  async execute(proposal: Proposal): Promise<Feedback> {
    const action = proposal.action;
    switch (action.type) {
      case "run_tests": {
        const tests = action.tests.map(shellQuote).join(" ");
        const command = action.command ?? this.options.testCommand.replace("{{tests}}", tests);
        const run = await this.env.execute(command);
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
        return action.plan !== null ? await this.#executePlan(proposal, action.plan) : await this.#applyDiff(
          proposal,
          action.diff ?? "",
        );
      case "explain_stuck":
        return { proposal, success: true, tests_failed: null, output: action.explanation };
    }
  }

  async #executePlan(proposal: Proposal, plan: unknown): Promise<Feedback> {
    const dry = await this.planDiff(plan);
    if (dry.diff === null) {
      return { proposal, success: false, tests_failed: null, output: dry.problems.join("\n") };
    }
    const saved = await this.#writeDiff(dry.diff);
    if (typeof saved !== "string") {
      return { proposal, success: false, tests_failed: null, output: saved.error };
    }
    const helper = await this.options.helper();
    const result = await helper.call("execute_plan", { plan }) as {
      success: boolean;
      files_changed: string[];
      errors: { message: string }[];
    };
    if (!result.success) {
      return {
        proposal,
        success: false,
        tests_failed: null,
        output: result.errors.map((e) => e.message).join("\n"),
      };
    }
    this.#applied.push(saved);
    this.#noteFiles(result.files_changed);
    return {
      proposal,
      success: true,
      tests_failed: null,
      output: `changed ${result.files_changed.join(", ")}`,
    };
  }

  async #writeDiff(diff: string): Promise<string | { error: string }> {
    const path = `/tmp/graphplan_rfsn_${crypto.randomUUID().slice(0, 8)}.diff`;
    const text = diff.endsWith("\n") ? diff : `${diff}\n`;
    const write = await this.env.execute(
      `cat > ${shellQuote(path)} <<'GRAPHPLAN_DIFF_END'\n${text}GRAPHPLAN_DIFF_END`,
    );
    return write.returncode === 0 ? path : { error: `Cannot write the diff to "${path}": ${write.output}` };
  }

  async #applyDiff(proposal: Proposal, diff: string): Promise<Feedback> {
    const path = await this.#writeDiff(diff);
    if (typeof path !== "string") return { proposal, success: false, tests_failed: null, output: path.error };
    const apply = await this.env.execute(
      `git apply --check ${shellQuote(path)} && git apply ${shellQuote(path)}`,
    );
    if (apply.returncode !== 0) {
      return {
        proposal,
        success: false,
        tests_failed: null,
        output: `git apply refused the diff: ${apply.output}`,
      };
    }
    this.#applied.push(path);
    this.#noteFiles(diffFacts(diff).files);
    return { proposal, success: true, tests_failed: null, output: apply.output };
  }

  #noteFiles(files: string[]): void {
    for (const file of files) if (!this.filesChanged.includes(file)) this.filesChanged.push(file);
  }

  /** Undo every edit made so far, newest first. */
  async revertEdits(): Promise<void> {
    while (this.#applied.length > 0) {
      const path = this.#applied.pop()!;
      const undone = await this.env.execute(`git apply -R ${shellQuote(path)}`);
      if (undone.returncode !== 0) {
        throw new Error(`Cannot undo the edit of "${path}": ${undone.output.trim()}`);
      }
    }
  }

  /** The patch of every edit kept (new files included), as `git diff` prints it. */
  async submission(): Promise<string> {
    if (this.filesChanged.length === 0) return "";
    const files = this.filesChanged.map(shellQuote).join(" ");
    const diff = await this.env.execute(
      `git add -N -- ${files} 2>/dev/null; git -c core.quotepath=off diff --no-color HEAD -- ${files}`,
      { outputLimit: 64 * 1024 * 1024 },
    );
    return diff.returncode === 0 ? diff.output : "";
  }
}

function excerpt(output: string): string {
  return output.length <= 4000 ? output : `${output.slice(0, 1000)}\n...\n${output.slice(-3000)}`;
}
