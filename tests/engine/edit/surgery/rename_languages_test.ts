/**
 * `rename_identifier` beyond Python (issue 27, `rename_braced.ts`): on the
 * catalog's small realistic files of JavaScript, TypeScript, Go, Rust and
 * Java, a local, a parameter, a function or a type is renamed with exactly
 * its uses, and the result compiles (`node --check`, `go vet`, `rustc`,
 * `javac` where installed, the compilers in the full tier only; TypeScript
 * by its grammar); a rename that would
 * capture or be captured, and a member rename, are refused with the file
 * unchanged.
 */

import assert from "node:assert/strict";
import { type LanguageId, syntaxProblems, withTree } from "../../../../engine/parse/mod.ts";
import { slow } from "../../../_support/quick.ts";
import { skipReason } from "../../../_support/skips.ts";
import { assertNodeParses } from "../_edit_support.ts";
import { failing, run } from "./_support.ts";

const FIXTURES = new URL("../../../fixtures/catalog/", import.meta.url);

const FILES: Record<string, string> = {
  javascript: "src/cart.js",
  typescript: "src/cart.ts",
  go: "inventory/inventory.go",
  rust: "src/inventory.rs",
  java: "src/shop/Inventory.java",
};

function runs(program: string, args: string[]): boolean {
  try {
    return new Deno.Command(program, { args, stdout: "null", stderr: "null" }).outputSync().success;
  } catch {
    return false;
  }
}

/** The compiler checks are slow-marked (`tests/README.md`, "Two tiers"); the rename and its lines are not. */
const SLOW = slow("compilers (go vet, rustc, javac) on renamed files");

/** The languages checked by a compiler, each with the reason to skip (not installed), probed only when run. */
const COMPILED = ["go", "rust", "java"];
const COMPILER: Record<string, string | undefined> = SLOW.ignore ? {} : {
  go: runs("go", ["version"])
    ? undefined
    : skipReason("go not found: Go renames are checked by the grammar only"),
  rust: runs("rustc", ["--version"])
    ? undefined
    : skipReason("rustc not found: Rust renames are parsed only"),
  java: runs("javac", ["-version"]) ? undefined : skipReason("javac not found: Java renames are parsed only"),
};

/** The grammar's (and, for JavaScript, `node --check`'s) complaint about `text`, or undefined. */
async function syntaxComplaint(language: string, text: string): Promise<string | undefined> {
  const broken = await withTree(language as LanguageId, text, (tree) => syntaxProblems(tree).length > 0);
  if (broken) return "syntax error";
  if (language === "javascript") {
    return await assertNodeParses(text).then(() => undefined, (e) => (e as Error).message);
  }
  return undefined;
}

/** The compiler's complaint about `text` as the file of `language` (Go, Rust, Java), or undefined when it accepts it. */
async function compilerComplaint(language: string, text: string): Promise<string | undefined> {
  const dir = await Deno.makeTempDir({ prefix: "graphplan-rename-" });
  try {
    let command: Deno.Command;
    if (language === "go") {
      await Deno.writeTextFile(`${dir}/go.mod`, "module rename\n\ngo 1.19\n");
      await Deno.writeTextFile(`${dir}/inventory.go`, text);
      command = new Deno.Command("go", {
        args: ["vet", "."],
        cwd: dir,
        env: { GOCACHE: `${dir}/.cache`, GOPATH: `${dir}/.gopath`, GOFLAGS: "-mod=mod" },
        stdout: "piped",
        stderr: "piped",
      });
    } else if (language === "rust") {
      await Deno.writeTextFile(`${dir}/lib.rs`, text);
      command = new Deno.Command("rustc", {
        args: [
          "--edition",
          "2021",
          "--crate-type",
          "lib",
          "--emit=metadata",
          "-o",
          `${dir}/l.rmeta`,
          `${dir}/lib.rs`,
        ],
        stdout: "piped",
        stderr: "piped",
      });
    } else {
      await Deno.writeTextFile(`${dir}/Inventory.java`, text);
      command = new Deno.Command("javac", {
        args: ["-d", `${dir}/out`, `${dir}/Inventory.java`],
        stdout: "piped",
        stderr: "piped",
      });
    }
    const out = await command.output();
    return out.success
      ? undefined
      : new TextDecoder().decode(out.stderr) + new TextDecoder().decode(out.stdout);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** [language, target locator (file added), new name, lines that must read so after it]. */
const RENAMES: [string, Record<string, unknown>, string, string[]][] = [
  ["javascript", { kind: "function", name: "loadCart" }, "readCart", ["export function readCart(file) {"]],
  [
    "javascript",
    { kind: "parameter", name: "file", parent: { kind: "function", name: "loadCart" } },
    "path_",
    [
      '  const data = JSON.parse(readFileSync(path_, "utf8"));',
    ],
  ],
  ["typescript", { kind: "variable", name: "TAX_RATE" }, "VAT_RATE", ["    return sum * (1 + VAT_RATE);"]],
  ["go", { kind: "parameter", name: "count", parent: { kind: "method", name: "Add" } }, "n", [
    "\tif n < 0 {",
    "\titem.Count += n",
  ]],
  ["go", { kind: "struct", name: "Item" }, "Line", [
    "\titems map[string]Line",
    "func Describe(item Line) string {",
  ]],
  ["rust", { kind: "variable", name: "item", parent: { kind: "method", name: "add" } }, "entry", [
    "        entry.count += count;",
    "        entry.count",
  ]],
  ["rust", { kind: "struct", name: "Item" }, "Line", [
    "impl fmt::Display for Line {",
    "pub fn describe(item: &Line) -> String {",
  ]],
  ["java", { kind: "variable", name: "total" }, "sum", [
    "        return sum;",
    "        items.put(name, Math.min(sum, LIMIT));",
  ]],
  ["java", { kind: "parameter", name: "name", parent: { kind: "method", name: "describe" } }, "label_", [
    "        String label = label_.trim();",
  ]],
];

for (const [language, target, newName, expected] of RENAMES) {
  const file = FILES[language];
  const rename = async () => {
    const source = await Deno.readTextFile(new URL(`${language}/${file}`, FIXTURES));
    const { text } = await run("rename_identifier", { target: { file, ...target }, new_name: newName }, {
      [file]: source,
    });
    return text;
  };
  Deno.test(`rename_identifier ${language}: ${JSON.stringify(target.name)} to "${newName}" renames its uses`, async () => {
    const text = await rename();
    for (const line of expected) {
      assert.ok(text.split("\n").includes(line), `missing line ${JSON.stringify(line)}:\n${text}`);
    }
    assert.equal(await syntaxComplaint(language, text), undefined);
  });
  if (!COMPILED.includes(language)) continue;
  Deno.test({
    name: `rename_identifier ${language}: ${JSON.stringify(target.name)} to "${newName}" compiles`,
    ignore: SLOW.ignore || COMPILER[language] !== undefined,
    async fn() {
      assert.equal(await compilerComplaint(language, await rename()), undefined);
    },
  });
}

/** [language, target, new name, refusal code]. */
const REFUSALS: [string, Record<string, unknown>, string, string][] = [
  // the body's `item :=` would redeclare the renamed parameter in its own scope
  [
    "go",
    { kind: "parameter", name: "count", parent: { kind: "method", name: "Add" } },
    "item",
    "rename-collision",
  ],
  // `describe`'s `item.name` and `item.count` would mean the renamed local
  [
    "rust",
    { kind: "variable", name: "label", parent: { kind: "function", name: "describe" } },
    "item",
    "rename-collision",
  ],
  // the parameter `count` is used where `total` is in scope
  ["java", { kind: "variable", name: "total" }, "count", "rename-collision"],
  [
    "java",
    { kind: "method", name: "count", parent: { kind: "class", name: "Inventory" } },
    "amount",
    "rename-unsupported",
  ],
  // a top-level constant renamed to the name of a local used inside its scope
  ["typescript", { kind: "variable", name: "TAX_RATE" }, "sum", "rename-collision"],
  ["javascript", { kind: "variable", name: "TAX_RATE" }, "const", "rename-keyword"],
];

for (const [language, target, newName, code] of REFUSALS) {
  const file = FILES[language];
  Deno.test(`rename_identifier ${language}: "${target.name}" to "${newName}" is refused (${code})`, async () => {
    const source = await Deno.readTextFile(new URL(`${language}/${file}`, FIXTURES));
    const refused = await failing("rename_identifier", { target: { file, ...target }, new_name: newName }, {
      [file]: source,
    });
    assert.deepEqual(refused.codes, [code], refused.messages.join("; "));
    assert.equal(refused.text, source);
  });
}

Deno.test("rename_identifier javascript: an arrow's own parameter of the same name is another binding", async () => {
  const source =
    "const x = 1;\nexport const twice = (xs) => xs.map(x => x * 2);\nexport const plus = x + 1;\n";
  const { text } = await run("rename_identifier", {
    target: { file: "a.js", kind: "variable", name: "x" },
    new_name: "base",
  }, { "a.js": source });
  assert.equal(
    text,
    "const base = 1;\nexport const twice = (xs) => xs.map(x => x * 2);\nexport const plus = base + 1;\n",
  );
});
