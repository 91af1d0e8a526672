/**
 * Errors a model client can end a run with. Each class names the
 * trajectory's `exit_status`, so a run that stopped on a bad key, a prompt
 * that outgrew the context window or a provider that stayed down says so.
 *
 * Retryable failures (429, 5xx, timeouts, dropped connections) never reach
 * the agent unless every retry failed; then they surface as
 * {@linkcode ModelUnavailableError}.
 *
 * @module
 */

/** Base class: a model call that cannot go on. */
export class ModelError extends Error {
  /** The trajectory's `exit_status` when this error ends a run. */
  readonly exitStatus: string = "ModelError";
  /** HTTP status, when the provider answered. */
  readonly status?: number;

  constructor(message: string, options: { status?: number; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = "ModelError";
    this.status = options.status;
  }
}

/** The provider refused the key (401/403) or no key was set. Not retried. */
export class AuthenticationError extends ModelError {
  override readonly exitStatus = "AuthenticationError";
  constructor(message: string, options: { status?: number; cause?: unknown } = {}) {
    super(message, options);
    this.name = "AuthenticationError";
  }
}

/** The conversation no longer fits the model's context window. Not retried. */
export class ContextLengthError extends ModelError {
  override readonly exitStatus = "ContextWindowExceeded";
  constructor(message: string, options: { status?: number; cause?: unknown } = {}) {
    super(message, options);
    this.name = "ContextLengthError";
  }
}

/** Any other 4xx: the request itself is wrong (bad model name, bad parameter). Not retried. */
export class BadRequestError extends ModelError {
  override readonly exitStatus = "BadRequestError";
  constructor(message: string, options: { status?: number; cause?: unknown } = {}) {
    super(message, options);
    this.name = "BadRequestError";
  }
}

/** Every retry of a retryable failure (429, 5xx, timeout, dropped connection) failed. */
export class ModelUnavailableError extends ModelError {
  override readonly exitStatus = "ModelUnavailable";
  constructor(message: string, options: { status?: number; cause?: unknown } = {}) {
    super(message, options);
    this.name = "ModelUnavailableError";
  }
}

/** The price table has no entry for the model and cost tracking is on. */
export class UnknownPriceError extends ModelError {
  override readonly exitStatus = "UnknownPrice";
  constructor(message: string) {
    super(message);
    this.name = "UnknownPriceError";
  }
}

/**
 * A failure worth another try: rate limit, server error, timeout, dropped
 * connection. Internal to the retry loop; `retryAfter` is the server's
 * `Retry-After` in seconds, when it sent one.
 */
export class RetryableError extends Error {
  readonly status?: number;
  readonly retryAfter?: number;

  constructor(message: string, options: { status?: number; retryAfter?: number; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = "RetryableError";
    this.status = options.status;
    this.retryAfter = options.retryAfter;
  }
}
