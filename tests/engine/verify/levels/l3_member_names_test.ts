/**
 * A member of an access on another object (`lexer->advance(...)`,
 * `os.OpenFile(...)`, `o.f`) is neither a definition nor a use of a free
 * function spelled the same (issue 27): deleting the free function while the
 * file still calls it bare is refused with `dangling-reference`, although the
 * member stays. The files are real (`tests/fixtures/names/README.md`:
 * tree-sitter-javascript's scanner, runc's cgroup file helpers).
 */

import assert from "node:assert/strict";
import { writeTree } from "../../../_support/multilang.ts";
import { verifyIn } from "../plan/_support.ts";
import "../../exec/_support.ts";

const FIXTURES = new URL("../../../fixtures/names/", import.meta.url);

/** Verify deleting `definition` from the fixture `fixture` (placed at `path`); the result's dangling references. */
async function deleteFrom(
  fixture: string,
  path: string,
  definition: RegExp,
  edit?: (text: string) => string,
) {
  const original = await Deno.readTextFile(new URL(fixture, FIXTURES));
  const text = edit ? edit(original) : original;
  const found = text.match(definition);
  assert.ok(found, `no ${definition} in ${fixture}`);
  const dir = await writeTree({ [path]: text });
  try {
    const result = await verifyIn(dir, [{
      op: "replace_code",
      params: { file: path, pattern: found[0], replacement: "" },
    }]);
    return { result, dangling: result.errors.filter((issue) => issue.code === "dangling-reference") };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("member names c: deleting advance() still called bare is refused although lexer->advance stays", async () => {
  const { result, dangling } = await deleteFrom(
    "tree_sitter_javascript_scanner.c",
    "src/scanner.c",
    /static void advance\(TSLexer \*lexer\) \{ lexer->advance\(lexer, false\); \}\n/,
  );
  assert.equal(result.passed, false);
  assert.equal(dangling.length, 1, JSON.stringify(result.errors));
  assert.match(dangling[0].message, /^Name "advance" is still used/);
});

Deno.test("member names c: deleting skip() that nothing calls bare still passes", async () => {
  const { result } = await deleteFrom(
    "tree_sitter_javascript_scanner.c",
    "src/scanner.c",
    /static void skip\(TSLexer \*lexer\) \{ lexer->advance\(lexer, true\); \}\n/,
    // the scanner calls skip(lexer) bare; drop those calls so the deletion is a valid one
    (text) => text.replaceAll(/\bskip\(lexer\);/g, "advance(lexer);"),
  );
  assert.deepEqual(result.errors, []);
});

Deno.test("member names go: deleting OpenFile still called bare is refused although os.OpenFile stays", async () => {
  for (const reference of ["call", "value"] as const) {
    // a selector that is not called (`open := os.OpenFile`) is a member access too
    const edit = reference === "value"
      ? (text: string) =>
        text.replace(
          "fd, err := os.OpenFile(path, flags, mode)",
          "open := os.OpenFile\n\tfd, err := open(path, flags, mode)",
        )
      : undefined;
    const { result, dangling } = await deleteFrom(
      "runc_cgroups_file.go",
      "libcontainer/cgroups/file.go",
      /func OpenFile\([\s\S]*?\n\}\n/,
      edit,
    );
    assert.equal(result.passed, false, reference);
    assert.equal(dangling.length, 1, JSON.stringify(result.errors));
    assert.match(dangling[0].message, /^Name "OpenFile" is still used/);
  }
});

Deno.test("member names javascript: an assignment to a member still keeps a same-spelled name alive", async () => {
  // `globalThis.f = ...` binds the global a bare `f()` reads: not a member access that can be ignored
  const text = "function helper() { return 1; }\nglobalThis.helper = () => 2;\nconsole.log(helper());\n";
  const dir = await writeTree({ "src/a.js": text });
  try {
    const result = await verifyIn(dir, [{
      op: "replace_code",
      params: { file: "src/a.js", pattern: "function helper() { return 1; }\n", replacement: "" },
    }]);
    assert.deepEqual(result.errors.filter((issue) => issue.code === "dangling-reference"), []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("member names java: a nested class reading an inherited field is not judged by an outer method's parameter", async () => {
  // the shape of guava's ByteStreams: `in` is FilterInputStream's field in LimitedInputStream, a parameter of
  // the outer `read`; inserting a method elsewhere loses nothing
  const text = `package p;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

public final class ByteStreams {
  public static int read(InputStream in, byte[] b, int off, int len) throws IOException {
    return in.read(b, off, len);
  }

  private static final class LimitedInputStream extends FilterInputStream {
    private long left;

    LimitedInputStream(InputStream in, long limit) {
      super(in);
      left = limit;
    }

    @Override
    public int read() throws IOException {
      if (left == 0) {
        return -1;
      }
      int result = in.read();
      if (result != -1) {
        --left;
      }
      return result;
    }
  }
}
`;
  const dir = await writeTree({ "src/p/ByteStreams.java": text });
  try {
    const result = await verifyIn(dir, [{
      op: "replace_code",
      params: {
        file: "src/p/ByteStreams.java",
        pattern: "  }\n}\n",
        replacement:
          "  }\n\n  public static long skip(InputStream in, long n) throws IOException {\n    return in.skip(n);\n  }\n}\n",
      },
    }]);
    assert.deepEqual(result.errors, []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
