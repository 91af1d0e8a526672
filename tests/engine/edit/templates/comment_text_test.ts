/**
 * `replace_comment` on small real-shaped files of several languages: the
 * comment's whole text is replaced and nothing else; a text that would not
 * parse back as one comment at the same place, or a target that is not a
 * comment, is refused with the file unchanged.
 */

import assert from "node:assert/strict";
import { apply, reject } from "./_support.ts";

const GO = "package stock\n\n// Add stores count.\nfunc Add(count int) int {\n\treturn count // no cap\n}\n";
const RUST = "/// One stock line.\npub struct Item {\n    /* the count */\n    pub count: u32,\n}\n";
const JAVA =
  "class Stock {\n    /** Store count. */\n    int add(int count) {\n        return count;\n    }\n}\n";

Deno.test("replace_comment: Go line, Rust doc and block, Java doc comments are rewritten in place", async () => {
  const go = await apply("replace_comment", "s.go", GO, {
    target: { file: "s.go", kind: "comment", index: 0 },
    text: "// Add stores count more, uncapped.",
  });
  assert.equal(go.text, GO.replace("// Add stores count.", "// Add stores count more, uncapped."));
  assert.equal(go.output.changed, true);

  const rust = await apply("replace_comment", "s.rs", RUST, {
    target: { type: "sexp", file: "s.rs", query: "(line_comment) @d" },
    text: "/// One stock line: a name's count.",
  });
  assert.equal(rust.text, RUST.replace("/// One stock line.", "/// One stock line: a name's count."));
  const block = await apply("replace_comment", "s.rs", RUST, {
    target: { type: "sexp", file: "s.rs", query: "(block_comment) @c" },
    text: "/* the count,\n       never negative */",
  });
  assert.equal(block.text, RUST.replace("/* the count */", "/* the count,\n       never negative */"));

  const java = await apply("replace_comment", "Stock.java", JAVA, {
    target: { file: "Stock.java", kind: "comment", parent: { kind: "class", name: "Stock" } },
    text: "/**\n     * Store count more.\n     */",
  });
  assert.equal(java.text, JAVA.replace("/** Store count. */", "/**\n     * Store count more.\n     */"));
});

Deno.test("replace_comment: the same text is a no-op with already-present", async () => {
  const same = await apply("replace_comment", "s.go", GO, {
    target: { file: "s.go", kind: "comment", index: 1 },
    text: "// no cap",
  });
  assert.equal(same.text, GO);
  assert.deepEqual(same.warnings.map((w) => w.code), ["already-present"]);
});

Deno.test("replace_comment: a text that is not one comment, or a non-comment target, is refused unchanged", async () => {
  // A line comment gaining a second line would turn code into the line after it.
  const broken = await reject("replace_comment", "s.go", GO, {
    target: { file: "s.go", kind: "comment", index: 1 },
    text: "// no cap\nreturn 0",
  });
  assert.deepEqual(broken.map((i) => i.code), ["template-precondition"]);
  assert.match(broken[0].message, /does not parse as one comment in go/);
  // Markers missing: the text is code, not a comment.
  const bare = await reject("replace_comment", "Stock.java", JAVA, {
    target: { file: "Stock.java", kind: "comment", parent: { kind: "class", name: "Stock" } },
    text: "Store count.",
  });
  assert.deepEqual(bare.map((i) => i.code), ["template-precondition"]);
  const code = await reject("replace_comment", "s.go", GO, {
    target: { file: "s.go", kind: "function", name: "Add" },
    text: "// Add",
  });
  assert.match(code[0].message, /must be a comment, got a "function_declaration"/);
});
