/**
 * One JSON POST with a per-request timeout and retries.
 *
 * Retried: 429 (waiting what `Retry-After` asks, up to `backoff_max`), 408,
 * 5xx (529 "overloaded" included), timeouts, connections that fail or drop
 * mid-answer. Delays grow exponentially from `initial` with jitter (each
 * wait is between half and all of the exponential step) so parallel workers
 * do not retry in lockstep.
 * Not retried: 401/403 ({@linkcode AuthenticationError}), a prompt over the
 * context window ({@linkcode ContextLengthError}), any other 4xx
 * ({@linkcode BadRequestError}), and the caller's own abort.
 *
 * @module
 */

import {
  AuthenticationError,
  BadRequestError,
  ContextLengthError,
  ModelError,
  ModelUnavailableError,
  RetryableError,
} from "./errors.ts";

/** How often and how long to retry. Times in seconds. */
export interface RetryPolicy {
  /** Retries after the first attempt. */
  retries: number;
  initial: number;
  max: number;
  /** Replaceable for tests: waits `ms` or rejects when `signal` aborts. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Replaceable for tests: a number in [0, 1). */
  random?: () => number;
  /** Told before each wait. */
  onRetry?: (info: { attempt: number; delay: number; error: RetryableError }) => void;
}

/** Options of {@linkcode postJson}. */
export interface PostOptions {
  headers: Record<string, string>;
  /** Per-attempt timeout in seconds. */
  timeout: number;
  policy: RetryPolicy;
  signal?: AbortSignal;
}

const CONTEXT_PATTERN =
  /context[_ ]length|context window|maximum context|prompt is too long|too many (input )?tokens|input is too long|reduce the length/i;

/** POST `body` as JSON and return the parsed JSON answer, retrying what is worth retrying. */
export async function postJson(url: string, body: unknown, options: PostOptions): Promise<unknown> {
  const { policy } = options;
  const sleep = policy.sleep ?? abortableSleep;
  const random = policy.random ?? Math.random;
  for (let attempt = 0;; attempt++) {
    try {
      return await attemptPost(url, body, options);
    } catch (err) {
      if (!(err instanceof RetryableError)) throw err;
      if (attempt >= policy.retries) {
        throw new ModelUnavailableError(
          `Model call failed after ${attempt + 1} attempt${attempt === 0 ? "" : "s"}: ${err.message}`,
          { status: err.status, cause: err },
        );
      }
      const step = Math.min(policy.max, policy.initial * 2 ** attempt);
      const delay = err.retryAfter !== undefined
        ? Math.min(policy.max, err.retryAfter)
        : step * (0.5 + random() / 2);
      policy.onRetry?.({ attempt: attempt + 1, delay, error: err });
      await sleep(delay * 1000, options.signal);
    }
  }
}

async function attemptPost(url: string, body: unknown, options: PostOptions): Promise<unknown> {
  if (options.signal?.aborted) throw options.signal.reason;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException("Timed out", "TimeoutError"));
  }, options.timeout * 1000);
  const onAbort = () => controller.abort(options.signal?.reason);
  options.signal?.addEventListener("abort", onAbort, { once: true });
  try {
    let response: Response;
    try {
      response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", ...options.headers },
        body: JSON.stringify(body),
        signal: controller.signal,
      });
    } catch (err) {
      throw networkError(err, { timedOut, timeout: options.timeout, signal: options.signal });
    }
    let text: string;
    try {
      text = await response.text();
    } catch (err) {
      throw networkError(err, { timedOut, timeout: options.timeout, signal: options.signal });
    }
    if (!response.ok) throw httpError(response, text);
    try {
      return JSON.parse(text);
    } catch {
      throw new RetryableError(`Provider answered with invalid JSON: ${excerpt(text)}`, {
        status: response.status,
      });
    }
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
  }
}

function networkError(
  err: unknown,
  context: { timedOut: boolean; timeout: number; signal?: AbortSignal },
): unknown {
  if (context.timedOut) {
    return new RetryableError(`Request timed out after ${context.timeout} s`, { cause: err });
  }
  if (context.signal?.aborted) return context.signal.reason ?? err;
  return new RetryableError(`Connection failed: ${(err as Error)?.message ?? String(err)}`, { cause: err });
}

/** Map an HTTP error answer to the error class that decides whether to retry. */
export function httpError(response: Response, text: string): Error {
  const status = response.status;
  const detail = `HTTP ${status}: ${excerpt(providerMessage(text))}`;
  if (status === 429) {
    return new RetryableError(`Rate limited (${detail})`, {
      status,
      retryAfter: parseRetryAfter(response.headers.get("retry-after")),
    });
  }
  if (status === 408 || status >= 500) {
    return new RetryableError(`Provider error (${detail})`, {
      status,
      retryAfter: parseRetryAfter(response.headers.get("retry-after")),
    });
  }
  if (status === 401 || status === 403) {
    return new AuthenticationError(`Authentication failed (${detail}): check the API key`, { status });
  }
  if (CONTEXT_PATTERN.test(text)) {
    return new ContextLengthError(`The conversation exceeds the model's context window (${detail})`, {
      status,
    });
  }
  if (status >= 400) return new BadRequestError(`Request rejected (${detail})`, { status });
  return new ModelError(`Unexpected answer (${detail})`, { status });
}

/** Seconds to wait from a `Retry-After` header (seconds or an HTTP date); undefined if absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === "") return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, (date - now) / 1000);
}

function providerMessage(text: string): string {
  try {
    const parsed = JSON.parse(text);
    const message = parsed?.error?.message ?? parsed?.message ?? parsed?.error;
    if (typeof message === "string") return message;
  } catch {
    // not JSON: use the text as it is
  }
  return text;
}

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 300 ? `${flat.slice(0, 300)}...` : flat || "(empty body)";
}

/** Wait `ms`, or reject with the signal's reason when it aborts first. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
