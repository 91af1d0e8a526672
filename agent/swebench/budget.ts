/**
 * The batch's cost cap (`--cost-limit`), held across parallel workers.
 *
 * A running instance may still spend up to its own cap (`agent.cost_limit`),
 * so the budget counts it at `max(spent so far, per-instance cap)`: its
 * reservation. A new instance starts only while the finished instances'
 * cost plus the running ones' reservations is below the batch cap. The
 * last instance to start therefore began with less than the cap committed,
 * and it adds at most its own cap: the batch ends at most one per-instance
 * cap above the batch cap.
 *
 * Worked example: cap $1.00, per-instance cap $0.30, two workers. A and B
 * start (committed 0.60); A ends at $0.20 (committed 0.20 + 0.30 = 0.50),
 * C starts (0.80); B ends at $0.30 (0.20 + 0.30 + 0.30 = 0.80), D starts
 * (1.10); no further instance starts. Worst case A 0.20 + B 0.30 + C 0.30 +
 * D 0.30 = $1.10 ≤ 1.00 + 0.30.
 *
 * The per-instance cap is checked before each model call (as in `graphplan
 * run`), so an instance can pass it by its last call's price; the bound
 * holds exactly when calls cost no more than the cap's granularity.
 * Without a per-instance cap (0) a running instance reserves nothing, and
 * the batch may pass its cap by what the running instances spend.
 *
 * @module
 */

/** Spending of a batch against its cap. */
export class CostBudget {
  /** The batch cap in dollars; 0 = none. */
  readonly cap: number;
  /** Each instance's own cap; 0 = none. */
  readonly perInstance: number;
  #finished = 0;
  readonly #running = new Map<string, number>();

  constructor(cap: number, perInstance: number) {
    this.cap = cap;
    this.perInstance = perInstance;
  }

  /** Dollars spent by finished and running instances. */
  get spent(): number {
    let sum = this.#finished;
    for (const cost of this.#running.values()) sum += cost;
    return sum;
  }

  /** Dollars spent plus what running instances may still spend. */
  get committed(): number {
    let sum = this.#finished;
    for (const cost of this.#running.values()) sum += Math.max(cost, this.perInstance);
    return sum;
  }

  /** Whether a new instance may start. */
  canStart(): boolean {
    return this.cap <= 0 || this.committed < this.cap;
  }

  /** `id` started. */
  start(id: string): void {
    this.#running.set(id, 0);
  }

  /** `id` has spent `cost` so far. */
  update(id: string, cost: number): void {
    if (this.#running.has(id)) this.#running.set(id, cost);
  }

  /** `id` ended having spent `cost`. */
  finish(id: string, cost: number): void {
    this.#running.delete(id);
    this.#finished += cost;
  }

  /** Count `cost` spent by instances of an earlier run of this batch (resume). */
  addEarlier(cost: number): void {
    this.#finished += cost;
  }
}
