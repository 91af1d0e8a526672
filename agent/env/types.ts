/**
 * The `Environment` protocol: where the agent's commands run (a directory on
 * the host, a docker or podman container), and the long-lived line sessions
 * the helper's `--serve` mode is spoken to through.
 *
 * @module
 */

/** Options of one command. */
export interface ExecOptions {
  /** Working directory; relative paths are taken from the environment's own `cwd`. */
  cwd?: string;
  /** Seconds before the command (its whole process group) is killed; the environment's default when absent. */
  timeout?: number;
  /** Variables added to the environment's own. */
  env?: Record<string, string>;
  /** Output kept (head and tail), overriding the environment's `output_limit` for this command. */
  outputLimit?: number;
}

/** What a command printed (stdout and stderr interleaved as they came) and how it ended. */
export interface ExecResult {
  /** Output, with the middle cut out when it was longer than the environment's `output_limit`. */
  output: string;
  returncode: number;
  timedOut: boolean;
  /** True when `output` lost its middle. */
  truncated?: boolean;
}

/** Options of a line session. */
export interface SessionOptions {
  cwd?: string;
  env?: Record<string, string>;
}

/**
 * A long-lived process spoken to one line at a time: write a line, read the
 * line that answers it. A timeout or a dead process makes the session unusable
 * until {@linkcode LineSession.restart}.
 */
export interface LineSession {
  /** Send `line` (a newline is added) and wait up to `timeout` seconds for one line back. */
  request(line: string, options?: { timeout?: number }): Promise<string>;
  /** Kill the process if it runs and start it again. */
  restart(): Promise<void>;
  /** Close stdin, then kill the process if it does not exit. */
  close(): Promise<void>;
  /** Whether the process is running. */
  readonly alive: boolean;
  /** The last bytes the process wrote to stderr (for error messages). */
  readonly stderrTail: string;
}

/** Where the agent's commands run. */
export interface Environment {
  /** Short name: `local`, `docker`, `podman`. */
  readonly type: string;
  /** The environment's working directory (a host path for `local`, a container path otherwise). */
  readonly cwd: string;
  execute(command: string, options?: ExecOptions): Promise<ExecResult>;
  /** Copy a host file or directory into the environment. */
  copyIn(hostPath: string, envPath: string): Promise<void>;
  /** Copy a file or directory out of the environment to the host. */
  copyOut(envPath: string, hostPath: string): Promise<void>;
  /** Start a line session running `argv`. */
  startSession(argv: string[], options?: SessionOptions): LineSession;
  /** Stop sessions and release the environment (remove the container). Safe to call twice. */
  close(): Promise<void>;
}

/** The config's `environment` section. */
export interface EnvironmentConfig {
  type: string;
  /** Container image (docker, podman). */
  image?: string | null;
  /** Working directory: a host directory for `local` (default: the current one), a container path otherwise. */
  cwd?: string | null;
  /** Default per-command timeout in seconds. */
  timeout?: number;
  /** Variables set for every command. */
  env?: Record<string, string>;
  /** Characters of output kept (head and tail) before the middle is cut. */
  output_limit?: number;
  /** Extra arguments for `docker run` / `podman run`. */
  run_args?: string[];
  /** The container's long-lived main process. */
  container_command?: string[];
  /** The container CLI to call (default: the type's name). */
  executable?: string | null;
  /** Containers: bind-mount the helper read-only at creation instead of copying it (default true). */
  helper_mount?: boolean;
  /** Containers: run a mounted helper as the container's main process (default true). */
  helper_main?: boolean;
  /** Containers: `session` runs commands through the helper's session (exec as fallback), `exec` one exec each. */
  shell?: "session" | "exec";
}

/** A problem with the environment itself (container did not start, copy failed). */
export class EnvironmentError extends Error {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, options);
    this.name = "EnvironmentError";
  }
}

/** A line session that timed out, died or was closed. */
export class SessionError extends EnvironmentError {
  /** `timeout`, `closed` (the process ended) or `write` (stdin refused the line). */
  readonly reason: "timeout" | "closed" | "write";
  /** Whether the line reached the process before it failed (it may have acted on it). */
  readonly delivered: boolean;
  constructor(
    reason: "timeout" | "closed" | "write",
    message: string,
    options: { cause?: unknown; delivered?: boolean } = {},
  ) {
    super(message, options);
    this.name = "SessionError";
    this.reason = reason;
    this.delivered = options.delivered ?? reason === "timeout";
  }
}

/** Defaults shared by all environments. */
export const ENV_DEFAULTS = { timeout: 120, output_limit: 10_000 } as const;
