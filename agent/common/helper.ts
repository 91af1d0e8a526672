/**
 * The orchestrator's side of the helper protocol: `graphplan helper --serve`
 * started in the task's environment as a line session, one JSON request per
 * line (`{id, method, params}`), one response line back (`{id, result}` or
 * `{id, error: {issues}}`). A session that dies or times out is restarted
 * once per call before the call fails.
 *
 * @module
 */

import type { Issue } from "../../engine/base/issue.ts";
import { type Environment, type LineSession, SessionError } from "../env/mod.ts";

/** What the phases need from the helper. */
export interface Helper {
  /** Call `method`; an `error` response throws {@linkcode HelperError}. */
  call(method: string, params: Record<string, unknown>): Promise<unknown>;
  close(): Promise<void>;
}

/** The helper answered with an error, or could not be reached. */
export class HelperError extends Error {
  readonly issues: Issue[];
  constructor(message: string, issues: Issue[] = []) {
    super(issues.length > 0 ? `${message}: ${issues.map((issue) => issue.message).join("; ")}` : message);
    this.name = "HelperError";
    this.issues = issues;
  }
}

/** The argv of the helper's session: `argv --serve --repo REPO ARGS...`. */
export function serveArgv(argv: string[], repo: string, args: string[] = []): string[] {
  return [...argv, "--serve", "--repo", repo, ...args];
}

/** Options of {@linkcode SessionHelper}. */
export interface SessionHelperOptions {
  /** Seconds to wait for one answer (default 300: a big plan on a big file takes a while). */
  timeout?: number;
}

/** A helper spoken to through a {@linkcode LineSession}. */
export class SessionHelper implements Helper {
  readonly #session: LineSession;
  readonly #timeout: number;
  /** Variables set for the helper alone (`DENO_DIR`, ...): commands it runs get them unset. */
  readonly ownEnv: readonly string[];
  #nextId = 1;

  constructor(session: LineSession, options: SessionHelperOptions & { ownEnv?: string[] } = {}) {
    this.#session = session;
    this.#timeout = options.timeout ?? 300;
    this.ownEnv = options.ownEnv ?? [];
  }

  /**
   * Start `argv` (the helper command, e.g. `["graphplan", "helper"]`) with
   * `--serve --repo REPO` and `args` in `env`.
   */
  static start(
    env: Environment,
    argv: string[],
    options: SessionHelperOptions & { repo?: string; env?: Record<string, string>; args?: string[] } = {},
  ): SessionHelper {
    const session = env.startSession(serveArgv(argv, options.repo ?? env.cwd, options.args), {
      env: options.env,
    });
    return new SessionHelper(session, { ...options, ownEnv: Object.keys(options.env ?? {}) });
  }

  /** Whether the session's process runs. */
  get alive(): boolean {
    return this.#session.alive;
  }

  /** One request, one response; restarts a dead session once. */
  async call(method: string, params: Record<string, unknown>): Promise<unknown> {
    for (let attempt = 0;; attempt++) {
      if (!this.#session.alive) await this.#session.restart();
      try {
        return await this.send(method, params, this.#timeout);
      } catch (err) {
        if (!(err instanceof SessionError)) throw err;
        if (attempt === 0) {
          // The process may have died between the check above and the write: start it again.
          await this.#session.restart();
          continue;
        }
        throw new HelperError(`Helper call "${method}" failed: ${err.message}`);
      }
    }
  }

  /**
   * One request over the session as it is, never restarted or sent twice:
   * a session that is gone or fails throws its {@linkcode SessionError}
   * (whose `delivered` says whether the helper may have acted), an `error`
   * response throws {@linkcode HelperError}.
   */
  async send(method: string, params: Record<string, unknown>, timeout: number): Promise<unknown> {
    const id = this.#nextId++;
    const line = await this.#session.request(JSON.stringify({ id, method, params }), { timeout });
    let response: { id?: unknown; result?: unknown; error?: { issues?: Issue[] } };
    try {
      response = JSON.parse(line);
    } catch {
      throw new HelperError(
        `Helper answered "${method}" with a line that is not JSON: ${line.slice(0, 200)}`,
      );
    }
    if (response.id !== id) {
      throw new HelperError(`Helper answered request ${JSON.stringify(response.id)} when asked ${id}`);
    }
    if (response.error) throw new HelperError(`Helper refused "${method}"`, response.error.issues ?? []);
    return response.result;
  }

  /** Close the session. */
  close(): Promise<void> {
    return this.#session.close();
  }
}
