/**
 * L3 in CommonJS: `exports.f = f` writes a property of the module's exports
 * and never binds a free `f`, so it does not keep a deleted function alive
 * (it did: a deletion of `stripColor` from commander's `lib/help.js`, still
 * called and exported, passed v3's probe). The file: postcss-selector-parser
 * 7's `dist/selectors/guards.js` as npm installs it (TypeScript's CommonJS
 * output, `exports.isNode = isNode;` above the hoisted `function isNode`).
 * node is the oracle: it loads the module before the edit and throws a
 * ReferenceError after it.
 */

import assert from "node:assert/strict";
import { skipReason } from "../../../_support/skips.ts";
import { oracleAccepts } from "../../../_support/oracle.ts";
import { editAndCheck, readOrUndefined, replace, runs } from "./_support.ts";

const NPM_ROOT = (() => {
  try {
    const out = new Deno.Command("npm", { args: ["root", "-g"], stdout: "piped", stderr: "null" })
      .outputSync();
    return out.success ? new TextDecoder().decode(out.stdout).trim() : undefined;
  } catch {
    return undefined;
  }
})();
const DIR = `${NPM_ROOT}/npm/node_modules/postcss-selector-parser/dist/selectors`;
const guards = readOrUndefined(`${DIR}/guards.js`);
const types = readOrUndefined(`${DIR}/types.js`);
const IS_NODE = /^function isNode\(node\) \{\n[^]*?\n\}\n/m;

const ignore = skipReason(
  !runs("node")
    ? "node is not installed"
    : guards === undefined || types === undefined || !IS_NODE.test(guards)
    ? `postcss-selector-parser's guards.js (with isNode) is not under "${DIR}" (npm's own dependencies)`
    : undefined,
) !== undefined;

/** Whether node loads `guards` beside `types.js` and its `isAttribute` answers. */
function nodeLoads(text: string): Promise<boolean> {
  return oracleAccepts({ "guards.js": text, "types.js": types! }, "node", (dir) => [
    "-e",
    `const g = require(${JSON.stringify(`${dir}/guards.js`)}); ` +
    `if (g.isAttribute({ type: "attribute" }) !== true) process.exit(1);`,
  ]);
}

Deno.test({
  name: "L3 CommonJS (postcss-selector-parser guards.js): a function still called and exported is not kept " +
    "alive by exports.f = f; node agrees",
  ignore,
  async fn() {
    const definition = guards!.match(IS_NODE)![0];
    assert.equal(await nodeLoads(guards!), true, "node: the module as shipped");
    assert.equal(await nodeLoads(guards!.replace(definition, "")), false, "node: isNode deleted");
    const step = await editAndCheck({ "guards.js": guards! }, "guards.js", replace(definition, ""));
    await Deno.remove(step.dir, { recursive: true });
    const lost = [...step.errors, ...step.warnings].filter((issue) => issue.code === "dangling-reference");
    assert.ok(lost.some((issue) => issue.message.includes('"isNode"')), "dangling-reference names isNode");

    // the export line alone is no definition: deleting it loses nothing
    const exported = "exports.isNode = isNode;\n";
    assert.equal(await nodeLoads(guards!.replace(exported, "")), true, "node: the export line deleted");
    const kept = await editAndCheck({ "guards.js": guards! }, "guards.js", replace(exported, ""));
    await Deno.remove(kept.dir, { recursive: true });
    assert.deepEqual(
      [...kept.errors, ...kept.warnings].filter((issue) => issue.code === "dangling-reference"),
      [],
    );
  },
});
