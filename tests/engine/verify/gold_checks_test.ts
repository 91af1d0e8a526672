/**
 * The gold-patch sweep for the checks of issue 17 (statement contexts,
 * target version, the real compiler, strictness): every corpus instance's
 * gold `after` files as a plan that turns `before` into `after`, verified
 * with CPython compiling the simulated result, must raise none of the new
 * errors (a gold patch is code its project shipped), and executing it must
 * reproduce the `after` files byte for byte.
 *
 * The plan: for each gold hunk, a `replace_node` of the innermost function
 * or class that holds the whole hunk, located by its name chain
 * (`{kind: "method", name, parent: {kind: "class", ...}}`, with `index` among
 * namesakes), its replacement the definition's text in the `after` file
 * written at column 0; hunks in one definition are one
 * step. A hunk outside any definition (imports, module constants) is a
 * `replace_code` of its lines. The repository declares no Python (the corpus
 * holds only the touched files), so the target is the default 3.8; a second
 * run pretends every project declares 3.6, the oldest the corpus projects
 * supported, to see the target check on code that really ran there.
 *
 * It prints how often each new check fired (errors and, under `--strict`,
 * the warnings it would promote).
 */

import assert from "node:assert/strict";
import { executePlan, parsePlanSteps } from "../../../engine/exec/mod.ts";
import { type Node, parse } from "../../../engine/parse/mod.ts";
import { DocumentStore } from "../../../engine/parse/documents.ts";
import { Workspace } from "../../../engine/workspace.ts";
import { verifyPlan } from "../../../engine/verify/mod.ts";
import { Compilers } from "../../../engine/verify/compile/mod.ts";
import { DEFAULT_STRICT_CODES } from "../../../engine/verify/strict.ts";
import { CORPUS_SKIP, type CorpusInstance, loadCorpus, materialize } from "../../_support/corpus.ts";
import { PYTHON_SKIP } from "../../_support/python.ts";
// journals of the executions go to a private state directory
import "../exec/_support.ts";

/** The codes issue 17 added: statement contexts, target version, the compiler. */
const NEW_CODES = [
  "break-outside-loop",
  "continue-outside-loop",
  "return-outside-function",
  "yield-outside-function",
  "await-outside-async",
  "nonlocal-without-binding",
  "duplicate-parameter",
  "parameter-order",
  "argument-order",
  "duplicate-keyword-argument",
  "invalid-target",
  "python2-syntax",
  "syntax-too-new",
  "compile-error",
];

interface Hunk {
  /** The hunk with its context, 0-based lines, end exclusive (for `replace_code`). */
  oldStart: number;
  oldEnd: number;
  newStart: number;
  newEnd: number;
  /** The changed lines only (context trimmed): where the definition must hold them. */
  changedOld: [number, number];
  changedNew: [number, number];
  /** The context and removed lines, for finding where git applies the hunk. */
  oldLines: string[];
}

/** The hunks of one file of a patch. */
function hunksOf(patch: string, path: string): Hunk[] {
  const out: Hunk[] = [];
  let file: string | undefined;
  let hunk: Hunk | undefined;
  let oldLine = 0;
  let newLine = 0;
  for (const line of patch.split("\n")) {
    if (line.startsWith("diff --git ")) {
      hunk = undefined;
      continue;
    }
    if (!hunk && line.startsWith("+++ ")) file = line.slice(4).replace(/^b\//, "");
    const header = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(line);
    if (header) {
      hunk = undefined;
      if (file !== path) continue;
      const [oldStart, oldCount, newStart, newCount] = [1, 2, 3, 4].map((i) => Number(header[i] ?? 1));
      // A count of 0 means "after line N": the range starts on the next line.
      oldLine = oldCount === 0 ? oldStart : oldStart - 1;
      newLine = newCount === 0 ? newStart : newStart - 1;
      hunk = {
        oldStart: oldLine,
        oldEnd: oldLine + oldCount,
        newStart: newLine,
        newEnd: newLine + newCount,
        changedOld: [Infinity, -Infinity],
        changedNew: [Infinity, -Infinity],
        oldLines: [],
      };
      out.push(hunk);
      continue;
    }
    if (!hunk) continue;
    const mark = line === "" ? " " : line[0];
    if (mark === " " || mark === "-") hunk.oldLines.push(line.slice(1));
    if (mark === " ") {
      oldLine++;
      newLine++;
      continue;
    }
    if (mark !== "-" && mark !== "+") continue;
    // a change at old line `oldLine` / new line `newLine` (an insertion is the empty range there)
    hunk.changedOld = [
      Math.min(hunk.changedOld[0], oldLine),
      Math.max(hunk.changedOld[1], oldLine + (mark === "-" ? 1 : 0)),
    ];
    hunk.changedNew = [
      Math.min(hunk.changedNew[0], newLine),
      Math.max(hunk.changedNew[1], newLine + (mark === "+" ? 1 : 0)),
    ];
    if (mark === "-") oldLine++;
    else newLine++;
  }
  return out;
}

/**
 * The hunk moved to where git applies it: its context and removed lines
 * where they occur in `before` nearest the line the header states (headers
 * of some corpus patches are off by a few lines).
 */
function relocate(hunk: Hunk, before: string[]): Hunk {
  const fits = (at: number, lines: string[]) => lines.every((line, i) => before[at + i] === line);
  let best: number | undefined;
  for (const lines of [hunk.oldLines, hunk.oldLines.slice(0, -1)]) {
    for (let at = 0; at + lines.length <= before.length; at++) {
      if (
        fits(at, lines) &&
        (best === undefined || Math.abs(at - hunk.oldStart) < Math.abs(best - hunk.oldStart))
      ) {
        best = at;
      }
    }
    if (best !== undefined) break;
  }
  const shift = (best ?? hunk.oldStart) - hunk.oldStart;
  return {
    ...hunk,
    oldStart: hunk.oldStart + shift,
    oldEnd: hunk.oldEnd + shift,
    newStart: hunk.newStart + shift,
    newEnd: hunk.newEnd + shift,
    changedOld: [hunk.changedOld[0] + shift, hunk.changedOld[1] + shift],
    changedNew: [hunk.changedNew[0] + shift, hunk.changedNew[1] + shift],
  };
}

const lineOffsets = (text: string) => {
  const out = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === "\n") out.push(i + 1);
  return out;
};

const isDefinition = (node: Node) => node.type === "function_definition" || node.type === "class_definition";

/** The innermost function or class (with its decorators) holding [start, end]. */
function innermostDefinition(root: Node, start: number, end: number): Node | undefined {
  let found: Node | undefined;
  const visit = (node: Node) => {
    for (const child of node.namedChildren) {
      if (!child || child.startIndex > start || child.endIndex < end) continue;
      if (isDefinition(child) && child.parent?.type !== "decorated_definition") found = child;
      if (child.type === "decorated_definition" && child.childForFieldName("definition")) found = child;
      visit(child);
    }
  };
  visit(root);
  return found;
}

/** A structured locator for a definition: its kind, name, the chain of its owners, and `index` among namesakes. */
function locatorOf(file: string, unit: Node, root: Node): Record<string, unknown> {
  const node = unit.type === "decorated_definition" ? unit.childForFieldName("definition")! : unit;
  const kindOf = (def: Node) => {
    if (def.type === "class_definition") return "class";
    const owner = def.parent?.type === "decorated_definition" ? def.parent.parent : def.parent;
    return owner?.parent?.type === "class_definition" ? "method" : "function";
  };
  let locator: Record<string, unknown> | undefined;
  const chain: Node[] = [];
  for (let current: Node | null = node; current; current = current.parent) {
    if (current.type === "function_definition" || current.type === "class_definition") chain.unshift(current);
  }
  // What the locator matches: the same kind and name, with the owners in order among its ancestors.
  const owners = chain.slice(0, -1).map((def) => `${kindOf(def)}:${def.childForFieldName("name")!.text}`);
  const matches = (def: Node) => {
    const family = (def: Node) => (kindOf(def) === "class" ? "class" : "function");
    if (
      family(def) !== family(node) ||
      def.childForFieldName("name")?.text !== node.childForFieldName("name")!.text
    ) {
      return false;
    }
    const ancestors: string[] = [];
    for (let current = def.parent; current; current = current.parent) {
      if (isDefinition(current)) {
        ancestors.unshift(`${kindOf(current)}:${current.childForFieldName("name")!.text}`);
      }
    }
    let at = 0;
    for (const owner of owners) {
      at = ancestors.indexOf(owner, at) + 1;
      if (at === 0) return false;
    }
    return true;
  };
  for (const def of chain) {
    const here: Record<string, unknown> = { kind: kindOf(def), name: def.childForFieldName("name")!.text };
    locator = locator ? { ...here, parent: locator } : here;
  }
  const namesakes = root.descendantsOfType(["function_definition", "class_definition"])
    .filter((def): def is Node => !!def && matches(def));
  const index = namesakes.findIndex((def) => def.id === node.id);
  return { file, ...locator, ...(namesakes.length > 1 ? { index } : {}) };
}

/** The text with every line's leading whitespace removed. */
const trimLines = (text: string) => text.split("\n").map((line) => line.trimStart()).join("\n");

/** The gold patch of one instance as a plan (see the module notes), and its step kinds. */
async function goldPlan(instance: CorpusInstance): Promise<{ plan: unknown[]; nodes: number; code: number }> {
  const plan: unknown[] = [];
  let nodes = 0;
  let code = 0;
  for (const file of instance.files) {
    if (!file.path.endsWith(".py") || file.before === file.after) continue;
    const before = lineOffsets(file.before);
    const after = lineOffsets(file.after);
    const at = (offsets: number[], text: string, line: number) => offsets[line] ?? text.length;
    const tree = await parse("python", file.before);
    // definition (by start offset) → the hunks it holds; null: top-level hunks
    const groups = new Map<number, { node?: Node; hunks: Hunk[] }>();
    const beforeLines = file.before.split("\n");
    const hunks = hunksOf(instance.patch, file.path).map((hunk) => relocate(hunk, beforeLines));
    for (const hunk of hunks) {
      const start = at(before, file.before, hunk.changedOld[0]);
      const end = Math.max(start, at(before, file.before, hunk.changedOld[1]) - 1);
      let node = innermostDefinition(tree.rootNode, start, end);
      // an insertion right above a definition is not inside it
      if (node && hunk.changedOld[0] === hunk.changedOld[1] && start <= node.startIndex) node = undefined;
      const key = node ? node.startIndex : -1 - groups.size;
      const group = groups.get(key) ?? { node, hunks: [] };
      group.hunks.push(hunk);
      groups.set(key, group);
    }
    // A change outside every definition: the whole file's hunks as text replacements.
    if ([...groups.values()].some((group) => !group.node)) groups.clear();
    if (groups.size === 0) groups.set(-1, { hunks });
    // an outer definition absorbs the groups inside it
    const entries = [...groups.values()];
    for (const group of entries) {
      const outer = entries.find((other) =>
        other !== group && other.node && group.node && other.node.startIndex <= group.node.startIndex &&
        other.node.endIndex >= group.node.endIndex
      );
      if (outer) {
        outer.hunks.push(...group.hunks);
        group.hunks = [];
      }
    }
    for (const group of entries) {
      if (group.hunks.length === 0) continue;
      group.hunks.sort((a, b) => a.oldStart - b.oldStart);
      const first = group.hunks[0];
      const last = group.hunks.at(-1)!;
      if (group.node) {
        // The definition's lines, shifted by what the hunks before and inside it changed.
        const node = group.node;
        const startLine = node.startPosition.row;
        const endLine = node.endPosition.row + 1;
        const newStart = startLine + (first.changedNew[0] - first.changedOld[0]);
        const newEnd = endLine + (last.changedNew[1] - last.changedOld[1]);
        const indent = node.startPosition.column;
        const text = file.after.slice(at(after, file.after, newStart), at(after, file.after, newEnd));
        // written at column 0 (the definition's indentation removed from every row)
        const replacement = text.split("\n")
          .map((line) => line.slice(Math.min(indent, /^[ \t]*/.exec(line)![0].length)))
          .join("\n").replace(/\n$/, "");
        plan.push({
          op: "replace_node",
          params: { locator: locatorOf(file.path, group.node, tree.rootNode), replacement },
        });
        nodes++;
      } else {
        for (const [i, hunk] of group.hunks.entries()) {
          // lines below are added to a pattern that occurs more than once (up to the next hunk)
          const limit = group.hunks[i + 1]?.oldStart ?? before.length;
          let extra = 0;
          const text = (offsets: number[], source: string, from: number, to: number) =>
            source.slice(at(offsets, source, from), at(offsets, source, to));
          let pattern = text(before, file.before, hunk.oldStart, hunk.oldEnd);
          while (
            file.before.indexOf(pattern) !== file.before.lastIndexOf(pattern) && hunk.oldEnd + extra < limit
          ) {
            extra++;
            pattern = text(before, file.before, hunk.oldStart, hunk.oldEnd + extra);
          }
          const replacement = text(after, file.after, hunk.newStart, hunk.newEnd + extra);
          plan.push({ op: "replace_code", params: { file: file.path, pattern, replacement } });
          code++;
        }
      }
    }
    tree.delete();
  }
  return { plan, nodes, code };
}

Deno.test({
  name:
    "gold sweep (issue 17): gold plans of every corpus instance raise none of the new errors, compiled by CPython",
  ignore: CORPUS_SKIP !== undefined || PYTHON_SKIP !== undefined,
  async fn() {
    const compilers = new Compilers();
    const counts = new Map<string, number>();
    const count = (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
    const problems: string[] = [];
    let plans = 0;
    let nodeSteps = 0;
    let codeSteps = 0;
    let reproduced = 0;
    const reindented: string[] = [];
    let compiled = "";
    try {
      for (const instance of await loadCorpus()) {
        const { plan, nodes, code } = await goldPlan(instance);
        if (plan.length === 0) continue;
        plans++;
        nodeSteps += nodes;
        codeSteps += code;
        for (const target of ["3.8", "3.6"]) {
          const dir = await materialize(instance);
          try {
            if (target === "3.6") {
              Deno.writeTextFileSync(`${dir}/setup.cfg`, "[options]\npython_requires = >=3.6\n");
            }
            const result = await verifyPlan(new DocumentStore(Workspace.open(dir)), plan, { compilers });
            compiled = result.compiled ?? compiled;
            for (const issue of result.errors) {
              if (NEW_CODES.includes(issue.code)) count(`${target} error ${issue.code}`);
              problems.push(
                `${instance.instance_id} (${target}) step ${issue.step} ${issue.code}: ${issue.message}`,
              );
            }
            for (const issue of result.warnings) {
              if (DEFAULT_STRICT_CODES.includes(issue.code)) {
                count(`${target} strict-would-fail ${issue.code}`);
              }
            }
            if (target === "3.8" && result.passed) {
              const parsed = await parsePlanSteps(plan);
              const store = new DocumentStore(Workspace.open(dir));
              const run = await executePlan(store, parsed.steps, { runStep: parsed.runStep, compilers });
              assert.ok(run.success, `${instance.instance_id}: ${JSON.stringify(run.errors)}`);
              const same = instance.files.every((file) =>
                !file.path.endsWith(".py") || Deno.readTextFileSync(`${dir}/${file.path}`) === file.after
              );
              const modIndent = instance.files.every((file) =>
                !file.path.endsWith(".py") ||
                trimLines(Deno.readTextFileSync(`${dir}/${file.path}`)) === trimLines(file.after)
              );
              if (same) reproduced++;
              else if (modIndent) reindented.push(instance.instance_id);
              else {problems.push(
                  `${instance.instance_id}: the executed plan does not reproduce the after files`,
                );}
              if (!same && Deno.env.get("GOLD_DEBUG")) {
                for (const file of instance.files) {
                  const got = Deno.readTextFileSync(`${dir}/${file.path}`);
                  if (got === file.after) continue;
                  const a = got.split("\n");
                  const b = file.after.split("\n");
                  const i = a.findIndex((line, n) => line !== b[n]);
                  console.log(
                    `${instance.instance_id} ${file.path}:${i + 1}\n got: ${
                      JSON.stringify(a.slice(i, i + 4))
                    }\n want: ${JSON.stringify(b.slice(i, i + 4))}`,
                  );
                }
              }
            }
          } finally {
            await Deno.remove(dir, { recursive: true });
          }
        }
      }
    } finally {
      await compilers.close();
    }
    const fired = NEW_CODES.map((code) =>
      `${code} ${(counts.get(`3.8 error ${code}`) ?? 0)}/${counts.get(`3.6 error ${code}`) ?? 0}`
    );
    const strict = DEFAULT_STRICT_CODES.map((code) =>
      `${code} ${counts.get(`3.8 strict-would-fail ${code}`) ?? 0}`
    );
    console.log(
      `gold sweep (issue 17): ${plans} plans (${nodeSteps} replace_node, ${codeSteps} replace_code steps), ` +
        `compiled with ${compiled || "nothing"}, ${reproduced} reproduce the after files byte for byte, ` +
        `${reindented.length} up to the indentation of lines inside multi-line strings, which this test's ` +
        `dedent shifts (${reindented.join(", ")})\n` +
        `  new errors (target 3.8/3.6): ${fired.join(", ")}\n` +
        `  warnings --strict would turn into errors: ${strict.join(", ")}`,
    );
    assert.ok(plans >= 180, `${plans} plans`);
    assert.deepEqual(problems, []);
    assert.equal(reproduced + reindented.length, plans);
  },
});
