/**
 * The `docker` and `podman` environments: one container per run, started
 * from an image with a long-lived main process (`sleep infinity`), spoken to
 * with `exec`, copied into and out of with `cp`, removed by `close()` and on
 * Ctrl-C.
 *
 * A command runs as `timeout -k 5 SECONDS bash -c STDIN_SCRIPT` inside the
 * container, the command itself on stdin (`exec -i`), never in argv, where
 * Linux refuses an argument over 128 KiB: GNU `timeout` puts the command in
 * its own process group and signals the whole group, so nothing keeps running
 * in the container after a timeout (exit status 124 means it fired). The
 * host-side `exec` client has a longer backstop timeout of its own. The same
 * argv is what the helper's `shell` method runs (engine/helper/shell.ts),
 * the faster path once the helper's session is open. Every CLI call goes through a
 * {@linkcode Runner}, so tests can check the argv without a container runtime.
 *
 * @module
 */

import { onInterrupt } from "./cleanup.ts";
import { ProcessLineSession, type SpawnedProcess, spawnHost } from "./line_session.ts";
import {
  attachMain,
  MAIN_SCRIPT,
  MainAttachError,
  mainOnlyVariables,
  type MainSession,
  mainSessionMatches,
  markerPath,
} from "./main_session.ts";
import { type RunOptions, runProcess } from "./process.ts";
import { KILLED_STATUS, shellArgv, TIMEOUT_STATUS } from "../../engine/helper/shell.ts";
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

/** Runs container CLI commands; replaceable in tests. */
export interface Runner {
  run(argv: string[], options?: RunOptions): Promise<ExecResult>;
  spawn(argv: string[]): SpawnedProcess;
}

/** Runs them on the host. */
export const HOST_RUNNER: Runner = {
  run: runProcess,
  spawn: (argv) => spawnHost(argv)(),
};

/** Defaults for container settings the config leaves out. */
export const CONTAINER_DEFAULTS = {
  cwd: "/",
  container_command: ["sleep", "infinity"],
  /** Seconds allowed for `run` (it may pull the image). */
  start_timeout: 1800,
  /** Seconds the host-side client gets beyond the in-container timeout. */
  backstop: 30,
} as const;

export { TIMEOUT_STATUS };

/** A container run by the docker or podman CLI. */
export class ContainerEnvironment implements Environment {
  readonly type: string;
  readonly cwd: string;
  /** The container's name. */
  readonly container: string;
  readonly #config: EnvironmentConfig;
  readonly #runner: Runner;
  readonly #executable: string;
  readonly #sessions = new Set<ProcessLineSession>();
  /** The session started as the container's main process, until `startSession` hands it out. */
  #main: { spec: MainSession; marker: string; process?: SpawnedProcess } | undefined;
  #unregister: () => void = () => {};
  #closing: Promise<void> | undefined;

  private constructor(config: EnvironmentConfig, runner: Runner, container: string) {
    this.type = config.type;
    this.#config = config;
    this.#runner = runner;
    this.#executable = config.executable || config.type;
    this.cwd = config.cwd || CONTAINER_DEFAULTS.cwd;
    this.container = container;
  }

  /**
   * Start a container from `config.image`. With `main` (and the default
   * `container_command`), the container's main process runs that session
   * first (`run -i`, attached: no `exec` to open it), see
   * agent/env/main_session.ts; it is handed out by the first matching
   * {@linkcode startSession}.
   *
   * When `run -i` ends or stalls before the session starts, but the same
   * container starts detached (`run -d`), the runtime's attached mode is what
   * failed: the container is the detached one (the session opens with `exec
   * -i`), later starts with the same executable in this process skip the
   * attempt, and the first such start carries {@linkcode warning} for the user.
   */
  static async start(
    config: EnvironmentConfig,
    options: { runner?: Runner; name?: string; main?: MainSession } = {},
  ): Promise<ContainerEnvironment> {
    if (!config.image) throw new EnvironmentError(`Environment "${config.type}" needs "environment.image"`);
    const runner = options.runner ?? HOST_RUNNER;
    const name = options.name ?? `graphplan-${crypto.randomUUID().slice(0, 8)}`;
    const executable = config.executable || config.type;
    // Only where the main process would be `sleep infinity`: another one the image needs stays.
    const held =
      (config.container_command ?? CONTAINER_DEFAULTS.container_command).join(" ") === "sleep infinity";
    const main = options.main && held && !MAIN_REFUSED.has(executable) ? options.main : undefined;
    if (!main) return await ContainerEnvironment.#started(config, runner, name);
    try {
      return await ContainerEnvironment.#started(config, runner, name, main);
    } catch (err) {
      const cause = (err as EnvironmentError).cause;
      if (!(cause instanceof MainAttachError) || cause.kind === "timeout") throw err;
      const detached = await ContainerEnvironment.#started(config, runner, name);
      if (!MAIN_REFUSED.has(executable)) {
        MAIN_REFUSED.add(executable);
        detached.warning = mainRefusedWarning(executable, cause);
      }
      return detached;
    }
  }

  /** One attempt: `run -i` with the main session when `main` is given, `run -d` otherwise. */
  static async #started(
    config: EnvironmentConfig,
    runner: Runner,
    name: string,
    main?: MainSession,
  ): Promise<ContainerEnvironment> {
    const env = new ContainerEnvironment(config, runner, name);
    env.#unregister = onInterrupt(() => env.close(), { keepOnStop: true });
    if (main) env.#main = { spec: main, marker: `graphplan-main-${crypto.randomUUID()}` };
    let failure: string | undefined;
    let cause: unknown;
    if (env.#main) {
      const { marker } = env.#main;
      const probe = async () =>
        (await runner.run(
          [env.#executable, "exec", name, "bash", "-c", '[ -e "$1" ]', "bash", markerPath(marker)],
          { timeout: 120 },
        )).returncode === 0;
      try {
        env.#main.process = await attachMain(
          runner.spawn(env.runArgv()),
          marker,
          CONTAINER_DEFAULTS.start_timeout,
          { probe },
        );
      } catch (err) {
        failure = (err as Error).message;
        cause = err;
      }
    } else {
      const result = await runner.run(env.runArgv(), { timeout: CONTAINER_DEFAULTS.start_timeout });
      if (result.returncode !== 0 || result.timedOut) {
        failure = result.timedOut ? "timed out" : result.output.trim();
      }
    }
    if (failure !== undefined) {
      await env.close();
      throw new EnvironmentError(
        `Cannot start a container from image "${config.image}" with ${env.#executable}: ${failure}`,
        { cause },
      );
    }
    return env;
  }

  /**
   * Set on the start that found the runtime's `run -i` unusable (the first
   * in this process for its executable): what happened and how to skip the
   * attempt, for the user.
   */
  warning: string | undefined;

  /** Whether the session runs as the container's main process and no `startSession` took it yet. */
  get mainPending(): boolean {
    return this.#main?.process !== undefined;
  }

  /**
   * The argv that starts the container: detached (`run -d`) with
   * `container_command`, or attached (`run -i`) with the main session's
   * script when there is one.
   */
  runArgv(): string[] {
    const config = this.#config;
    const main = this.#main;
    const command = main
      ? [
        "bash",
        "-c",
        MAIN_SCRIPT,
        "bash",
        main.marker,
        ...mainOnlyVariables(this.#executable).map((name) => `-${name}`),
        ...Object.entries({ ...config.env, ...main.spec.env }).map(([key, value]) => `${key}=${value}`),
        "--",
        ...main.spec.argv,
      ]
      : config.container_command ?? CONTAINER_DEFAULTS.container_command;
    return [
      this.#executable,
      "run",
      main ? "-i" : "-d",
      "--rm",
      "--name",
      this.container,
      "-w",
      this.cwd,
      ...(config.run_args ?? []),
      config.image!,
      ...command,
    ];
  }

  /** The argv that runs a command in the container; the command goes to its stdin. */
  execArgv(options: ExecOptions = {}): string[] {
    const timeout = options.timeout ?? this.#config.timeout ?? ENV_DEFAULTS.timeout;
    return [
      this.#executable,
      "exec",
      "-i",
      "-w",
      this.path(options.cwd),
      ...envFlags({ ...this.#config.env, ...options.env }),
      this.container,
      ...shellArgv(timeout),
    ];
  }

  /** Run `command` in the container (one `exec`, the command on its stdin). */
  async execute(command: string, options: ExecOptions = {}): Promise<ExecResult> {
    const timeout = options.timeout ?? this.#config.timeout ?? ENV_DEFAULTS.timeout;
    const started = performance.now();
    const result = await this.#runner.run(this.execArgv(options), {
      timeout: timeout + CONTAINER_DEFAULTS.backstop,
      outputLimit: options.outputLimit ?? this.#config.output_limit ?? ENV_DEFAULTS.output_limit,
      stdin: command,
    });
    // 137 after the limit: `timeout -k` had to SIGKILL a command that ignored its SIGTERM.
    const killed = result.returncode === KILLED_STATUS && performance.now() - started >= timeout * 1000;
    return { ...result, timedOut: result.timedOut || result.returncode === TIMEOUT_STATUS || killed };
  }

  /** `cp HOST CONTAINER:PATH`. */
  async copyIn(hostPath: string, envPath: string): Promise<void> {
    await this.#cp(hostPath, `${this.container}:${this.path(envPath)}`);
  }

  /** `cp CONTAINER:PATH HOST`. */
  async copyOut(envPath: string, hostPath: string): Promise<void> {
    await this.#cp(`${this.container}:${this.path(envPath)}`, hostPath);
  }

  /** The argv of a line session running `argv` in the container. */
  sessionArgv(argv: string[], options: SessionOptions = {}): string[] {
    return [
      this.#executable,
      "exec",
      "-i",
      "-w",
      this.path(options.cwd),
      ...envFlags({ ...this.#config.env, ...options.env }),
      this.container,
      ...argv,
    ];
  }

  /**
   * Start `argv` in the container as a line session (`exec -i`). The
   * session the container's main process runs is handed out instead, once,
   * when `argv` and `options` are its own; its restarts are `exec -i`.
   */
  startSession(argv: string[], options: SessionOptions = {}): LineSession {
    const full = this.sessionArgv(argv, options);
    let first = this.#main?.process && mainSessionMatches(this.#main.spec, argv, options)
      ? this.#main.process
      : undefined;
    if (first) this.#main = undefined;
    const spawn = () => {
      const process = first ?? this.#runner.spawn(full);
      first = undefined;
      return process;
    };
    const session = new ProcessLineSession(spawn, `Session "${argv.join(" ")}"`);
    this.#sessions.add(session);
    return session;
  }

  /**
   * Close sessions and remove the container. Every call waits for the same
   * removal: a run's own shutdown that comes after the Ctrl-C cleanup began
   * it still ends only once the container is gone.
   */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#unregister();
      const sessions = [...this.#sessions];
      this.#sessions.clear();
      // A main session nobody took: its helper waits on stdin; the client goes with the container.
      const unused = this.#main?.process;
      this.#main = undefined;
      if (unused) sessions.push(new ProcessLineSession(() => unused, "The unused main session"));
      await Promise.allSettled(sessions.map((session) => session.close()));
      await this.#runner.run(removeArgv(this.#executable, [this.container]), { timeout: 120 }).catch(
        () => {},
      );
    })();
    return this.#closing;
  }

  async #cp(from: string, to: string): Promise<void> {
    const result = await this.#runner.run([this.#executable, "cp", from, to], { timeout: 600 });
    if (result.returncode !== 0 || result.timedOut) {
      throw new EnvironmentError(`Cannot copy "${from}" to "${to}": ${result.output.trim() || "timed out"}`);
    }
  }

  /** `path` inside the container: absolute, relative ones taken from `cwd`. */
  path(path: string | undefined): string {
    if (!path) return this.cwd;
    if (path.startsWith("/")) return path;
    return `${this.cwd.replace(/\/+$/, "")}/${path}`;
  }
}

/** Executables whose `run -i` did not start the main session in this process; later starts skip it. */
const MAIN_REFUSED = new Set<string>();

/** The one warning about `executable`'s `run -i`, naming the setting that skips the attempt. */
function mainRefusedWarning(executable: string, cause: MainAttachError): string {
  const what = cause.kind === "stalled"
    ? `"${executable} run -i" started the container but never passed on its output`
    : `"${executable} run -i" ended before the helper started (${cause.message.split("\n")[0]})`;
  return `The helper could not run as the container's main process: ${what}; this container and the ` +
    `later ones of this run start with "run -d" and open the helper with "exec -i" (set ` +
    `environment.helper_main=false to skip the attempt)`;
}

/**
 * The argv that removes containers at once. `podman rm -f` first sends
 * SIGTERM and waits 10 s, which `sleep infinity` as PID 1 ignores, so podman
 * gets `-t 0` (kill now); `docker rm -f` kills at once by itself.
 */
export function removeArgv(executable: string, names: string[]): string[] {
  const podman = executable.split("/").at(-1) === "podman";
  return [executable, "rm", "-f", ...(podman ? ["-t", "0"] : []), ...names];
}

/** The `-e NAME=VALUE` flags of `env`. */
function envFlags(env: Record<string, string>): string[] {
  return Object.entries(env).flatMap(([key, value]) => ["-e", `${key}=${value}`]);
}
