import assert from "node:assert/strict";
import { resolvePrice } from "../../../agent/model/cost.ts";
import { UnknownPriceError } from "../../../agent/model/errors.ts";
import { parseRetryAfter } from "../../../agent/model/http.ts";

Deno.test("Retry-After: seconds, HTTP dates, and nonsense", () => {
  assert.equal(parseRetryAfter("12"), 12);
  assert.equal(parseRetryAfter("0"), 0);
  assert.equal(parseRetryAfter(null), undefined);
  assert.equal(parseRetryAfter("soon"), undefined);
  const now = Date.parse("Sun, 22 Nov 2026 03:00:00 GMT");
  assert.equal(parseRetryAfter("Sun, 22 Nov 2026 03:00:30 GMT", now), 30);
  assert.equal(parseRetryAfter("Sun, 22 Nov 2026 02:00:00 GMT", now), 0);
});

Deno.test("prices: config price wins, then the table; unknown is an error unless ignored", () => {
  assert.deepEqual(resolvePrice({ name: "openai/gpt-5-mini" }), { input: 0.25, output: 2 });
  assert.deepEqual(resolvePrice({ name: "openai/gpt-5-mini", price: { input: 9, output: 9 } }), {
    input: 9,
    output: 9,
  });
  assert.equal(resolvePrice({ name: "openai/qwen", cost_tracking: "ignore" }), null);
  assert.throws(
    () => resolvePrice({ name: "openai/qwen" }),
    (err: Error) =>
      err instanceof UnknownPriceError && /model\.cost_tracking: ignore/.test(err.message) &&
      err.exitStatus === "UnknownPrice",
  );
});
