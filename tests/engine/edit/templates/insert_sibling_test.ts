/**
 * `insert_sibling` in several languages: the code lands on its own lines
 * before or after the target at the target's indentation (tabs in Go, spaces
 * in Java and Rust); code that would not parse in place, or would not be a
 * sibling of the target, is refused with the file unchanged.
 */

import assert from "node:assert/strict";
import { apply, reject } from "./_support.ts";

const GO = "package stock\n\nfunc Add(count int) int {\n\ttotal := count\n\treturn total\n}\n";
const JAVA = "class Stock {\n    int add(int count) {\n        return count;\n    }\n}\n";
const RUST = "impl Stock {\n    fn add(&mut self, n: u32) {\n        self.n += n;\n    }\n}";

Deno.test("insert_sibling: statements, members and functions go beside the target at its indentation", async () => {
  const statement = await apply("insert_sibling", "s.go", GO, {
    target: { type: "sexp", file: "s.go", query: "(short_var_declaration) @s" },
    code: "if count < 0 {\n\treturn 0\n}",
  });
  assert.equal(
    statement.text,
    GO.replace("\ttotal := count\n", "\ttotal := count\n\tif count < 0 {\n\t\treturn 0\n\t}\n"),
  );
  const fn = await apply("insert_sibling", "s.go", GO, {
    target: { file: "s.go", kind: "function", name: "Add" },
    position: "before",
    code: "// Zero is no stock.\nconst Zero = 0\n",
  });
  assert.equal(fn.text, GO.replace("func Add", "// Zero is no stock.\nconst Zero = 0\nfunc Add"));
  const member = await apply("insert_sibling", "Stock.java", JAVA, {
    target: { file: "Stock.java", kind: "method", name: "add", parent: { kind: "class", name: "Stock" } },
    code: "int none() {\n    return 0;\n}",
  });
  assert.equal(member.text, JAVA.replace("    }\n}", "    }\n    int none() {\n        return 0;\n    }\n}"));
  // The file's last line has no line break: the code still gets a line of its own.
  const last = await apply("insert_sibling", "s.rs", RUST, {
    target: { type: "sexp", file: "s.rs", query: "(impl_item) @i" },
    code: "fn main() {}",
  });
  assert.equal(last.text, RUST + "\nfn main() {}\n");
});

Deno.test("insert_sibling: broken code, code that is no sibling, a bad position are refused unchanged", async () => {
  const target = {
    file: "Stock.java",
    kind: "method",
    name: "add",
    parent: { kind: "class", name: "Stock" },
  };
  const broken = await reject("insert_sibling", "Stock.java", JAVA, {
    target,
    code: "int none() {\n    return 0;",
  });
  assert.match(
    broken[0].message,
    /does not parse in place after the "method_declaration": a new syntax error/,
  );
  const stray = await reject("insert_sibling", "s.go", GO, {
    target: { type: "sexp", file: "s.go", query: "(short_var_declaration) @s" },
    code: "func Other() {}",
  });
  assert.equal(stray[0].code, "template-precondition");
  const where = await reject("insert_sibling", "Stock.java", JAVA, {
    target,
    code: "int x;",
    position: "inside",
  });
  assert.equal(where[0].code, "param-invalid");
});

Deno.test("insert_sibling: a second application is a no-op; a Python assignment stands for its statement", async () => {
  const once = await apply("insert_sibling", "m.py", "def f(x):\n    y = x\n    return y\n", {
    target: { file: "m.py", kind: "assignment", name: "y", parent: { kind: "function", name: "f" } },
    code: "y += 1",
  });
  assert.equal(once.text, "def f(x):\n    y = x\n    y += 1\n    return y\n");
  const twice = await apply("insert_sibling", "m.py", once.text, {
    target: {
      file: "m.py",
      kind: "assignment",
      name: "y",
      parent: { kind: "function", name: "f" },
      index: 0,
    },
    code: "y += 1",
  });
  assert.equal(twice.text, once.text);
  assert.deepEqual(twice.warnings.map((w) => w.code), ["already-present"]);
});
