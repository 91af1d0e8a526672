import assert from "node:assert/strict";
import { shellQuote } from "../../../agent/env/shell_quote.ts";

/** Words a path, a cwd, an argument or a JSON parameter may hold, each hostile to a careless quoting. */
const HOSTILE = [
  "",
  "plain.txt",
  "-n",
  "it's",
  "''",
  "'",
  `"double" quotes`,
  "two\nlines\n",
  "$HOME",
  "${PATH}",
  "$(touch /tmp/pwned)",
  "`id`",
  "back\\slash\\",
  "tab\there",
  "*.py ?[ab]",
  "~/x",
  "a;b|c&d>e<f",
  "!event",
  "héllo wörld ✓ 日本",
  "#not a comment",
  "=",
  "GIT_INDEX_FILE=/tmp/x y",
  `{"plan": [{"op": "rename", "to": "it's \`$x\`"}]}`,
];

/** What `shell -c 'printf %s "$1"' _ WORD` prints: the word as the shell read it back. */
async function readBack(shell: string, word: string): Promise<string> {
  const out = await new Deno.Command(shell, {
    args: ["-c", `printf '%s' ${word}`],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(
    out.code,
    0,
    `${shell} failed on ${JSON.stringify(word)}: ${new TextDecoder().decode(out.stderr)}`,
  );
  return new TextDecoder().decode(out.stdout);
}

for (const shell of ["sh", "bash"]) {
  Deno.test(`shellQuote: ${shell} reads every hostile word back exactly, as one word`, async () => {
    for (const text of HOSTILE) {
      assert.equal(await readBack(shell, shellQuote(text)), text, `quoted as ${shellQuote(text)}`);
      // one word: a second word after it stays separate, none is split or globbed away
      assert.equal(await readBack(shell, `${shellQuote(text)}'|'`), `${text}|`);
    }
  });
}

Deno.test("shellQuote: a word that means itself stays bare, anything else is single-quoted", () => {
  assert.equal(shellQuote("src/a_b-1.py"), "src/a_b-1.py");
  assert.equal(shellQuote("HEAD:path/x.py"), "HEAD:path/x.py");
  assert.equal(shellQuote(""), "''");
  assert.equal(shellQuote("a b"), "'a b'");
  assert.equal(shellQuote("it's"), `'it'\\''s'`);
});

Deno.test("shellQuote: the orchestrator has one quoting, no second copy of it", async () => {
  const copies: string[] = [];
  for (const dir of ["agent", "cli"]) {
    for await (const file of walk(new URL(`../../../${dir}/`, import.meta.url))) {
      const text = await Deno.readTextFile(file);
      if (/'\\\\''/.test(text) && !file.pathname.endsWith("agent/env/shell_quote.ts")) {
        copies.push(file.pathname);
      }
    }
  }
  assert.deepEqual(copies, []);
});

async function* walk(dir: URL): AsyncGenerator<URL> {
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isDirectory) yield* walk(new URL(`${entry.name}/`, dir));
    else if (entry.name.endsWith(".ts")) yield new URL(entry.name, dir);
  }
}
