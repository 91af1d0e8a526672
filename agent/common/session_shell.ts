/**
 * The agent's commands through the helper's open session: an
 * {@linkcode Environment} whose `execute` asks the helper inside the
 * container to run the command (its `shell` method, engine/helper/shell.ts)
 * instead of paying the container runtime's `exec` (~0.2 s) for each one.
 * Everything else (copies, sessions, close) is the wrapped environment's.
 *
 * The helper runs the argv `exec` would run, with the same timeout, output
 * cap, working directory and environment, so a command's result does not say
 * which path it took. `exec` stays the fallback:
 *
 * - the session is gone (the helper died, a plan timed out and killed it),
 *   or refused the request (a helper without `shell`, a command over its
 *   request limit): this command runs as one `exec`, and so do the next ones
 *   until a helper call restarts the session;
 * - the session died after it took the command: the command may have run,
 *   so it is not run again; the model is told its output was lost.
 *
 * Only for containers: with `--env local` the helper is a host process and
 * the environment runs commands itself, so a model's command never reaches a
 * host helper.
 *
 * @module
 */

import {
  ENV_DEFAULTS,
  type Environment,
  type EnvironmentConfig,
  type ExecOptions,
  type ExecResult,
  SessionError,
} from "../env/mod.ts";
import { KILL_AFTER, type ShellResult } from "../../engine/helper/shell.ts";
import { HelperError, type SessionHelper } from "./helper.ts";

/** Seconds the orchestrator waits for the helper's answer beyond the command's own limit and kill. */
const ANSWER_BACKSTOP = 30;

/** How the commands of one run went: through the session or by `exec`. */
export interface ShellCounts {
  session: number;
  exec: number;
  /** Commands the session took and died on. */
  lost: number;
}

/** An environment that is `env` except that commands go through `helper`'s session. */
export interface SessionShellEnvironment extends Environment {
  readonly counts: ShellCounts;
}

/** `env` with its commands run by `helper` (`env` itself when it is `local`). */
export function sessionShell(
  env: Environment,
  helper: SessionHelper,
  config: Pick<EnvironmentConfig, "timeout" | "output_limit">,
): SessionShellEnvironment {
  const counts: ShellCounts = { session: 0, exec: 0, lost: 0 };
  const viaExec = (command: string, options?: ExecOptions) => {
    counts.exec += 1;
    return env.execute(command, options);
  };
  const execute = async (command: string, options: ExecOptions = {}): Promise<ExecResult> => {
    if (env.type === "local" || !helper.alive) return await viaExec(command, options);
    const seconds = options.timeout ?? config.timeout ?? ENV_DEFAULTS.timeout;
    const params = {
      command,
      time_limit: seconds,
      cwd: containerPath(env.cwd, options.cwd),
      env: options.env ?? {},
      unset: helper.ownEnv,
      output_limit: options.outputLimit ?? config.output_limit ?? ENV_DEFAULTS.output_limit,
    };
    let result: ShellResult;
    try {
      result = await helper.send("shell", params, seconds + KILL_AFTER + ANSWER_BACKSTOP) as ShellResult;
    } catch (err) {
      const refused = err instanceof HelperError && err.issues.length > 0;
      if (refused || (err instanceof SessionError && !err.delivered)) return await viaExec(command, options);
      if (!(err instanceof SessionError || err instanceof HelperError)) throw err;
      counts.lost += 1;
      return {
        output: `The helper session that ran this command failed before it answered (${err.message}): ` +
          "the command may or may not have run, and its output is lost; check its effect before running it again",
        returncode: -1,
        timedOut: err instanceof SessionError && err.reason === "timeout",
      };
    }
    counts.session += 1;
    return {
      output: result.output,
      returncode: result.returncode,
      timedOut: result.timed_out,
      ...(result.truncated ? { truncated: true } : {}),
    };
  };
  return {
    get type() {
      return env.type;
    },
    get cwd() {
      return env.cwd;
    },
    counts,
    execute,
    copyIn: (hostPath, envPath) => env.copyIn(hostPath, envPath),
    copyOut: (envPath, hostPath) => env.copyOut(envPath, hostPath),
    startSession: (argv, options) => env.startSession(argv, options),
    close: () => env.close(),
  };
}

/** `path` in the container: absolute, or relative to `cwd`. */
function containerPath(cwd: string, path: string | undefined): string {
  if (!path) return cwd;
  if (path.startsWith("/")) return path;
  return `${cwd.replace(/\/+$/, "")}/${path}`;
}
