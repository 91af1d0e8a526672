/**
 * Layered matching for replace_code (engine/edit/fuzzy.ts): the difflib-like
 * ratio against CPython's difflib, and each layer through the operator on a
 * real file, with its warning text, plus the ambiguity errors.
 */

import assert from "node:assert/strict";
import { findText, similarity } from "../../../engine/edit/fuzzy.ts";
import { LEGACY_OPS } from "../../../engine/edit/legacy/mod.ts";
import { CORPUS_SKIP, corpusBeforeFiles } from "../../_support/corpus.ts";
import { assertPythonParses, PYTHON_SKIP, runPythonJson } from "../../_support/python.ts";
import { corpusFile, makeRepo, rejection } from "./_legacy_support.ts";

const AUTH = "requests/auth.py";

/** A small deterministic PRNG (mulberry32). */
function prng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

Deno.test({
  name: "similarity equals difflib.SequenceMatcher(autojunk=False).ratio() on random and real text",
  ignore: !!(PYTHON_SKIP || CORPUS_SKIP),
  async fn() {
    const random = prng(42);
    const pairs: [string, string][] = [];
    const alphabet = "abc de_f(x)\n  ";
    const word = () =>
      Array.from(
        { length: Math.floor(random() * 80) },
        () => alphabet[Math.floor(random() * alphabet.length)],
      ).join("");
    for (let i = 0; i < 200; i++) pairs.push([word(), word()]);
    // Real code: windows of corpus files against their neighbours.
    const files = (await corpusBeforeFiles(".py")).slice(0, 20);
    for (const file of files) {
      const lines = file.text.split("\n");
      for (let i = 0; i + 6 < lines.length && i < 60; i += 7) {
        pairs.push([lines.slice(i, i + 3).join("\n"), lines.slice(i + 1, i + 4).join("\n")]);
      }
    }
    const expected = await runPythonJson<number[]>(
      `import difflib, json, sys
print(json.dumps([difflib.SequenceMatcher(None, a, b, autojunk=False).ratio() for a, b in json.load(sys.stdin)]))`,
      pairs,
    );
    pairs.forEach(([a, b], i) => {
      assert.ok(
        Math.abs(similarity(a, b) - expected[i]) < 1e-12,
        `pair ${i}: ${similarity(a, b)} vs ${expected[i]}`,
      );
    });
    assert.equal(similarity("", ""), 1);
  },
});

async function authRepo() {
  const file = await corpusFile("psf__requests-1766", AUTH);
  return { repo: await makeRepo({ [AUTH]: file.before }), before: file.before };
}

Deno.test({
  name: "layer 2: a pattern differing only in blanks matches, with a warning naming the text",
  ignore: !!CORPUS_SKIP,
  async fn() {
    const { repo, before } = await authRepo();
    try {
      const ctx = repo.ctx(4);
      const out = await LEGACY_OPS.replace_code({
        file: AUTH,
        pattern: "        realm  =  self.chal['realm']   \n        nonce = self.chal['nonce']\n",
        replacement: "        realm = self.chal.get('realm')\n        nonce = self.chal['nonce']\n",
      }, ctx);
      assert.equal((out as { layer: string }).layer, "whitespace");
      const text = await repo.text(ctx, AUTH);
      assert.equal(text, before.replace("realm = self.chal['realm']", "realm = self.chal.get('realm')"));
      assert.equal(ctx.warnings.length, 1);
      assert.deepEqual(ctx.warnings[0], {
        code: "match-whitespace",
        severity: "warning",
        message:
          `Pattern not found exactly; matched ignoring whitespace at lines 70-71 of "requests/auth.py": "realm = self.chal['realm'] nonce = self.chal['nonce']"`,
        step: 4,
        file: AUTH,
        line: 70,
        path: ["params", "pattern"],
      });
    } finally {
      await repo.cleanup();
    }
  },
});

Deno.test({
  name: "layer 2: a one-line pattern matches inside a line, blanks next to punctuation ignored",
  ignore: !!CORPUS_SKIP,
  async fn() {
    const { repo, before } = await authRepo();
    try {
      const ctx = repo.ctx();
      await LEGACY_OPS.replace_code({
        file: AUTH,
        pattern: "hashlib.sha1( s ).hexdigest() [:16]",
        replacement: "hashlib.sha256(s).hexdigest()[:16]",
      }, ctx);
      const text = await repo.text(ctx, AUTH);
      assert.equal(
        text,
        before.replace("(hashlib.sha1(s).hexdigest()[:16])", "(hashlib.sha256(s).hexdigest()[:16])"),
      );
      assert.equal(ctx.warnings[0].code, "match-whitespace");
      assert.equal(ctx.warnings[0].line, 122);
    } finally {
      await repo.cleanup();
    }
  },
});

Deno.test({
  name: "layer 3: a pattern copied without its indentation matches and the replacement is re-indented",
  ignore: !!CORPUS_SKIP,
  async fn() {
    const { repo, before } = await authRepo();
    try {
      const ctx = repo.ctx();
      await LEGACY_OPS.replace_code({
        file: AUTH,
        pattern: "if algorithm is None:\n    _algorithm = 'MD5'\nelse:\n    _algorithm = algorithm.upper()",
        replacement:
          "if algorithm is None:\n    _algorithm = 'MD5'\nelse:\n    _algorithm = algorithm.upper().strip()",
      }, ctx);
      const text = await repo.text(ctx, AUTH);
      assert.equal(
        text,
        before.replace(
          "            _algorithm = algorithm.upper()\n",
          "            _algorithm = algorithm.upper().strip()\n",
        ),
      );
      assert.equal(ctx.warnings[0].code, "match-indentation");
      assert.match(
        ctx.warnings[0].message,
        /^Pattern not found exactly; matched at a different indentation at lines 76-79 of/,
      );
      await assertPythonParses(text);
    } finally {
      await repo.cleanup();
    }
  },
});

Deno.test({
  name: "layer 4: a pattern with a typo matches fuzzily (>= 80%) and the warning gives the similarity",
  ignore: !!CORPUS_SKIP,
  async fn() {
    const { repo, before } = await authRepo();
    try {
      const ctx = repo.ctx();
      const out = await LEGACY_OPS.replace_code({
        file: AUTH,
        pattern: "if p_parsed.query:\n    path += '?' + p_parsed.querry",
        replacement:
          "if p_parsed.query:\n    path += '?' + p_parsed.query\nlog.debug('digest path %s', path)",
      }, ctx);
      const score = (out as { score: number }).score;
      assert.ok(score >= 0.8 && score < 1, `score ${score}`);
      const text = await repo.text(ctx, AUTH);
      assert.equal(
        text,
        before.replace(
          "            path += '?' + p_parsed.query\n",
          "            path += '?' + p_parsed.query\n        log.debug('digest path %s', path)\n",
        ),
      );
      assert.equal(ctx.warnings[0].code, "match-fuzzy");
      assert.equal(
        ctx.warnings[0].message,
        `Pattern not found exactly; matched by fuzzy matching at lines 103-104 of "requests/auth.py", ${
          Math.round(score * 100)
        }% similar: "if p_parsed.query: path += '?' + p_parsed.query"`,
      );
      await assertPythonParses(text);
    } finally {
      await repo.cleanup();
    }
  },
});

Deno.test({
  name: "no layer matches: pattern-not-found, with the closest text as a hint",
  ignore: !!CORPUS_SKIP,
  async fn() {
    const { repo, before } = await authRepo();
    try {
      const ctx = repo.ctx();
      const { message, issues } = await rejection(() =>
        LEGACY_OPS.replace_code({
          file: AUTH,
          pattern: "if qop is None:\n    respdig = compute_response(HA1, HA2, nonce)",
          replacement: "pass",
        }, ctx)
      );
      assert.equal(issues[0].code, "pattern-not-found");
      assert.equal(
        message,
        `Pattern not found in "requests/auth.py": "if qop is None: respdig = compute_response(HA1, HA2, nonce)"`,
      );
      assert.match(
        issues[0].hint!,
        /^the closest text \(\d+% similar, below the 80% needed\) is at lines? \d+/,
      );
      assert.equal(await repo.text(ctx, AUTH), before);
    } finally {
      await repo.cleanup();
    }
  },
});

Deno.test("layer 4: two equally similar places are an error listing both", async () => {
  const source = [
    "def a():",
    "    x = compute(1)",
    "    return x + 1",
    "",
    "",
    "def b():",
    "    x = compute(2)",
    "    return x + 2",
    "",
  ].join("\n");
  const repo = await makeRepo({ "m.py": source });
  try {
    const ctx = repo.ctx();
    const { message, issues } = await rejection(() =>
      LEGACY_OPS.replace_code(
        { file: "m.py", pattern: "x = compute(3)\nreturn x + 3", replacement: "pass" },
        ctx,
      )
    );
    assert.equal(issues[0].code, "pattern-ambiguous");
    assert.match(message, /^Pattern matches 2 places in "m.py" \(fuzzy, equally similar, lines 2-3, 7-8\)/);
    assert.deepEqual(issues[0].candidates?.map((c) => [c.line, c.text]), [[2, "x = compute(1)"], [
      7,
      "x = compute(2)",
    ]]);
    assert.equal(await repo.text(ctx, "m.py"), source);
  } finally {
    await repo.cleanup();
  }
});

Deno.test("layer 4: a clearly better candidate wins over a weaker one", () => {
  const source =
    "def a():\n    value = compute(1, 2)\n    return value\n\n\ndef b():\n    other = build(9)\n    return other\n";
  const found = findText(
    source,
    "value = compute(1, 3)\nreturn value",
    "value = compute(1, 3)\nreturn value",
  );
  assert.equal(found.match?.layer, "fuzzy");
  assert.equal(found.match?.startLine, 2);
  assert.equal(found.match?.replacement, "    value = compute(1, 3)\n    return value");
});

Deno.test("layers 2 and 3: two equal places are ambiguous, not the first", () => {
  const source = "if x:\n    y  = 1\nif z:\n    y =  1\nif w:\n        y = 1\n";
  const ws = findText(source, "    y = 1 \n", "    y = 2");
  assert.equal(ws.match, undefined);
  assert.deepEqual(ws.ambiguous?.map((m) => [m.layer, m.startLine]), [["whitespace", 2], ["whitespace", 4]]);
  // The same indentation beats a shifted one: line 6 would only be a layer-3 match.
  const one = findText("if x:\n    y  = 1\nif w:\n        y = 1\n", "    y = 1 \n", "    y = 2");
  assert.deepEqual([one.match?.layer, one.match?.startLine], ["whitespace", 2]);
  const exact = findText("a = 1\na = 1\n", "a = 1", "a = 2");
  assert.deepEqual(exact.ambiguous?.map((m) => [m.layer, m.startLine]), [["exact", 1], ["exact", 2]]);
});

Deno.test("exact matching works on CRLF files with LF patterns, and keeps CRLF", () => {
  const source = "def f():\r\n    return 1\r\n";
  const found = findText(source, "def f():\n    return 1", "def f():\n    return 2");
  assert.equal(found.match?.layer, "exact");
  assert.equal(found.match?.replacement, "def f():\r\n    return 2");
});

Deno.test("a huge pattern is matched exactly or not at all, without a slow fuzzy search", () => {
  const huge = "x = 1\n".repeat(2_000_000);
  const found = findText("y = 2\n", huge, "z");
  assert.equal(found.match, undefined);
  assert.match(found.skipped ?? "", /longer than/);
});
