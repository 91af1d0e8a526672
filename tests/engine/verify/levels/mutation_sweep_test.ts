/**
 * The delete_node mutation sweep (`tests/bench/mutation_sweep.ts`): 200
 * statements of corpus files, picked with a fixed seed, each deleted; every
 * result CPython rejects or that leaves a name unbound which was bound
 * before must be refused by `verify`. The oracle itself is checked first on
 * small cases whose answer is known.
 */

import assert from "node:assert/strict";
import { CORPUS_SKIP } from "../../../_support/corpus.ts";
import { PYTHON_SKIP } from "../../../_support/python.ts";
import { describeSweep, oracleVerdicts, runMutationSweep } from "../../../bench/mutation_sweep.ts";

Deno.test({
  name: "mutation oracle: CPython's symtable finds exactly the names a deletion unbinds",
  ignore: PYTHON_SKIP !== undefined,
  async fn() {
    const base = [
      "import os",
      "import re",
      "try:",
      "    import json",
      "except ImportError:",
      "    json = None",
      "MSYS2 = os.environ.get('MSYSTEM')",
      "PATTERN = re.compile('x')",
      "class C:",
      "    limit = 3",
      "    twice = limit * 2",
      "    def f(self):",
      "        return limit",
      "def g():",
      "    global CACHE",
      "    CACHE = {}",
      "def h():",
      "    return MSYS2, json, CACHE, 'PATTERN'",
      "limit = 1",
      "",
    ].join("\n");
    const without = (line: string) => base.replace(`${line}\n`, "");
    const verdicts = await oracleVerdicts([
      [base, without("MSYS2 = os.environ.get('MSYSTEM')")],
      [base, without("import re")],
      [base, without("    import json")], // the handler still binds json: the try body gets no pass here
      [base, without("    limit = 3")],
      [base, without("limit = 1")],
      [base, without("PATTERN = re.compile('x')")],
      [base, base.replace("    return limit", "    return limit +")],
    ]);
    assert.deepEqual(verdicts[0], { compile: null, dangling: [".h:MSYS2"] });
    assert.deepEqual(verdicts[1], { compile: null, dangling: [":re"] });
    // the try body is empty now: a compile error, not a dangling name
    assert.equal(verdicts[2].dangling?.length ?? 0, 0);
    assert.notEqual(verdicts[2].compile, null);
    // the class body's use falls back to the module's `limit`; the method never saw the class's
    assert.deepEqual(verdicts[3], { compile: null, dangling: [] });
    assert.deepEqual(verdicts[4], { compile: null, dangling: [".C.f:limit"] });
    // only a string mentions PATTERN now
    assert.deepEqual(verdicts[5], { compile: null, dangling: [] });
    assert.match(verdicts[6].compile!, /invalid syntax/);
  },
});

Deno.test({
  name: "mutation sweep: every delete_node result CPython finds broken or dangling is refused (200, seed 17)",
  ignore: CORPUS_SKIP !== undefined || PYTHON_SKIP !== undefined,
  async fn() {
    const figures = await runMutationSweep({ count: 200, seed: 17 });
    console.log(describeSweep(figures));
    const misses = figures.mutations.filter((m) =>
      !m.opRefused && (m.compileError !== null || m.dangling.length > 0) && !m.refused
    );
    for (const miss of misses) {
      console.log(
        `  missed: ${miss.file}:${miss.line} ${miss.type} ${miss.compileError ?? miss.dangling.join(" ")}`,
      );
    }
    assert.equal(figures.mutations.length, 200);
    // the seed gives a fair share of dangling results (imports, constants, helpers deleted while used)
    assert.ok(figures.danglingResults >= 20, `${figures.danglingResults} dangling results`);
    assert.ok(
      figures.danglingRefused >= 0.95 * figures.danglingResults,
      `${figures.danglingRefused} of ${figures.danglingResults} dangling results refused`,
    );
    assert.equal(figures.compileRefused, figures.compileFailures, "every compile failure refused");
    // no false alarm: a deletion CPython finds harmless is not refused
    assert.equal(figures.cleanRefused, 0);
  },
});
