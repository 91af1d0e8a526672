import assert from "node:assert/strict";
import { CostBudget } from "../../../agent/swebench/mod.ts";

/** A seeded generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/**
 * Simulate a batch: `workers` slots, instances whose calls cost `call`
 * each and that stop at their own cap (checked before each call, as the
 * agent does) or after a random number of calls.
 */
function simulate(seed: number, workers: number, cap: number, perInstance: number, call: number) {
  const next = random(seed);
  const budget = new CostBudget(cap, perInstance);
  const running = new Map<string, { spent: number; callsLeft: number }>();
  let started = 0;
  let total = 0;
  for (let tick = 0; tick < 10_000; tick++) {
    while (running.size < workers && budget.canStart() && started < 200) {
      const id = `i${started++}`;
      budget.start(id);
      running.set(id, { spent: 0, callsLeft: 1 + Math.floor(next() * 40) });
    }
    if (running.size === 0) break;
    // One running instance makes one call (or ends).
    const ids = [...running.keys()];
    const id = ids[Math.floor(next() * ids.length)];
    const state = running.get(id)!;
    if (state.callsLeft === 0 || (perInstance > 0 && state.spent >= perInstance)) {
      running.delete(id);
      budget.finish(id, state.spent);
      total += state.spent;
      continue;
    }
    state.spent += call;
    state.callsLeft -= 1;
    budget.update(id, state.spent);
  }
  return { total, started };
}

Deno.test("budget: the batch never passes its cap by more than one instance's cap", () => {
  for (let seed = 1; seed <= 300; seed++) {
    const workers = 1 + (seed % 6);
    const cap = 0.5 + (seed % 7);
    const perInstance = 0.1 * (1 + (seed % 9));
    const { total, started } = simulate(seed, workers, cap, perInstance, 0.01);
    assert.ok(
      total <= cap + perInstance + 1e-9,
      `seed ${seed}: spent ${total} with cap ${cap} + ${perInstance}`,
    );
    assert.ok(started < 200, `seed ${seed}: the cap stopped the batch`);
    assert.ok(
      total >= cap - perInstance * workers,
      `seed ${seed}: the batch used its budget (${total} of ${cap})`,
    );
  }
});

Deno.test("budget: the reservation and the worked example of the module doc", () => {
  const budget = new CostBudget(1.0, 0.29);
  budget.start("A");
  budget.update("A", 0.01);
  budget.start("B");
  assert.equal(budget.dearestCall, 0.01);
  assert.ok(Math.abs(budget.committed - 0.6) < 1e-9);
  budget.finish("A", 0.2);
  assert.ok(Math.abs(budget.committed - 0.5) < 1e-9);
  assert.ok(budget.canStart());
  budget.start("C");
  budget.finish("B", 0.3);
  assert.ok(Math.abs(budget.committed - 0.8) < 1e-9);
  assert.ok(budget.canStart());
  budget.start("D");
  assert.ok(!budget.canStart());
  budget.update("D", 0.5);
  assert.equal(budget.dearestCall, 0.5, "a dear call raises every reservation");
  assert.ok(Math.abs(budget.spent - 1.0) < 1e-9);
  assert.ok(new CostBudget(0, 0.3).canStart(), "no cap: always");
  const resumed = new CostBudget(1.0, 0.3);
  resumed.addEarlier(1.0);
  assert.ok(!resumed.canStart(), "an earlier run's spending counts");
});
