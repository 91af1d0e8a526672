import assert from "node:assert/strict";
import { CORPUS_SKIP } from "../../_support/corpus.ts";
import { benchPatches, modelPatches, verdictCounts, VERDICTS_SKIP } from "../../bench/lift_patches.ts";

Deno.test({
  name:
    "lift verdicts: the held-in model patches, whole diffs included, lift and pass verify --strict exactly when CPython and pyflakes find nothing new broken",
  ignore: CORPUS_SKIP !== undefined || VERDICTS_SKIP !== undefined,
  async fn() {
    const outcomes = await benchPatches(await modelPatches(), { part: "held-in" });
    const counts = verdictCounts(outcomes);
    const lifted = outcomes.filter((o) => o.lifted);
    // the patches that create or delete files (build/lib output, reproduction scripts) lift too
    assert.ok(lifted.length >= 0.98 * outcomes.length, `${lifted.length} of ${outcomes.length} lifted`);
    assert.ok(lifted.filter((o) => o.wholeFile).length >= 30, "whole-file patches lifted");
    const show = (list: typeof counts.misses) =>
      list.map((o) => `${o.id}: ${[...o.refusals, ...o.broken].join("; ")}`);
    assert.deepEqual(show(counts.falseAlarms), [], "correct code refused");
    assert.deepEqual(show(counts.misses), [], "broken code passed");
  },
});

Deno.test({
  name:
    "lift verdicts: a patch to Python 2 code (CPython compiles neither side) is not judged, neither a false alarm nor a catch",
  ignore: VERDICTS_SKIP !== undefined,
  async fn() {
    const before = [
      "import sys",
      "",
      "def greet(name):",
      "    try:",
      '        print "hello", name',
      "    except IOError, err:",
      "        sys.stderr.write(str(err))",
      "",
    ].join("\n");
    const after = before.replace('"hello"', '"good day"');
    const patch = [
      "--- a/greet.py",
      "+++ b/greet.py",
      "@@ -5 +5 @@",
      '-        print "hello", name',
      '+        print "good day", name',
      "",
    ].join("\n");
    const corrected = {
      id: "py2",
      set: "test",
      patch,
      files: [{ path: "greet.py", before, after }],
      held: false,
    };
    const [outcome] = await benchPatches([corrected]);
    assert.deepEqual(outcome.notJudged, ["greet.py"]);
    assert.equal(outcome.passed, undefined, outcome.refusals.join("; "));
    const counts = verdictCounts([outcome]);
    assert.equal(counts.judged, 0);
    assert.deepEqual([counts.falseAlarms.length, counts.caught.length, counts.notJudged.length], [0, 0, 1]);
  },
});
