/**
 * Orchestration reads as named phases of about a screen each (issue 29): no
 * function or method in `agent/` or `cli/` is longer than {@linkcode LIMIT}
 * lines, measured on the tree-sitter parse of every file.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { functionSpans } from "../_support/function_lengths.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const LIMIT = 80;

/**
 * Long functions being moved by other work, cut once they land (each must
 * still be over the limit: a cut one is taken off this list).
 */
const PENDING = new Set<string>([]);

/** The repository-relative `.ts` files under `dir`. */
async function tsFiles(dir: string): Promise<string[]> {
  const files: string[] = [];
  for await (const entry of Deno.readDir(`${ROOT}${dir}`)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) files.push(...await tsFiles(path));
    else if (entry.name.endsWith(".ts")) files.push(path);
  }
  return files.sort();
}

Deno.test(`function length: no function in agent/ or cli/ is over ${LIMIT} lines`, async () => {
  const long: string[] = [];
  const pending = new Set<string>();
  let measured = 0;
  for (const file of [...await tsFiles("agent"), ...await tsFiles("cli")]) {
    for (const span of await functionSpans(file, await Deno.readTextFile(`${ROOT}${file}`))) {
      measured++;
      if (span.lines <= LIMIT) continue;
      if (PENDING.has(`${span.file}:${span.name}`)) pending.add(`${span.file}:${span.name}`);
      else long.push(`${span.file}:${span.name}:${span.line} (${span.lines} lines)`);
    }
  }
  assert.ok(measured > 500, `only ${measured} functions were found: the scan is broken`);
  assert.deepEqual(long, [], `cut these into named phases:\n${long.join("\n")}`);
  assert.deepEqual([...PENDING].filter((name) => !pending.has(name)), [], "no longer long: take off PENDING");
});

Deno.test("function length: every kind of function is measured, named as a reader would search for it", async () => {
  const source = [
    "export async function top(a: number): Promise<void> {", // 1
    "  const inner = (x: number) => {", // 2
    "    return x;", // 3
    "  };", // 4
    "}", // 5
    "class Agent {", // 6
    "  async #loop(task: string) {", // 7
    "    const table = { pick: function () {", // 8
    "      return 1;", // 9
    "    } };", // 10
    "  }", // 11
    "  get stats() { return 0; }", // 12
    "}", // 13
    "const text = `function fake() {}`; // function fake() {}", // 14
  ].join("\n");
  const spans = (await functionSpans("x.ts", source)).map(({ name, line, lines }) =>
    `${name}:${line}:${lines}`
  );
  assert.deepEqual(spans, ["top:1:5", "inner:2:3", "#loop:7:5", "pick:8:3", "stats:12:1"]);
});
