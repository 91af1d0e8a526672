/**
 * `asciiOnly` (tools/bundle.ts) rewrites the bundle's non-ASCII characters
 * as escapes. V8 is the oracle: a program run before and after the rewrite
 * must compute the same values. (An escape does change raw text, `String.raw`
 * of a template and a regular expression's `.source`; the bundle tests run
 * the rewritten bundle itself.)
 */

import assert from "node:assert/strict";
import { asciiOnly } from "../../tools/bundle.ts";

/** Run `body` (a function body that returns a value) and give back its result as JSON. */
function evaluate(body: string): string {
  return JSON.stringify(new Function(body)(), (_, value) => value instanceof RegExp ? String(value) : value);
}

const PROGRAM = String.raw`
  // Tipus d'unió invàlid: a comment with accents, an arrow → and an emoji 🙂
  const café = "crème brûlée";
  const escaped = "\é\ñ";
  const backslashThenAccent = "\\é";
  const twoBackslashes = "\\\é";
  const greek = 'Ωμέγα';
  const astral = "🙂 x";
  const cooked = ${"`"}résumé ${"${"}café.length}${"`"};
  const inClass = /[àâä]+/.exec("xàâäy")[0];
  const unicodeAstral = /^.$/u.test("🙂");
  const astralClass = /[🙂😀]/u.exec("a😀b")[0];
  const identifierLength = café.length;
  return { café, escaped, backslashThenAccent, twoBackslashes, greek, astral, cooked, inClass,
    unicodeAstral, astralClass, identifierLength, matches: /ü\u00fc/.test("üü") };
`;

Deno.test("asciiOnly leaves only ASCII and a program computes the same values after it", () => {
  const rewritten = asciiOnly(PROGRAM);
  assert.doesNotMatch(rewritten, /[\u0080-\uffff]/);
  const before = evaluate(PROGRAM);
  assert.equal(evaluate(rewritten), before);
  // The oracle is not vacuous: the values hold the characters that were escaped.
  const values = JSON.parse(before);
  assert.equal(values["café"], "crème brûlée");
  assert.equal(values.escaped, "éñ");
  assert.equal(values.backslashThenAccent, "\\é");
  assert.equal(values.twoBackslashes, "\\é");
  assert.equal(values.astral, "🙂 x");
  assert.equal(values.cooked, "résumé 12");
  assert.equal(values.unicodeAstral, true);
  assert.equal(values.astralClass, "😀");
  assert.equal(values.matches, true);
});

Deno.test("asciiOnly leaves an ASCII text as it is", () => {
  const text = 'const a = "\\u00e9\\\\"; // plain\n';
  assert.equal(asciiOnly(text), text);
});
