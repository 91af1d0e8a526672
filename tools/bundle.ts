/**
 * Builds the one-file bundle `dist/graphplan.js` (or `--out FILE`): the
 * portable form of GraphPlan, run by any `deno` executable with no file
 * beside it.
 *
 * `deno bundle` of `main.ts`, then two rewrites of its output that make every
 * start cheaper (the CLI's, and each pool worker's):
 * - every character outside ASCII that survived bundling (an accent in a
 *   kept comment, an arrow or a non-Latin script in a string) is written as
 *   a `\uXXXX` escape. Deno hands an all-ASCII source to V8 without copying
 *   it; any other character costs a converted copy of the whole file at
 *   every start (measured on the 3.5 MB bundle: ~860 more page faults,
 *   10-13 ms), and a character above U+00FF makes V8 store the source two
 *   bytes per character (measured: +60 ms and +70 MB on the 23 MB
 *   uncompressed-grammar bundle). The escapes mean the same in strings,
 *   regular expressions, template literals (their cooked text),
 *   identifiers and comments;
 * - the `require` that `deno bundle` gives CommonJS dependencies (the `yaml`
 *   package asks it for `node:process` and `node:buffer`) is created on
 *   first use instead of from a static `node:module` import, which would
 *   start Node's compatibility layer (~11 ms) at every start;
 * - a static `import X from "node:Y"` of an ES module dependency (log-update
 *   and its helpers import `node:process` and `node:os`) becomes a stand-in
 *   that loads the built-in on first use, for the same reason.
 * The embedded `.wasm` files need no rewrite: they are imported as base64
 * text (see tools/pack_grammars.ts) and decoded by grammars/mod.ts.
 * The result is renamed into place, so a reader never sees half a bundle.
 *
 * Usage: `deno run -A tools/bundle.ts [--out FILE]` (the `bundle` task).
 *
 * @module
 */

const ROOT = new URL("../", import.meta.url).pathname;

/** Build the bundle of `main.ts` at `out` (absolute, or relative to the current directory). */
export async function buildBundle(out: string): Promise<string> {
  const slash = out.lastIndexOf("/");
  if (slash > 0) await Deno.mkdir(out.slice(0, slash), { recursive: true });
  const temp = `${out}.${Deno.pid}.${Date.now()}.tmp.js`;
  try {
    const result = await new Deno.Command(Deno.execPath(), {
      args: ["bundle", "--quiet", "--platform", "deno", "main.ts", "-o", temp],
      cwd: ROOT,
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (!result.success) {
      throw new Error(
        `"deno bundle" failed (exit ${result.code}): ${new TextDecoder().decode(result.stderr).trim()}`,
      );
    }
    const text = await Deno.readTextFile(temp);
    await Deno.writeTextFile(temp, lazyNodeImports(lazyRequire(asciiOnly(text))));
    await Deno.rename(temp, out);
    return out;
  } finally {
    await Deno.remove(temp).catch(() => {});
  }
}

/**
 * `text` with every UTF-16 code unit above 0x7F written as a `\uXXXX` escape
 * (a character outside the BMP becomes its two surrogate escapes). A
 * backslash-escaped character (`"\é"`, which means `"é"`) loses the
 * backslash, so the result is `\u00e9` and not an escaped backslash.
 */
export function asciiOnly(text: string): string {
  return text.replace(/(\\*)([\u0080-\uffff])/g, (_, slashes: string, ch: string) => {
    const kept = slashes.length % 2 === 1 ? slashes.slice(1) : slashes;
    return `${kept}\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`;
  });
}

/** The prologue `deno bundle` (2.x) writes when a CommonJS dependency calls `require`. */
const EAGER_REQUIRE = `import { createRequire as __deno_internal_createRequire } from "node:module";
var __require = __deno_internal_createRequire(import.meta.url);
`;

const LAZY_REQUIRE = `var __deno_internal_require;
var __require = (id) =>
  (__deno_internal_require ??= process.getBuiltinModule("node:module").createRequire(import.meta.url))(id);
`;

/**
 * `text` with the bundle's eager `require` prologue replaced by one that
 * loads `node:module` when `require` is first called. A bundle without that
 * prologue is returned unchanged (the bundle tests check that no
 * `node:module` import is left).
 */
export function lazyRequire(text: string): string {
  return text.replace(EAGER_REQUIRE, LAZY_REQUIRE);
}

/**
 * The stand-in for a Node built-in: a callable proxy
 * that asks `process.getBuiltinModule` for the module on first use and
 * forwards every read, write, `in` and call to it.
 */
const LAZY_NODE = `var __lazy_node = (spec) => {
  let real;
  const load = () => (real ??= process.getBuiltinModule(spec));
  return new Proxy(() => {}, {
    get: (_, key) => Reflect.get(load(), key),
    set: (_, key, value) => Reflect.set(load(), key, value),
    has: (_, key) => Reflect.has(load(), key),
    apply: (_, self, args) => Reflect.apply(load(), self, args),
  });
};
`;

/**
 * `text` with each top-level default or namespace import of a Node built-in
 * (`import X from "node:Y";`, `import * as X from "node:Y";`) replaced by a
 * {@linkcode LAZY_NODE} stand-in, so the bundle starts without Node's
 * compatibility layer and loads a built-in when code first touches it.
 * Named imports are left as they are: a named export may be a primitive
 * (`sep` of node:path), which no proxy can stand in for; the bundle tests
 * fail on any static `node:` import that is left.
 */
export function lazyNodeImports(text: string): string {
  let found = false;
  const replaced = text.replace(
    /^import (?:\* as )?([\w$]+) from "(node:[^"]+)";$/gm,
    (_, local: string, spec: string) => {
      found = true;
      return `var ${local} = __lazy_node(${JSON.stringify(spec)});`;
    },
  );
  return found ? LAZY_NODE + replaced : text;
}

if (import.meta.main) {
  const at = Deno.args.indexOf("--out");
  const out = at === -1 ? `${ROOT}dist/graphplan.js` : Deno.args[at + 1];
  if (!out) {
    console.error("bundle: --out needs a file path");
    Deno.exit(2);
  }
  const started = performance.now();
  await buildBundle(out);
  const size = (await Deno.stat(out)).size;
  console.log(
    `bundle: ${out} (${(size / 1e6).toFixed(1)} MB) in ${Math.round(performance.now() - started)} ms`,
  );
}
