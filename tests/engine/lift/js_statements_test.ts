/**
 * Statements deleted from a JavaScript module's top level (`program`) and
 * from function bodies (`statement_block`) lift as `delete_node` (tier 1):
 * the body shapes take each language's statement containers from its
 * template table (they used Python's `block`/`module` for JavaScript too,
 * so such deletions fell to tier-0 `replace_code`). The change is a real
 * kind of commit, logging taken out: http-proxy-agent 7's `dist/index.js`
 * as npm installs it for itself, its `debug(...)` calls, the `debug`
 * binding and the `require("debug")` behind it deleted. node is the oracle
 * on the end state. Deleting the binding and the require while the calls
 * stay is refused: the first step's loss is excused by `require("debug")`
 * (a string may name a binding in JavaScript), the second removes that
 * string without touching a definition, so no step warned; the plan's end
 * state is now judged beyond Python whatever the steps said (it was not,
 * and the plan verified).
 */

import assert from "node:assert/strict";
import { skipReason } from "../../_support/skips.ts";
import { oracleAccepts } from "../../_support/oracle.ts";
import { readOrUndefined, runs } from "../verify/levels/_support.ts";
import { executeOnCopy, gitDiff, liftIn } from "./_support.ts";

const NPM_ROOT = (() => {
  try {
    const out = new Deno.Command("npm", { args: ["root", "-g"], stdout: "piped", stderr: "null" })
      .outputSync();
    return out.success ? new TextDecoder().decode(out.stdout).trim() : undefined;
  } catch {
    return undefined;
  }
})();
const PATH = `${NPM_ROOT}/npm/node_modules/http-proxy-agent/dist/index.js`;
const source = readOrUndefined(PATH);
const BINDING = /^const debug = .*\n/m;
const REQUIRE = /^const debug_1 = .*require\("debug"\).*\n/m;
const CALL = /^[ \t]*debug\(.*\);\n/gm;

const ignore = skipReason(
  !runs("node")
    ? "node is not installed"
    : source === undefined || !BINDING.test(source) || !REQUIRE.test(source)
    ? `http-proxy-agent's dist/index.js (with its debug logging) is not at "${PATH}" (npm's own dependencies)`
    : undefined,
) !== undefined;

/** Whether `node --check` accepts `text` as a CommonJS file. */
function nodeChecks(text: string): Promise<boolean> {
  return oracleAccepts({ "index.js": text }, "node", (dir) => ["--check", `${dir}/index.js`]);
}

Deno.test({
  name: "lift JS (http-proxy-agent): logging deleted from the module's top level and from method bodies " +
    "becomes delete_node steps (tier 1), replayed exactly; node accepts the end state",
  ignore,
  async fn() {
    const calls = source!.match(CALL) ?? [];
    assert.ok(calls.length >= 4, "the file as shipped logs in several methods");
    const after = source!.replace(CALL, "").replace(BINDING, "").replace(REQUIRE, "");
    assert.equal(await nodeChecks(after), true, "node: the end state");

    const { dir, diff } = gitDiff({ "index.js": source! }, { "index.js": after });
    const result = await liftIn(dir, { diff });
    assert.deepEqual(result.errors.map((issue) => issue.message), []);
    assert.equal(result.exact, true);
    const kinds = result.hunks.flatMap((hunk) => hunk.kinds);
    assert.ok(kinds.length >= calls.length + 2, `a step per deleted statement: ${kinds.join(", ")}`);
    assert.deepEqual([...new Set(kinds)], ["delete_node"], kinds.join(", "));
    assert.deepEqual([...new Set(result.hunks.flatMap((hunk) => hunk.tiers))], [1]);
    assert.deepEqual(await executeOnCopy({ "index.js": source! }, result.plan), { "index.js": after });
  },
});

Deno.test({
  name:
    "lift JS (http-proxy-agent): the debug binding and its require deleted while the calls stay is refused",
  ignore,
  async fn() {
    // with `require("debug")` left, the string "debug" keeps the name alive (JavaScript can look names up by string)
    const after = source!.replace(BINDING, "").replace(REQUIRE, "");
    assert.equal(await nodeChecks(after), true, "node --check: it parses; it fails only when it runs");
    const { dir, diff } = gitDiff({ "index.js": source! }, { "index.js": after });
    const result = await liftIn(dir, { diff });
    assert.equal(result.success, false);
    assert.ok(
      result.errors.some((issue) => /debug/.test(issue.message)),
      result.errors.map((issue) => `${issue.code}: ${issue.message}`).join("\n"),
    );
  },
});
