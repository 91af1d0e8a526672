/**
 * Where a run's wall time goes: the container start, the helper
 * deployment, the helper requests over the session and the commands run in
 * the environment (model time is the rest). The environment and the helper
 * the agent gets are thin wrappers that add each call's duration.
 *
 * @module
 */

import type { Environment, ExecOptions, ExecResult, LineSession, SessionOptions } from "./env/mod.ts";
import type { Helper } from "./common/helper.ts";

/** Seconds and counts of one run. */
export interface RunTimings {
  container_start: number;
  helper_deploy: number;
  helper_requests: number;
  helper_calls: number;
  /** The methods requested, in order. */
  helper_methods: string[];
  commands: number;
  command_count: number;
}

/** Zeroed timings. */
export function emptyTimings(): RunTimings {
  return {
    container_start: 0,
    helper_deploy: 0,
    helper_requests: 0,
    helper_calls: 0,
    helper_methods: [],
    commands: 0,
    command_count: 0,
  };
}

/** `env` with each `execute` timed into `timings`. */
export function timedEnvironment(env: Environment, timings: RunTimings): Environment {
  return {
    get type() {
      return env.type;
    },
    get cwd() {
      return env.cwd;
    },
    async execute(command: string, options?: ExecOptions): Promise<ExecResult> {
      const started = performance.now();
      try {
        return await env.execute(command, options);
      } finally {
        timings.commands += (performance.now() - started) / 1000;
        timings.command_count += 1;
      }
    },
    copyIn: (hostPath: string, envPath: string) => env.copyIn(hostPath, envPath),
    copyOut: (envPath: string, hostPath: string) => env.copyOut(envPath, hostPath),
    startSession: (argv: string[], options?: SessionOptions): LineSession => env.startSession(argv, options),
    close: () => env.close(),
  };
}

/** `helper` with each call timed into `timings`. */
export function timedHelper(helper: Helper, timings: RunTimings): Helper {
  return {
    async call(method: string, params: Record<string, unknown>): Promise<unknown> {
      const started = performance.now();
      try {
        return await helper.call(method, params);
      } finally {
        timings.helper_requests += (performance.now() - started) / 1000;
        timings.helper_calls += 1;
        timings.helper_methods.push(method);
      }
    },
    close: () => helper.close(),
  };
}
