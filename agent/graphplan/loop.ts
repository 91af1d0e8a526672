/**
 * The step every phase is made of: check the limits, ask the model, run the
 * commands it called, answer each call with its output, save the
 * trajectory. Leaving the loop is an exception carrying why (common/run_end.ts): the model
 * submitted ({@linkcode Submitted}) or a limit ran out
 * ({@linkcode LimitsExceeded}); model errors (bad key, context window) pass
 * through with their own exit status.
 *
 * @module
 */

import type { Config } from "../config.ts";
import { type Environment, type ExecResult, truncateOutput } from "../env/mod.ts";
import type { Message, Model } from "../model/mod.ts";
import { renderTemplate } from "../template.ts";
import type { Trajectory } from "../trajectory/mod.ts";
import { findSubmission, isSubmitCommand } from "./extract.ts";
import type { StepProgress } from "../common/strategy.ts";
import {
  exceededLimit,
  FormatErrorLimit,
  Interrupted,
  LimitsExceeded,
  Submitted,
} from "../common/run_end.ts";

/** Output kept from one command before the observation is cut: a submitted patch must arrive whole. */
export const FULL_OUTPUT_LIMIT = 50_000_000;

/** What one step produced. */
export interface StepResult {
  /** The model's text. */
  content: string;
  /** Each command's raw output, in order. */
  outputs: string[];
  /** Set when the turn was a format error (nothing ran). */
  formatError?: string;
}

/** Everything a step needs. */
export interface LoopDeps {
  model: Model;
  env: Environment;
  config: Config;
  trajectory: Trajectory;
  /** Milliseconds now (tests may fake it). */
  now?: () => number;
  /** Called after every step. */
  onStep?: (progress: StepProgress) => void;
  /**
   * Checks a submission before it ends the run: null accepts it; a text
   * refuses it, is shown to the model, and the loop goes on.
   */
  checkSubmission?: (submission: string) => Promise<string | null>;
  /**
   * Computes the submission when the model submits (the run's own patch,
   * `common/baseline.ts`): a command that starts by echoing the marker is then not
   * run, and any other command's output after the marker is not used.
   * Without it the submission is the output after the marker line.
   */
  patch?: () => Promise<string>;
  /** Aborted when the run must stop (its reason says why): the loop then throws {@linkcode Interrupted}. */
  stop?: AbortSignal;
}

/** The conversation and its steps. */
export class StepLoop {
  readonly model: Model;
  readonly env: Environment;
  readonly config: Config;
  readonly trajectory: Trajectory;
  readonly #now: () => number;
  readonly #started: number;
  readonly #onStep?: (progress: StepProgress) => void;
  readonly #checkSubmission?: (submission: string) => Promise<string | null>;
  readonly #stop?: AbortSignal;
  readonly #patch?: () => Promise<string>;
  #formatErrors = 0;

  constructor(deps: LoopDeps) {
    this.model = deps.model;
    this.env = deps.env;
    this.config = deps.config;
    this.trajectory = deps.trajectory;
    this.#now = deps.now ?? Date.now;
    this.#started = this.#now();
    this.#onStep = deps.onStep;
    this.#checkSubmission = deps.checkSubmission;
    this.#stop = deps.stop;
    this.#patch = deps.patch;
  }

  /** Throw {@linkcode Interrupted} when the run was asked to stop. */
  checkStop(): void {
    if (this.#stop?.aborted) {
      throw new Interrupted(`interrupted by ${String(this.#stop.reason ?? "a signal")}`);
    }
  }

  /** The conversation so far (the trajectory's messages). */
  get messages(): Message[] {
    return this.trajectory.messages;
  }

  /** Render the template `name` from the config. */
  render(name: keyof Config["templates"], vars: Record<string, unknown>): string {
    return renderTemplate(this.config.templates[name], vars, { name: `templates.${name}` });
  }

  /** Append a message tagged with `phase`. */
  add(role: Message["role"], content: string, phase: string, extra: Partial<Message> = {}): void {
    this.trajectory.add({ role, content, ...extra, extra: { phase, ...extra.extra } });
  }

  /** Throw {@linkcode LimitsExceeded} when a limit has run out. */
  checkLimits(): void {
    const reason = exceededLimit(this.config.agent, this.model.stats, (this.#now() - this.#started) / 1000);
    if (reason) throw new LimitsExceeded(reason);
  }

  /** One model turn and the commands it called. */
  async step(phase: string): Promise<StepResult> {
    this.checkStop();
    this.checkLimits();
    let response;
    try {
      response = await this.model.query(this.messages, { signal: this.#stop });
    } catch (err) {
      this.checkStop();
      throw err;
    }
    this.trajectory.add({ ...response.message, extra: { phase, cost: response.cost } });
    const calls = response.message.tool_calls ?? [];
    this.#onStep?.({
      phase,
      step: this.model.stats.calls,
      cost: this.model.stats.cost,
      commands: response.actions.map((action) => action.command),
    });
    if (response.formatError) {
      this.#formatErrors++;
      const limit = this.config.agent.max_format_errors;
      if (limit > 0 && this.#formatErrors >= limit) {
        await this.trajectory.save();
        throw new FormatErrorLimit(
          `${this.#formatErrors} answers in a row could not be acted on; the last: ${response.formatError}`,
        );
      }
      const text = this.render("format_error", {
        error: response.formatError,
        submit_marker: this.config.agent.submit_marker,
      });
      if (calls.length === 0) this.add("user", text, phase);
      for (const call of calls) this.add("tool", text, phase, { tool_call_id: call.id });
      await this.trajectory.save();
      return { content: response.content, outputs: [], formatError: response.formatError };
    }
    this.#formatErrors = 0;
    const outputs: string[] = [];
    let refusal: string | null = null;
    for (const action of response.actions) {
      if (refusal !== null) {
        this.add("tool", "Not run: an earlier command of this answer submitted.", phase, {
          tool_call_id: action.id,
        });
        continue;
      }
      const timeout = this.config.environment.timeout;
      const result = await this.#run(action.command, timeout);
      const submission = result.timedOut
        ? null
        : findSubmission(result.output, this.config.agent.submit_marker);
      if (submission !== null) {
        this.add("tool", result.output, phase, { tool_call_id: action.id });
        refusal = this.#checkSubmission ? await this.#checkSubmission(submission) : null;
        if (refusal === null) {
          await this.trajectory.save();
          throw new Submitted(submission);
        }
        outputs.push(result.output);
        continue;
      }
      outputs.push(result.output);
      const shown = truncateOutput(result.output, this.config.environment.output_limit);
      const observation = this.render("observation", {
        output: shown.text,
        returncode: result.returncode,
        timed_out: result.timedOut,
        timeout,
        truncated: shown.truncated || (result.truncated ?? false),
      });
      this.add("tool", observation, phase, { tool_call_id: action.id });
    }
    if (refusal !== null) this.add("user", refusal, phase);
    await this.trajectory.save();
    return { content: response.content, outputs };
  }

  /**
   * Run one command. With a patch source, a submission's output is the
   * marker line and the run's own patch; a command that starts by echoing
   * the marker is not run. When the patch cannot be computed the command's
   * own output stands (the error is kept as `info.patch_error`).
   */
  async #run(command: string, timeout: number): Promise<ExecResult> {
    const marker = this.config.agent.submit_marker;
    const execute = () => this.env.execute(command, { timeout, outputLimit: FULL_OUTPUT_LIMIT });
    if (!this.#patch) return await execute();
    const intercepted = isSubmitCommand(command, marker);
    const result = intercepted ? { output: marker, returncode: 0, timedOut: false } : await execute();
    if (result.timedOut || findSubmission(result.output, marker) === null) return result;
    try {
      return { ...result, output: `${marker}\n${await this.#patch()}` };
    } catch (err) {
      this.trajectory.info.patch_error = (err as Error).message;
      return intercepted ? await execute() : result;
    }
  }

  /** Steps until the model submits or a limit runs out. */
  async untilSubmitted(phase: string): Promise<never> {
    for (;;) await this.step(phase);
  }
}
