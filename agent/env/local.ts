/**
 * The `local` environment: a directory on the host. Each command runs as
 * `bash -c STDIN_SCRIPT` with the command on stdin (never in argv, which
 * refuses an argument over 128 KiB) in its own process group, killed as a
 * whole on timeout.
 *
 * @module
 */

import { isAbsolute, resolve } from "../../engine/base/node_builtins.ts";
import { ProcessLineSession, spawnHost } from "./line_session.ts";
import { runProcess } from "./process.ts";
import { BASH_ARGV } from "../../engine/helper/shell.ts";
import {
  ENV_DEFAULTS,
  type Environment,
  type EnvironmentConfig,
  EnvironmentError,
  type ExecOptions,
  type ExecResult,
  type LineSession,
  type SessionOptions,
} from "./types.ts";

/** Commands in a host directory. */
export class LocalEnvironment implements Environment {
  readonly type = "local";
  readonly cwd: string;
  readonly #config: EnvironmentConfig;
  readonly #sessions = new Set<ProcessLineSession>();

  constructor(config: Partial<EnvironmentConfig> = {}) {
    this.#config = { type: "local", ...config };
    this.cwd = resolve(config.cwd || Deno.cwd());
  }

  /** Run `command` with bash, given on its stdin. */
  execute(command: string, options: ExecOptions = {}): Promise<ExecResult> {
    return runProcess([...BASH_ARGV], {
      stdin: command,
      cwd: this.#path(options.cwd),
      env: { ...this.#config.env, ...options.env },
      timeout: options.timeout ?? this.#config.timeout ?? ENV_DEFAULTS.timeout,
      outputLimit: options.outputLimit ?? this.#config.output_limit ?? ENV_DEFAULTS.output_limit,
    });
  }

  /** Copy into the directory (`envPath` relative to `cwd`). */
  copyIn(hostPath: string, envPath: string): Promise<void> {
    return copy(resolve(hostPath), this.#path(envPath));
  }

  /** Copy out of the directory (`envPath` relative to `cwd`). */
  copyOut(envPath: string, hostPath: string): Promise<void> {
    return copy(this.#path(envPath), resolve(hostPath));
  }

  /** Start `argv` in `cwd` as a line session. */
  startSession(argv: string[], options: SessionOptions = {}): LineSession {
    const session = new ProcessLineSession(
      spawnHost(argv, { cwd: this.#path(options.cwd), env: { ...this.#config.env, ...options.env } }),
      `Session "${argv.join(" ")}"`,
    );
    this.#sessions.add(session);
    return session;
  }

  /** Close every session. */
  async close(): Promise<void> {
    const sessions = [...this.#sessions];
    this.#sessions.clear();
    await Promise.all(sessions.map((session) => session.close()));
  }

  #path(path: string | undefined): string {
    if (!path) return this.cwd;
    return isAbsolute(path) ? path : resolve(this.cwd, path);
  }
}

async function copy(from: string, to: string): Promise<void> {
  const result = await runProcess(["cp", "-a", "--", from, to], { timeout: 600 });
  if (result.returncode !== 0) {
    throw new EnvironmentError(`Cannot copy "${from}" to "${to}": ${result.output.trim()}`);
  }
}
