/**
 * The model of one batch instance, wrapped so the batch can see what it
 * spends after every call (the cost cap) and stop it on Ctrl-C: once the
 * batch's signal is aborted the next call ends the run with exit status
 * `Interrupted`.
 *
 * @module
 */

import {
  type Message,
  type Model,
  ModelError,
  type ModelResponse,
  type ModelStats,
  type QueryOptions,
} from "../model/mod.ts";

/** The batch stopped the run. */
export class InterruptedError extends ModelError {
  override readonly exitStatus = "Interrupted";
  constructor(message = "The batch was interrupted") {
    super(message);
    this.name = "InterruptedError";
  }
}

/** A model that reports its stats after each call and refuses calls once `signal` is aborted. */
export class WatchedModel implements Model {
  readonly #inner: Model;
  readonly #signal: AbortSignal;
  readonly #onCall: (stats: ModelStats) => void;

  constructor(inner: Model, options: { signal: AbortSignal; onCall: (stats: ModelStats) => void }) {
    this.#inner = inner;
    this.#signal = options.signal;
    this.#onCall = options.onCall;
  }

  get name(): string {
    return this.#inner.name;
  }

  get stats(): ModelStats {
    return this.#inner.stats;
  }

  /** The inner model's answer, unless the batch was interrupted before or during the call. */
  async query(messages: Message[], options?: QueryOptions): Promise<ModelResponse> {
    if (this.#signal.aborted) throw new InterruptedError();
    const response = await this.#inner.query(messages, options);
    this.#onCall(this.#inner.stats);
    if (this.#signal.aborted) throw new InterruptedError();
    return response;
  }
}
