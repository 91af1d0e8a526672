/**
 * The delete_node mutation sweep: statements picked at random (fixed seed)
 * from the corpus `before` files, each deleted by a one-step plan, each
 * result judged twice:
 *
 * - by `verifyPlan` (refused: an error; warned: only warnings);
 * - by CPython, the oracle, in one python3 process: `compile(after)` fails
 *   (a compile failure), or `symtable` shows a name that is read somewhere
 *   and bound nowhere it could come from (the scope itself, an enclosing
 *   function, the module, a function's `global x` assignment, the builtins)
 *   that was not so before the deletion (a dangling name). A module with a
 *   star import binds every name (the oracle cannot tell), as for the engine.
 *   Where pyflakes is installed, a new undefined name or local read before
 *   its assignment it reports (`UnboundLocalError` at run time, which
 *   symtable cannot see) is a dangling name too.
 *
 * The catch rates are the share of compile failures and of dangling names
 * that verification refused. Used by `mutation_sweep_test.ts` (which asserts
 * the goals) and as the `mutation` bench section.
 *
 * @module
 */

import { StepContext } from "../../engine/edit/operator.ts";
import { parsePlanSteps } from "../../engine/exec/mod.ts";
import { DocumentStore } from "../../engine/parse/documents.ts";
import { type Node, parse } from "../../engine/parse/mod.ts";
import { verifyPlan } from "../../engine/verify/mod.ts";
import { Workspace } from "../../engine/workspace.ts";
import { CORPUS_SKIP, corpusBeforeFiles } from "../_support/corpus.ts";
import { PYTHON_SKIP, runPythonJson } from "../_support/python.ts";
import { brokenByChange, PYFLAKES_SKIP } from "../_support/pyflakes.ts";
import type { BenchSection } from "./context.ts";
import type { BenchRow } from "./stats.ts";

/** One deleted statement and both verdicts. */
export interface Mutation {
  file: string;
  line: number;
  type: string;
  /** The operator itself refused (no result to judge). */
  opRefused: boolean;
  refused: boolean;
  warned: boolean;
  /** CPython's compile error of the result, if any. */
  compileError: string | null;
  /** Names CPython finds unbound after the deletion and not before (`scope:name`). */
  dangling: string[];
  /** The verification codes. */
  codes: string[];
}

/** The sweep's figures. */
export interface SweepFigures {
  mutations: Mutation[];
  compileFailures: number;
  compileRefused: number;
  danglingResults: number;
  danglingRefused: number;
  danglingWarned: number;
  /** Results CPython accepts with no new unbound name that verification refused anyway. */
  cleanRefused: number;
  clean: number;
}

const ORACLE = String.raw`
import builtins, json, symtable, sys, ast

IMPLICIT = set(dir(builtins)) | {"__file__", "__builtins__", "__path__", "__loader__", "__spec__",
    "__package__", "__name__", "__doc__", "__cached__", "__annotations__", "__dict__", "__module__",
    "__qualname__", "__class__"}

def unbound(src):
    tree = ast.parse(src)
    if any(isinstance(n, ast.ImportFrom) and any(a.name == "*" for a in n.names) for n in ast.walk(tree)):
        return set()
    top = symtable.symtable(src, "mutated.py", "exec")
    module = set()
    for sym in top.get_symbols():
        if sym.is_assigned() or sym.is_imported() or sym.is_namespace():
            module.add(sym.get_name())
    def declared(table):
        for sym in table.get_symbols():
            if sym.is_declared_global() and (sym.is_assigned() or sym.is_imported() or sym.is_namespace()):
                module.add(sym.get_name())
        for child in table.get_children():
            declared(child)
    declared(top)
    out = set()
    def walk(table, path):
        for sym in table.get_symbols():
            if not sym.is_referenced():
                continue
            name = sym.get_name()
            if table is top:
                ok = name in module or name in IMPLICIT
            elif sym.is_free() or sym.is_nonlocal():
                ok = True
            elif sym.is_global():
                ok = name in module or name in IMPLICIT
            else:
                ok = sym.is_local() or sym.is_parameter() or sym.is_assigned() or sym.is_imported() \
                    or sym.is_namespace()
                if table.get_type() == "class" and not ok:
                    ok = name in module or name in IMPLICIT
            if not ok:
                out.add(path + ":" + name)
        for child in table.get_children():
            walk(child, path + "." + child.get_name())
    walk(top, "")
    return out

results = []
for item in json.load(sys.stdin):
    before, after = item
    try:
        compile(before, "before.py", "exec")
    except Exception as e:
        results.append({"skip": True})
        continue
    try:
        compile(after, "after.py", "exec")
    except SyntaxError as e:
        results.append({"compile": f"{e.msg} (line {e.lineno})", "dangling": []})
        continue
    results.append({"compile": None, "dangling": sorted(unbound(after) - unbound(before))})
print(json.dumps(results))
`;

/** CPython's verdict on a deletion: the result's compile error, or the names it newly leaves unbound. */
export interface OracleVerdict {
  /** The `before` text does not compile itself: nothing to judge. */
  skip?: boolean;
  compile?: string | null;
  /** `scope:name`, scope as `.Class.method` (empty for the module). */
  dangling?: string[];
}

/** The oracle's verdicts on `[before, after]` pairs, in one python3 process. */
export function oracleVerdicts(pairs: readonly [string, string][]): Promise<OracleVerdict[]> {
  return runPythonJson<OracleVerdict[]>(ORACLE, pairs);
}

/** A small seeded generator (mulberry32), so the sweep picks the same statements every run. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6D2B79F5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const DELETABLE = /_statement$|^(function_definition|class_definition|decorated_definition)$/;

/** Statements of a tree that `delete_node` can take whole: children of the module or of a block. */
function statementsOf(root: Node): Node[] {
  const out: Node[] = [];
  const visit = (node: Node) => {
    for (const child of node.namedChildren) {
      if (!child) continue;
      const parentOk = node.type === "module" || node.type === "block";
      if (parentOk && DELETABLE.test(child.type)) out.push(child);
      visit(child);
    }
  };
  visit(root);
  return out;
}

/** Run the sweep: `count` deletions chosen with `seed`. */
export async function runMutationSweep(options: { count: number; seed: number }): Promise<SweepFigures> {
  if (CORPUS_SKIP) throw new Error(CORPUS_SKIP);
  if (PYTHON_SKIP) throw new Error(PYTHON_SKIP);
  const files = (await corpusBeforeFiles(".py")).filter((file, i, all) =>
    all.findIndex((other) => other.text === file.text) === i
  );
  const random = seeded(options.seed);
  const mutations: Mutation[] = [];
  const pairs: [string, string][] = [];
  const dir = await Deno.makeTempDir({ prefix: "graphplan-mutation-" });
  try {
    for (let i = 0; mutations.length < options.count && i < options.count * 4; i++) {
      const file = files[Math.floor(random() * files.length)];
      const tree = await parse("python", file.text);
      const statements = statementsOf(tree.rootNode);
      if (statements.length === 0) {
        tree.delete();
        continue;
      }
      const node = statements[Math.floor(random() * statements.length)];
      const index = tree.rootNode.descendantsOfType(node.type).findIndex((n) => n?.id === node.id);
      const mutation: Mutation = {
        file: `${file.id}/${file.path}`,
        line: node.startPosition.row + 1,
        type: node.type,
        opRefused: false,
        refused: false,
        warned: false,
        compileError: null,
        dangling: [],
        codes: [],
      };
      tree.delete();
      const repo = `${dir}/${mutations.length}`;
      const target = `${repo}/${file.path}`;
      await Deno.mkdir(target.slice(0, target.lastIndexOf("/")), { recursive: true });
      await Deno.writeTextFile(target, file.text);
      const plan = [{
        op: "delete_node",
        params: {
          target: { type: "sexp", file: file.path, query: `(${mutation.type}) @s`, capture: "s", index },
        },
      }];
      const store = new DocumentStore(Workspace.open(repo));
      const result = await verifyPlan(store, plan);
      mutation.refused = !result.passed;
      mutation.warned = result.warnings.length > 0;
      mutation.codes = [...result.errors, ...result.warnings].map((issue) =>
        `${issue.severity[0]}:${issue.code}`
      );
      const parsed = await parsePlanSteps(plan);
      const ctx = new StepContext(store, 0);
      let after: string | undefined;
      try {
        await parsed.runStep(parsed.steps[0], ctx);
        after = (await ctx.store.get(file.path)).file.text;
      } catch {
        mutation.opRefused = true;
      }
      await Deno.remove(repo, { recursive: true });
      mutations.push(mutation);
      pairs.push([file.text, after ?? file.text]);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  const verdicts = await oracleVerdicts(pairs);
  // symtable sees which names a scope binds, not in what order: pyflakes reads a local before its binding
  const flakes = PYFLAKES_SKIP === undefined
    ? await brokenByChange(pairs.map(([before, after]) => ({ path: "m.py", before, after })))
    : undefined;
  const judged: Mutation[] = [];
  mutations.forEach((mutation, i) => {
    const verdict = verdicts[i];
    if (verdict.skip || mutation.opRefused) return;
    mutation.compileError = verdict.compile ?? null;
    const unbound = (flakes?.[i] ?? []).filter((found) => /^Undefined(Name|Local): /.test(found));
    mutation.dangling = [...verdict.dangling ?? [], ...unbound.map((found) => `pyflakes ${found}`)];
    judged.push(mutation);
  });
  const compile = judged.filter((m) => m.compileError !== null);
  const dangling = judged.filter((m) => m.compileError === null && m.dangling.length > 0);
  const clean = judged.filter((m) => m.compileError === null && m.dangling.length === 0);
  return {
    mutations,
    compileFailures: compile.length,
    compileRefused: compile.filter((m) => m.refused).length,
    danglingResults: dangling.length,
    danglingRefused: dangling.filter((m) => m.refused).length,
    danglingWarned: dangling.filter((m) => !m.refused && m.warned).length,
    cleanRefused: clean.filter((m) => m.refused).length,
    clean: clean.length,
  };
}

/** One line of figures, as the test prints it. */
export function describeSweep(figures: SweepFigures): string {
  const rate = (n: number, of: number) => of === 0 ? "n/a" : `${(n / of * 100).toFixed(1)}%`;
  return `mutation sweep: ${figures.mutations.length} delete_node mutations; ` +
    `compile failures refused ${figures.compileRefused}/${figures.compileFailures} (${
      rate(figures.compileRefused, figures.compileFailures)
    }); dangling names refused ${figures.danglingRefused}/${figures.danglingResults} (${
      rate(figures.danglingRefused, figures.danglingResults)
    }, ${figures.danglingWarned} more warned); clean results refused ${figures.cleanRefused}/${figures.clean}`;
}

/** The `mutation` bench section: catch rates of the sweep (200 mutations, seed 17). */
export const mutationSection: BenchSection = {
  name: "mutation",
  description:
    "delete_node mutation sweep: share of CPython-rejected and dangling results that verify refuses",
  async run() {
    const skip = CORPUS_SKIP ?? PYTHON_SKIP;
    const row = (metric: string, value: number | null, note: string, goal?: number): BenchRow => ({
      section: "mutation",
      metric,
      value,
      unit: "%",
      note,
      ...(goal !== undefined && value !== null ? { goal: `>= ${goal}`, ok: value >= goal } : {}),
    });
    if (skip) return [row("dangling names refused", null, skip)];
    const figures = await runMutationSweep({ count: 200, seed: 17 });
    const pct = (n: number, of: number) => of === 0 ? null : Math.round(n / of * 1000) / 10;
    return [
      row(
        "compile failures refused",
        pct(figures.compileRefused, figures.compileFailures),
        `${figures.compileRefused} of ${figures.compileFailures}`,
        100,
      ),
      row(
        "dangling names refused",
        pct(figures.danglingRefused, figures.danglingResults),
        `${figures.danglingRefused} of ${figures.danglingResults}`,
        95,
      ),
      row(
        "clean results refused",
        pct(figures.cleanRefused, figures.clean),
        `${figures.cleanRefused} of ${figures.clean}`,
      ),
    ];
  },
};

if (import.meta.main) {
  const figures = await runMutationSweep({
    count: Number(Deno.args[0] ?? 200),
    seed: Number(Deno.args[1] ?? 17),
  });
  console.log(describeSweep(figures));
  for (const m of figures.mutations) {
    const bad = m.compileError !== null || m.dangling.length > 0;
    if (bad && !m.refused || !bad && m.refused && !m.opRefused) {
      console.log(
        `${m.refused ? "FALSE REFUSAL" : "MISS"} ${m.file}:${m.line} ${m.type} ${m.compileError ?? ""} ${
          m.dangling.join(" ")
        } [${m.codes.join(" ")}]`,
      );
    }
  }
}
