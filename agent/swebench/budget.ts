/**
 * The batch's cost cap (`--cost-limit`), held across parallel workers.
 *
 * A running instance may still spend up to its own cap (`agent.cost_limit`)
 * plus one call: the agent checks its cap before each call, so the call
 * that crosses it is paid in full. The budget therefore counts a running
 * instance at `max(spent so far, per-instance cap + c)`, its reservation,
 * where `c` is the dearest single call seen in the batch so far. A new
 * instance starts only while the finished instances' cost plus the running
 * ones' reservations plus `c` is below the batch cap. The last instance to
 * start began with less than `cap - c` committed and adds at most its own
 * cap plus one call: the batch ends at most one per-instance cap above the
 * batch cap (as long as no call costs more than the dearest seen before).
 *
 * Worked example (calls of $0.01): cap $1.00, per-instance cap $0.29, two
 * workers. A and B start (committed 2 × 0.30 = 0.60); A ends at $0.20
 * (committed 0.20 + 0.30 = 0.50), C starts (0.80); B ends at $0.30
 * (0.20 + 0.30 + 0.30 = 0.80), D starts (1.10); no further instance
 * starts. Worst case A 0.20 + B 0.30 + C 0.30 + D 0.30 = $1.10 ≤ 1.00 + 0.29
 * + one call.
 *
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
  #dearestCall = 0;
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
    const reserve = this.perInstance > 0 ? this.perInstance + this.#dearestCall : 0;
    for (const cost of this.#running.values()) sum += Math.max(cost, reserve);
    return sum;
  }

  /** The dearest single call seen so far. */
  get dearestCall(): number {
    return this.#dearestCall;
  }

  /** Whether a new instance may start. */
  canStart(): boolean {
    return this.cap <= 0 || this.committed + this.#dearestCall < this.cap;
  }

  /** `id` started. */
  start(id: string): void {
    this.#running.set(id, 0);
  }

  /** `id` has spent `cost` so far (called after each of its calls). */
  update(id: string, cost: number): void {
    const before = this.#running.get(id);
    if (before === undefined) return;
    this.#dearestCall = Math.max(this.#dearestCall, cost - before);
    this.#running.set(id, cost);
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
