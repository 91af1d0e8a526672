import assert from "node:assert/strict";
import { ScoringEngine, WEIGHTS } from "../../../agent/rfsn/scoring.ts";
import { diffFacts } from "../../../agent/rfsn/diff_facts.ts";
import { candidate, GUARD_DIFF, statsDiff, TESTS, testsDiff } from "./_fixtures.ts";

const ENGINE = new ScoringEngine({
  failing_tests: ["tests/test_stats.py::test_mean_empty"],
  traceback_frames: [
    { file: "tests/test_stats.py", line: 9, func: "test_mean_empty" },
    { file: "pkg/stats.py", line: 2, func: "mean" },
  ],
  test_narrative: "ZeroDivisionError: division by zero",
});

Deno.test("diff facts: files and the changed lines only (context excluded)", () => {
  const facts = diffFacts(GUARD_DIFF);
  assert.deepEqual(facts.files, ["pkg/stats.py"]);
  assert.deepEqual(facts.added, ["    if not values:", "        return 0"]);
  assert.deepEqual(facts.removed, []);
  assert.equal(facts.lines_changed, 2);
});

Deno.test("scoring: the six factors with the seed's weights, each explained", () => {
  const score = ENGINE.score(
    candidate(GUARD_DIFF, { hypothesis: "mean() hits ZeroDivisionError: division by zero" }),
  );
  const byName = Object.fromEntries(score.factors.map((f) => [f.factor, f]));
  assert.deepEqual(Object.keys(byName), Object.keys(WEIGHTS));
  assert.equal(byName.file_count.raw, 1);
  assert.equal(byName.traceback_relevance.weighted, 3);
  assert.match(byName.traceback_relevance.why, /targets "mean", the frame at pkg\/stats\.py:2/);
  assert.equal(byName.guard_quality.raw, 0.5); // one check: "if not values:"
  assert.match(byName.guard_quality.why, /if not values:/);
  assert.equal(byName.api_preservation.raw, 1);
  assert.equal(byName.refactor_penalty.weighted, 0);
  assert.ok(byName.test_narrative_match.raw > 0.5, byName.test_narrative_match.why);
  const sum = score.factors.reduce((s, f) => s + f.weighted, 0);
  assert.ok(Math.abs(score.total - sum) < 0.01);
});

Deno.test("scoring: a guard on the raising frame beats a rewrite elsewhere and a signature change", () => {
  const guard = candidate(GUARD_DIFF, { model: "m/guard" });
  const rename = candidate(
    statsDiff("def mean(values):\n    return", "def mean(values, default=0):\n    return"),
    {
      model: "m/signature",
    },
  );
  const elsewhere = candidate(
    statsDiff(
      "    return max(values) - min(values)\n",
      "    return max(values or [0]) - min(values or [0])\n",
    ),
    {
      model: "m/elsewhere",
      symbol: "spread",
      hypothesis: "spread breaks",
      summary: "default to zero",
    },
  );
  const ranked = ENGINE.rank([elsewhere, rename, guard]);
  assert.deepEqual(ranked.map((r) => r.candidate.model), ["m/guard", "m/signature", "m/elsewhere"]);
  const api = ranked[1].score.factors.find((f) => f.factor === "api_preservation")!;
  assert.equal(api.raw, 0);
  assert.match(api.why, /changes or removes "def mean\(values\):"/);
  assert.equal(ENGINE.selectBest([elsewhere, rename, guard], 1)[0].candidate.model, "m/guard");
});

Deno.test("scoring: a broad rewrite is penalized; file count divides", () => {
  const big = TESTS.split("\n").map((l) => l ? `${l}  # touched` : l).join("\n");
  const facts = diffFacts(testsDiff(TESTS, big));
  const score = ENGINE.score({ ...candidate(GUARD_DIFF), facts });
  const penalty = score.factors.find((f) => f.factor === "refactor_penalty")!;
  assert.ok(penalty.weighted < 0, penalty.why);
  const two = ENGINE.score({ ...candidate(GUARD_DIFF), facts: { ...facts, files: ["a.py", "b.py"] } });
  assert.equal(two.factors[0].raw, 0.5);
});

Deno.test("scoring is deterministic: same input, same order, ties broken by a stable key", () => {
  const a = candidate(GUARD_DIFF, { model: "m/a" });
  const b = candidate(GUARD_DIFF, { model: "m/b" });
  const c = candidate(GUARD_DIFF, { model: "m/c" });
  const orders = [[a, b, c], [c, b, a], [b, c, a]].map((list) =>
    ENGINE.rank(list).map((r) => r.candidate.model)
  );
  for (const order of orders) assert.deepEqual(order, ["m/a", "m/b", "m/c"]);
  assert.deepEqual(ENGINE.score(a), ENGINE.score(a));
});
