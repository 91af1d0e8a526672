/**
 * The helper protocol (ARCHITECTURE.md, "Helper protocol"): a request is a
 * method name and params; the response is `{result}` or `{error: {issues}}`.
 * In a session each line is `{id, method, params}` and the response echoes
 * `id` (null when the line could not be read).
 *
 * @module
 */

import { error, type Issue, IssueError } from "../base/issue.ts";
import { METHODS } from "./methods.ts";
import { withBudget } from "../base/budget.ts";
import type { Session } from "./session.ts";

/** A response: exactly one of `result` and `error`. */
export type Response = { result: unknown } | { error: { issues: Issue[] } };

/** A session response line. */
export type SessionResponse = { id: unknown } & Response;

/** Answer one request. Never throws: internal failures become `internal-error` issues. */
export async function handleRequest(session: Session, method: unknown, params: unknown): Promise<Response> {
  try {
    if (typeof method !== "string" || method.length === 0) {
      return errorResponse(
        error("request-invalid", 'The request has no "method" string', { path: ["method"] }),
      );
    }
    const fn = Object.hasOwn(METHODS, method) ? METHODS[method] : undefined;
    if (!fn) {
      return errorResponse(
        error("method-unknown", `Unknown method "${method}"`, {
          hint: `methods: ${Object.keys(METHODS).join(", ")}`,
        }),
      );
    }
    const given = params ?? {};
    if (typeof given !== "object" || Array.isArray(given)) {
      return errorResponse(error("params-invalid", "The params must be a JSON object", { path: ["params"] }));
    }
    const timeout = (given as { timeout?: unknown }).timeout;
    if (timeout !== undefined && !(typeof timeout === "number" && Number.isFinite(timeout) && timeout >= 0)) {
      return errorResponse(
        error("params-invalid", 'The "timeout" param must be a number of seconds (0: no budget)', {
          path: ["params", "timeout"],
        }),
      );
    }
    return {
      result: await withBudget(
        timeout as number | undefined,
        () => fn(given as Record<string, unknown>, session),
      ),
    };
  } catch (err) {
    if (err instanceof IssueError) return { error: { issues: err.issues } };
    return errorResponse(internalError(err));
  }
}

/** Answer one session line (`{id, method, params}`), echoing its id. */
export async function handleLine(session: Session, line: string): Promise<SessionResponse> {
  let request: unknown;
  try {
    request = JSON.parse(line);
  } catch (err) {
    return {
      id: null,
      ...errorResponse(error("json-invalid", `The request is not valid JSON: ${(err as Error).message}`)),
    };
  }
  if (request === null || typeof request !== "object" || Array.isArray(request)) {
    return {
      id: null,
      ...errorResponse(error("request-invalid", "A request is a JSON object {id, method, params}")),
    };
  }
  const { id = null, method, params } = request as { id?: unknown; method?: unknown; params?: unknown };
  return { id: exactId(id, line), ...await handleRequest(session, method, params) };
}

/**
 * The id to echo: as parsed, except a number JSON.parse could not keep
 * (`1e400` is Infinity, `12345678901234567890` loses digits), which is
 * echoed as its own text (`JSON.rawJSON`), so every id round-trips.
 */
function exactId(id: unknown, line: string): unknown {
  if (
    typeof id !== "number" || (Number.isFinite(id) && (!Number.isInteger(id) || Number.isSafeInteger(id)))
  ) {
    return id;
  }
  const holders: { holder: unknown; source: string }[] = [];
  const root = JSON.parse(line, function (this: unknown, key, value, context?: { source?: string }) {
    if (key === "id" && context?.source !== undefined) holders.push({ holder: this, source: context.source });
    return value;
  });
  const source = holders.find((entry) => entry.holder === root)?.source;
  const raw = (JSON as unknown as { rawJSON?: (text: string) => unknown }).rawJSON;
  return source !== undefined && raw ? raw(source) : String(id);
}

function errorResponse(issue: Issue): Response {
  return { error: { issues: [issue] } };
}

/** The issue for a bug: message plus the top of the stack. */
export function internalError(err: unknown): Issue {
  const e = err as Error;
  return error("internal-error", `Internal error: ${e?.message ?? String(err)}`, {
    hint: (e?.stack ?? "").split("\n").slice(0, 6).join("\n") || undefined,
  });
}
