/**
 * The seven legacy operators on a real file (requests/auth.py of
 * psf__requests-1766), checked by their result text and by CPython.
 */

import assert from "node:assert/strict";
import type { OperatorFn } from "../../../engine/edit/operator.ts";
import { OPERATORS } from "../../../engine/ops/registry.ts";
import { CORPUS_SKIP } from "../../_support/corpus.ts";
import { assertPythonParses, PYTHON, runPythonJson } from "../../_support/python.ts";
import { corpusFile, makeRepo, rejection, type Repo } from "./_legacy_support.ts";

/** The legacy operators as a plan step runs them: their descriptors check the params first. */
const LEGACY_OPS: Record<string, OperatorFn> = Object.fromEntries(
  [...OPERATORS.values()].filter((op) => op.kind === "legacy").map((op) => [op.name, op.run]),
);

const ID = "psf__requests-1766";
const AUTH = "requests/auth.py";

async function authRepo(): Promise<{ repo: Repo; before: string; after: string }> {
  const file = await corpusFile(ID, AUTH);
  return { repo: await makeRepo({ [AUTH]: file.before }), ...file };
}

interface Tokens {
  names: Record<string, number>;
  strings: string[];
  comments: string[];
}

const TOKENS_SCRIPT = `
import io, json, sys, tokenize
out = []
for src in json.load(sys.stdin):
    names, strings, comments = {}, [], []
    for tok in tokenize.generate_tokens(io.StringIO(src).readline):
        if tok.type == tokenize.NAME:
            names[tok.string] = names.get(tok.string, 0) + 1
        elif tok.type == tokenize.STRING:
            strings.append(tok.string)
        elif tok.type == tokenize.COMMENT:
            comments.append(tok.string)
    out.append({"names": names, "strings": strings, "comments": comments})
print(json.dumps(out))
`;

function lines(text: string): string[] {
  return text.split("\n");
}

Deno.test({
  name: "replace_code: the gold patch of psf__requests-1766 as two exact replacements gives the after file",
  ignore: !!CORPUS_SKIP,
  async fn() {
    const { repo, after } = await authRepo();
    try {
      const ctx = repo.ctx();
      const out = await LEGACY_OPS.replace_code({
        file: AUTH,
        pattern: `base += ', qop=auth, nc=%s, cnonce="%s"' % (ncvalue, cnonce)`,
        replacement: `base += ', qop="auth", nc=%s, cnonce="%s"' % (ncvalue, cnonce)`,
      }, ctx);
      assert.deepEqual(out, { file: AUTH, layer: "exact", score: 1, start_line: 147, end_line: 147 });
      await LEGACY_OPS.replace_code({
        file: AUTH,
        pattern: "(method, path)\n        \n",
        replacement: "(method, path)\n\n",
      }, ctx);
      assert.equal(await repo.text(ctx, AUTH), after);
      assert.deepEqual(ctx.warnings, []);
      assert.deepEqual(ctx.records.map((record) => record.op), ["replace_code", "replace_code"]);
    } finally {
      await repo.cleanup();
    }
  },
});

Deno.test({
  name: "replace_code: an exact pattern found several times is an error listing every line",
  ignore: !!CORPUS_SKIP,
  async fn() {
    const { repo, before } = await authRepo();
    try {
      const ctx = repo.ctx(3);
      const { message, issues } = await rejection(() =>
        LEGACY_OPS.replace_code({
          file: AUTH,
          pattern: "        return r\n",
          replacement: "        return None\n",
        }, ctx)
      );
      assert.equal(issues[0].code, "pattern-ambiguous");
      assert.equal(issues[0].step, 3);
      assert.match(
        message,
        /^Pattern matches 4 places in "requests\/auth.py" \(exactly, lines 48, 55, 183, 194\)/,
      );
      assert.deepEqual(issues[0].candidates?.map((c) => c.line), [48, 55, 183, 194]);
      assert.equal(await repo.text(ctx, AUTH), before);
    } finally {
      await repo.cleanup();
    }
  },
});

Deno.test({
  name: "insert_code: before and after an anchor line, with bounds checked",
  ignore: !!CORPUS_SKIP,
  async fn() {
    const { repo, before } = await authRepo();
    try {
      const ctx = repo.ctx();
      assert.deepEqual(
        await LEGACY_OPS.insert_code(
          { file: AUTH, anchor_line: 14, position: "after", code: "import sys\n" },
          ctx,
        ),
        { file: AUTH, start_line: 15, end_line: 15 },
      );
      await LEGACY_OPS.insert_code({
        file: AUTH,
        anchor_line: 10,
        position: "before",
        code: "from __future__ import annotations",
      }, ctx);
      const text = await repo.text(ctx, AUTH);
      assert.deepEqual(lines(text).slice(9, 17), [
        "from __future__ import annotations",
        "import os",
        "import re",
        "import time",
        "import hashlib",
        "import logging",
        "import sys",
        "",
      ]);
      assert.equal(lines(text).length, lines(before).length + 2);
      await assertPythonParses(text);

      const { message, issues } = await rejection(() =>
        LEGACY_OPS.insert_code({ file: AUTH, anchor_line: 500, position: "after", code: "x = 1" }, repo.ctx())
      );
      assert.equal(message, `anchor_line 500 out of range: "requests/auth.py" has 194 lines`);
      assert.equal(issues[0].code, "line-out-of-range");
      assert.deepEqual(issues[0].path, ["params", "anchor_line"]);
    } finally {
      await repo.cleanup();
    }
  },
});

Deno.test({
  name: "insert_code: after the last line of a file without a final newline",
  async fn() {
    const repo = await makeRepo({ "a.py": "x = 1\ny = 2" });
    try {
      const ctx = repo.ctx();
      await LEGACY_OPS.insert_code({ file: "a.py", anchor_line: 2, position: "after", code: "z = 3" }, ctx);
      assert.equal(await repo.text(ctx, "a.py"), "x = 1\ny = 2\nz = 3");
    } finally {
      await repo.cleanup();
    }
  },
});

Deno.test({
  name: "delete_lines: removes an inclusive range; inverted and out-of-bounds ranges are errors",
  ignore: !!CORPUS_SKIP,
  async fn() {
    const { repo, before } = await authRepo();
    try {
      const ctx = repo.ctx();
      await LEGACY_OPS.delete_lines({ file: AUTH, start_line: 99, end_line: 100 }, ctx);
      const text = await repo.text(ctx, AUTH);
      const expected = lines(before);
      expected.splice(98, 2);
      assert.equal(text, expected.join("\n"));
      assert.ok(!text.includes("# XXX not implemented yet"));
      await assertPythonParses(text);

      const inverted = await rejection(() =>
        LEGACY_OPS.delete_lines({ file: AUTH, start_line: 60, end_line: 50 }, repo.ctx())
      );
      assert.equal(inverted.message, "start_line > end_line: 60 > 50");
      assert.equal(inverted.issues[0].code, "line-range-invalid");
      const past = await rejection(() =>
        LEGACY_OPS.delete_lines({ file: AUTH, start_line: 190, end_line: 200 }, repo.ctx())
      );
      assert.equal(past.message, `Lines 190-200 out of bounds: "requests/auth.py" has 194 lines`);
      assert.equal(past.issues[0].code, "line-out-of-range");
    } finally {
      await repo.cleanup();
    }
  },
});

Deno.test({
  name: "wrap_block: wraps lines in try/except at their indentation and indents the block",
  ignore: !!CORPUS_SKIP,
  async fn() {
    const { repo } = await authRepo();
    try {
      const ctx = repo.ctx();
      await LEGACY_OPS.wrap_block({
        file: AUTH,
        start_line: 169,
        end_line: 170,
        before_code: "try:",
        after_code: "except AttributeError:\n    pass",
      }, ctx);
      const text = await repo.text(ctx, AUTH);
      assert.deepEqual(lines(text).slice(166, 175), [
        "            # Consume content and release the original connection",
        "            # to allow our new request to reuse the same one.",
        "            try:",
        "                r.content",
        "                r.raw.release_conn()",
        "            except AttributeError:",
        "                pass",
        "            prep = r.request.copy()",
        "            prep.prepare_cookies(r.cookies)",
      ]);
      await assertPythonParses(text);
    } finally {
      await repo.cleanup();
    }
  },
});

Deno.test({
  name: "wrap_block: lines inside a multi-line string keep their indentation",
  async fn() {
    const source = 'def f():\n    x = """a\n  b"""\n    return x\n';
    const repo = await makeRepo({ "m.py": source });
    try {
      const ctx = repo.ctx();
      await LEGACY_OPS.wrap_block({
        file: "m.py",
        start_line: 2,
        end_line: 4,
        before_code: "if True:",
        after_code: "",
      }, ctx);
      const text = await repo.text(ctx, "m.py");
      assert.equal(text, 'def f():\n    if True:\n        x = """a\n  b"""\n        return x\n');
      await assertPythonParses(text);
    } finally {
      await repo.cleanup();
    }
  },
});

Deno.test({
  name: "rename_symbol: renames identifiers only, and warns about strings and comments",
  ignore: !!CORPUS_SKIP,
  async fn() {
    const { repo, before } = await authRepo();
    try {
      const ctx = repo.ctx(1);
      const out = await LEGACY_OPS.rename_symbol(
        { file: AUTH, old_name: "nonce", new_name: "server_nonce" },
        ctx,
      );
      const text = await repo.text(ctx, AUTH);
      // The local variable and its uses are renamed...
      assert.ok(text.includes("        server_nonce = self.chal['nonce']"));
      assert.ok(text.includes("        if server_nonce == self.last_nonce:"));
      assert.ok(text.includes("        self.last_nonce = server_nonce"));
      // ...but not the string key, the format strings or other identifiers containing the word.
      assert.ok(text.includes(`realm="%s", nonce="%s", uri="%s", `));
      assert.equal(text.match(/last_nonce/g)?.length, before.match(/last_nonce/g)?.length);
      assert.equal((out as { renamed: number }).renamed, 8);
      if (PYTHON) {
        // CPython's tokenizer as the oracle: every NAME token renamed, strings and comments untouched.
        const [was, now] = await runPythonJson<Tokens[]>(TOKENS_SCRIPT, [before, text]);
        assert.equal(was.names.nonce, 8);
        assert.equal(now.names.nonce, undefined);
        assert.equal(now.names.server_nonce, 8);
        assert.deepEqual(now.strings, was.strings);
        assert.deepEqual(now.comments, was.comments);
      }
      assert.equal(ctx.warnings.length, 1);
      assert.equal(ctx.warnings[0].code, "rename-skipped-text");
      assert.match(
        ctx.warnings[0].message,
        /^'nonce' also appears in strings \(\d+x\) and comments \(\d+x\)/,
      );
      await assertPythonParses(text);

      const missing = await rejection(() =>
        LEGACY_OPS.rename_symbol({ file: AUTH, old_name: "Authorization", new_name: "Auth" }, repo.ctx())
      );
      assert.equal(missing.issues[0].code, "symbol-not-found");
      assert.match(missing.issues[0].hint!, /only in strings/);
      const all = await rejection(() =>
        LEGACY_OPS.rename_symbol({ file: "all", old_name: "nonce", new_name: "n" }, repo.ctx())
      );
      assert.equal(all.issues[0].code, "file-required");
    } finally {
      await repo.cleanup();
    }
  },
});

Deno.test({
  name: "modify_function_signature: exact, whitespace-insensitive, and a qualified method name",
  ignore: !!CORPUS_SKIP,
  async fn() {
    const { repo } = await authRepo();
    try {
      const ctx = repo.ctx();
      await LEGACY_OPS.modify_function_signature({
        file: AUTH,
        func_name: "handle_401",
        old_signature: "def handle_401(self, r, **kwargs)",
        new_signature: "def handle_401(self, r, retries=1, **kwargs)",
      }, ctx);
      await LEGACY_OPS.modify_function_signature({
        file: AUTH,
        func_name: "HTTPDigestAuth.__init__",
        old_signature: "(self,username,  password)",
        new_signature: "(self, username, password, realm=None)",
      }, ctx);
      const text = await repo.text(ctx, AUTH);
      assert.ok(text.includes("    def handle_401(self, r, retries=1, **kwargs):\n"));
      assert.ok(
        text.includes(
          "    def __init__(self, username, password, realm=None):\n        self.username = username\n        self.password = password\n        self.last_nonce = ''",
        ),
      );
      assert.equal(ctx.warnings.length, 1);
      assert.equal(ctx.warnings[0].code, "match-whitespace");
      await assertPythonParses(text);

      const ambiguous = await rejection(() =>
        LEGACY_OPS.modify_function_signature({
          file: AUTH,
          func_name: "__call__",
          old_signature: "(self, r)",
          new_signature: "(self, request)",
        }, repo.ctx())
      );
      assert.equal(ambiguous.issues[0].code, "function-ambiguous");
      assert.deepEqual(ambiguous.issues[0].candidates?.map((c) => c.line), [36, 46, 53, 185]);
      const notFound = await rejection(() =>
        LEGACY_OPS.modify_function_signature({
          file: AUTH,
          func_name: "handle_402",
          old_signature: "(self)",
          new_signature: "(self, x)",
        }, repo.ctx())
      );
      assert.equal(notFound.issues[0].code, "function-not-found");
      assert.match(notFound.issues[0].hint!, /"handle_401"/);
      const wrong = await rejection(() =>
        LEGACY_OPS.modify_function_signature({
          file: AUTH,
          func_name: "handle_401",
          old_signature: "(self, response)",
          new_signature: "(self, x)",
        }, repo.ctx())
      );
      assert.equal(wrong.issues[0].code, "signature-not-found");
    } finally {
      await repo.cleanup();
    }
  },
});

Deno.test({
  name: "replace_function_body: a function and a method, re-indented to their blocks",
  ignore: !!CORPUS_SKIP,
  async fn() {
    const { repo } = await authRepo();
    try {
      const ctx = repo.ctx();
      await LEGACY_OPS.replace_function_body({
        file: AUTH,
        func_name: "_basic_auth_str",
        new_body:
          '"""Returns a Basic Auth string."""\nraw = "%s:%s" % (username, password)\nreturn "Basic " + b64encode(raw.encode("latin1")).strip().decode("latin1")\n',
      }, ctx);
      await LEGACY_OPS.replace_function_body({
        file: AUTH,
        func_name: "HTTPProxyAuth.__call__",
        new_body:
          "        r.headers['Proxy-Authorization'] = _basic_auth_str(\n            self.username, self.password)\n        return r",
      }, ctx);
      const text = await repo.text(ctx, AUTH);
      assert.ok(text.includes(
        'def _basic_auth_str(username, password):\n    """Returns a Basic Auth string."""\n    raw = "%s:%s" % (username, password)\n    return "Basic " + b64encode(raw.encode("latin1")).strip().decode("latin1")\n\n\nclass AuthBase',
      ));
      assert.ok(text.includes(
        "    def __call__(self, r):\n        r.headers['Proxy-Authorization'] = _basic_auth_str(\n            self.username, self.password)\n        return r\n\n\nclass HTTPDigestAuth",
      ));
      await assertPythonParses(text);
    } finally {
      await repo.cleanup();
    }
  },
});

Deno.test({
  name: "replace_function_body: one-line Python bodies and brace languages",
  async fn() {
    const repo = await makeRepo({
      "a.py": "class A:\n    def f(self): return 1\n",
      "b.js": "function add(a, b) {\n  return a + b;\n}\n",
    });
    try {
      const ctx = repo.ctx();
      await LEGACY_OPS.replace_function_body(
        { file: "a.py", func_name: "f", new_body: "x = 2\nreturn x" },
        ctx,
      );
      await LEGACY_OPS.replace_function_body({
        file: "b.js",
        func_name: "add",
        new_body: "{\n    const sum = a + b;\n    return sum;\n}",
      }, ctx);
      assert.equal(
        await repo.text(ctx, "a.py"),
        "class A:\n    def f(self):\n        x = 2\n        return x\n",
      );
      assert.equal(
        await repo.text(ctx, "b.js"),
        "function add(a, b) {\n  const sum = a + b;\n  return sum;\n}\n",
      );
    } finally {
      await repo.cleanup();
    }
  },
});

Deno.test({
  name: "legacy ops check their params and refuse paths outside the repository",
  async fn() {
    const repo = await makeRepo({ "a.py": "x = 1\n" });
    try {
      const missing = await rejection(() =>
        LEGACY_OPS.replace_code({ file: "a.py", pattern: "x" }, repo.ctx(2))
      );
      assert.equal(missing.message, "Step 2: Missing parameter 'replacement' for replace_code");
      const escape = await rejection(() =>
        LEGACY_OPS.delete_lines({ file: "../../etc/passwd", start_line: 1, end_line: 1 }, repo.ctx())
      );
      assert.equal(escape.issues[0].code, "path-outside-repo");
      const negative = await rejection(() =>
        LEGACY_OPS.insert_code(
          { file: "a.py", anchor_line: -3, position: "before", code: "y = 2" },
          repo.ctx(),
        )
      );
      assert.equal(negative.issues[0].code, "invalid-value");
      assert.match(negative.message, /'anchor_line' of insert_code must be at least 1, got the number -3/);
    } finally {
      await repo.cleanup();
    }
  },
});
