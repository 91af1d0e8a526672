/**
 * Hunks that stand only together: one opens a bracket (a namespace, a
 * wrapper function) that another closes, so the file between them does not
 * parse and no step reproduces either hunk alone. Lift then joins them into
 * one tier-0 `replace_code`, verified at the end state, and says so
 * (`lift-tier-0`). What stays broken when joined is still refused. Real
 * files: libstdc++ 12's `<experimental/ratio>` promoted out of its
 * `experimental` namespaces (as v3's `<experimental/tuple>` → `<tuple>`
 * pair does), and axios's `lib/utils.js` from the multilang corpus wrapped
 * (CommonJS) in a function; g++ and `node --check` are the oracles on the end states
 * and on the states between.
 */

import assert from "node:assert/strict";
import { skipReason } from "../../_support/skips.ts";
import { loadMultilang, MULTILANG_SKIP } from "../../_support/multilang.ts";
import { readOrUndefined, runs } from "../verify/levels/_support.ts";
import { gitDiff, liftIn } from "./_support.ts";

const RATIO = "/usr/include/c++/12/experimental/ratio";
const ratio = readOrUndefined(RATIO);
const OPEN = "namespace experimental\n{\ninline namespace fundamentals_v1\n{\n";
const CLOSE = "} // namespace fundamentals_v1\n} // namespace experimental\n";

/** Whether `program args... file` accepts `text` written to a temporary file named `name`. */
async function accepts(program: string, args: string[], name: string, text: string): Promise<boolean> {
  const dir = await Deno.makeTempDir({ prefix: "graphplan-joined-" });
  try {
    await Deno.writeTextFile(`${dir}/${name}`, text);
    const run = await new Deno.Command(program, {
      args: [...args, `${dir}/${name}`],
      stdout: "null",
      stderr: "null",
    })
      .output();
    return run.success;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

// C++14: C++17's <ratio> declares the same variables in std itself
const gxx = (text: string) =>
  accepts("g++", ["-fsyntax-only", "-std=gnu++14", "-x", "c++-header"], "ratio.h", text);

/** Lift the change of `path` from `before` to `after` as `git diff` writes it. */
async function liftChange(path: string, before: string, after: string) {
  const { dir, diff } = gitDiff({ [path]: before }, { [path]: after });
  return { diff, result: await liftIn(dir, { diff }) };
}

Deno.test({
  name: "lift joined hunks (libstdc++ <experimental/ratio>): namespaces dropped in two hunks become one " +
    "tier-0 step; g++ accepts the end and refuses the state between",
  ignore: skipReason(
    !runs("g++") ? "g++ is not installed" : ratio === undefined ? `"${RATIO}" is absent` : undefined,
  ) !== undefined,
  async fn() {
    assert.ok(ratio!.includes(OPEN) && ratio!.includes(CLOSE), "the header as shipped");
    const after = ratio!.replace(OPEN, "").replace(CLOSE, "");
    const between = ratio!.replace(OPEN, "");
    assert.equal(await gxx(ratio!), true, "g++: before");
    assert.equal(await gxx(after), true, "g++: after");
    assert.equal(await gxx(between), false, "g++: the first hunk alone");

    const { diff, result } = await liftChange("ratio.h", ratio!, after);
    assert.equal((diff.match(/^@@/gm) ?? []).length, 2, "git writes two hunks");
    assert.deepEqual(result.errors.map((issue) => issue.message), []);
    assert.equal(result.success, true);
    assert.equal(result.exact, true);
    assert.equal(result.plan.length, 1, "one step for both hunks");
    assert.equal(result.plan[0].op, "replace_code");
    assert.deepEqual(result.hunks.map((hunk) => [hunk.index, hunk.lifted, hunk.steps]), [[0, true, [0]], [
      1,
      true,
      [0],
    ]]);
    const warned = result.warnings.filter((issue) => issue.code === "lift-tier-0").map((issue) =>
      issue.message
    );
    assert.ok(
      warned.length > 0 && warned.every((message) => message.includes("hunks 0 and 1 alone")),
      warned.join(),
    );

    // the opener alone, and the opener with a closer of the wrong kind, stay refused
    for (
      const [name, text] of [["the opener alone", between], [
        "a wrong closer",
        between.replace(CLOSE, "} // namespace fundamentals_v1\n) // namespace experimental\n"),
      ]]
    ) {
      assert.equal(await gxx(text), false, `g++: ${name}`);
      const refused = (await liftChange("ratio.h", ratio!, text)).result;
      assert.equal(refused.success, false, name);
      assert.deepEqual(refused.plan, [], `${name}: no plan`);
      assert.ok(refused.errors.some((issue) => issue.code === "hunk-not-lifted"), name);
    }
  },
});

Deno.test({
  name: "lift joined hunks (axios lib/utils.js, multilang corpus): a module wrapped in a function in two " +
    "hunks lifts exactly; node --check accepts the end and refuses the state between",
  ignore: MULTILANG_SKIP !== undefined || skipReason(runs("node") ? undefined : "node is not installed") !==
      undefined,
  async fn() {
    const file = (await loadMultilang()).flatMap((commit) => commit.files)
      .find((f) =>
        f.path === "lib/utils.js" && f.before.startsWith("'use strict';\n") &&
        !/^(import|export)\b/m.test(f.before)
      );
    assert.ok(file, "axios's lib/utils.js (CommonJS) in the corpus");
    const body = file.before.slice("'use strict';\n".length);
    const after = `'use strict';\n(function () {\n${body}})();\n`;
    const between = `'use strict';\n(function () {\n${body}`;
    const node = (text: string) => accepts("node", ["--check"], "utils.js", text);
    assert.equal(await node(after), true, "node --check: after");
    assert.equal(await node(between), false, "node --check: the first hunk alone");

    const { diff, result } = await liftChange("lib/utils.js", file.before, after);
    assert.equal((diff.match(/^@@/gm) ?? []).length, 2, "git writes two hunks");
    assert.deepEqual(result.errors.map((issue) => issue.message), []);
    assert.equal(result.exact, true);
    assert.ok(result.hunks.every((hunk) => hunk.lifted));
  },
});
