/**
 * Refusal probes on files of a corpus-format set (issue 27's measurement on
 * the unseen set `unseen_multilang.ts` writes), per language and apart for
 * files tree-sitter already parses with errors:
 *
 * - **deletion**: for each file, the first free function and the first
 *   method (by name) that are defined once and still called in the file,
 *   unqualified or on `this`/`self`/`$this`, after their definition is
 *   deleted (apart: a method's call may resolve through a parent type). The deletion
 *   goes through `verifyPlan` as a `replace_code` step; it should fail with
 *   `dangling-reference`. Names the file also declares elsewhere (C/C++
 *   prototypes, overloads) are no candidates: with them the deletion is not
 *   a dangling use in that file.
 * - **garbage**: ` @@ ) ` inserted just inside up to two function bodies of
 *   each file, checked as an operator's edit is (`runEditChecks`); it should
 *   be refused with `syntax-error`.
 *
 * Each clean file with three or more function bodies is probed a second time
 * made broken: ` @@ ) ` inserted in its last body first, the probes then in
 * the bodies before it (files broken as shipped are rare outside C, C++ and
 * TypeScript here).
 *
 * The same probes as `tests/engine/verify/levels/l3_names_test.ts` and
 * `l0_broken_test.ts` run on the corpus, here on files nobody tuned on.
 *
 * `deno run -A tests/bench/probe_multilang.ts --data /work/lift-unseen/multilang/unseen.jsonl.gz [--lang c,cpp]
 * [--part dev|held] [--list]`: `--part` splits the set by project (FNV-1a of the repository name, odd is
 * held out), so a fix tuned on `dev` is measured on projects it never saw.
 *
 * @module
 */

import { StepContext } from "../../engine/edit/operator.ts";
import { DocumentStore } from "../../engine/parse/documents.ts";
import { headerLanguage } from "../../engine/base/header_language.ts";
import { detectLanguage, type Node, parse, syntaxProblems } from "../../engine/parse/mod.ts";
import { runEditChecks } from "../../engine/verify/levels/mod.ts";
import { verifyPlan } from "../../engine/verify/mod.ts";
import { Workspace } from "../../engine/workspace.ts";
import { loadInstances, writeTree } from "../_support/multilang.ts";
import { oneConfiguration } from "../../engine/analysis/one_configuration.ts";

const DEFINITIONS = new Set([
  "function_declaration",
  "function_definition",
  "function_item",
  "method_declaration",
  "method",
  "method_definition",
  "singleton_method",
]);

/** Ancestors that make a definition a method (its calls may resolve through a parent type). */
const MEMBER_OF = /class|interface|trait|impl_item|module|struct_specifier|object/;

const BODIES = new Set([
  "block",
  "compound_statement",
  "statement_block",
  "body_statement",
  "constructor_body",
]);

const SELF = new Set(["this", "self", "$this"]);

/** One probed file. */
interface Probed {
  lang: string;
  id: string;
  path: string;
  text: string;
  /** "real": tree-sitter already finds errors in the file as shipped; "made": an error was inserted first. */
  broken?: "real" | "made";
}

/** One probe's outcome. */
interface Outcome {
  lang: string;
  broken?: "real" | "made";
  probe: "deletion" | "method deletion" | "garbage";
  refused: boolean;
  detail: string;
}

function languageOf(path: string, text: string) {
  return path.endsWith(".h") ? headerLanguage(text) : detectLanguage(path);
}

/** The declared name of a definition node (through C declarators). */
function definedName(node: Node): string | undefined {
  const named = node.childForFieldName("name");
  if (named) return named.text;
  let declarator = node.childForFieldName("declarator");
  while (declarator && !/identifier$/.test(declarator.type)) {
    // `Value::operator napi_value() {...}`, `A::f() {...}`: defined out of its class, declared in it
    if (/^(qualified_identifier|operator_cast)$/.test(declarator.type)) return undefined;
    declarator = declarator.childForFieldName("declarator");
  }
  if (!declarator || (declarator.type !== "identifier" && declarator.type !== "field_identifier")) {
    return undefined;
  }
  // the grammar reads `Value::operator napi_value()` as type `Value::operator`, declarator `napi_value`
  const before = node.text.slice(0, declarator.startIndex - node.startIndex);
  return /(::|\boperator)\s*$/.test(before) ? undefined : declarator.text;
}

/** The called name of a call node when it is unqualified or on this/self, else undefined. */
function calledName(node: Node): string | undefined {
  if (!/call|invocation/.test(node.type)) return undefined;
  const receiver = node.childForFieldName("object") ?? node.childForFieldName("receiver");
  if (receiver && !SELF.has(receiver.text)) return undefined;
  const callee = node.childForFieldName("function") ?? node.childForFieldName("name") ??
    node.childForFieldName("method");
  if (!callee) return undefined;
  if (/identifier$|^name$/.test(callee.type)) return callee.text;
  if (callee.type === "member_expression" || callee.type === "field_expression") {
    const object = callee.childForFieldName("object") ?? callee.childForFieldName("argument");
    const property = callee.childForFieldName("property") ?? callee.childForFieldName("field");
    return object && SELF.has(object.text) ? property?.text : undefined;
  }
  return undefined;
}

/** A definition to delete: its name, span and whether it is a method. */
interface Target {
  name: string;
  start: number;
  end: number;
  method: boolean;
}

function isMethod(node: Node): boolean {
  for (let up = node.parent; up; up = up.parent) if (MEMBER_OF.test(up.type)) return true;
  return false;
}

/**
 * The first (by name) free function and the first method defined once, with
 * no other declaration, and still called outside themselves.
 */
function stillCalled(root: Node): Target[] {
  const defs = new Map<string, Node[]>();
  const calls: { name: string; at: number }[] = [];
  const declared = new Map<string, number>();
  const visit = (node: Node) => {
    if (DEFINITIONS.has(node.type)) {
      const name = definedName(node);
      if (name) defs.set(name, [...(defs.get(name) ?? []), node]);
    }
    if (/declaration$/.test(node.type) && !DEFINITIONS.has(node.type)) {
      for (const d of node.descendantsOfType("function_declarator")) {
        const name = d && definedName(d);
        if (name) declared.set(name, (declared.get(name) ?? 0) + 1);
      }
    }
    const called = calledName(node);
    if (called) calls.push({ name: called, at: node.startIndex });
    for (const child of node.namedChildren) if (child) visit(child);
  };
  visit(root);
  const found: Target[] = [];
  for (const name of [...defs.keys()].sort()) {
    const nodes = defs.get(name)!;
    if (nodes.length !== 1 || declared.has(name)) continue;
    const [def] = nodes;
    const method = isMethod(def);
    if (found.some((t) => t.method === method)) continue;
    if (calls.some((c) => c.name === name && (c.at < def.startIndex || c.at >= def.endIndex))) {
      found.push({ name, start: def.startIndex, end: def.endIndex, method });
    }
  }
  return found;
}

async function deletion(file: Probed, target: Target): Promise<Outcome> {
  const dir = await writeTree({ [file.path]: file.text });
  try {
    const result = await verifyPlan(new DocumentStore(Workspace.open(dir)), [{
      op: "replace_code",
      params: { file: file.path, pattern: file.text.slice(target.start, target.end), replacement: "" },
    }]);
    const codes = [...new Set(result.errors.map((issue) => issue.code))];
    return {
      lang: file.lang,
      broken: file.broken,
      probe: target.method ? "method deletion" : "deletion",
      refused: codes.includes("dangling-reference"),
      detail: `${file.id} ${file.path} "${target.name}": ${codes.join(",") || "passed"}`,
    };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

function functionBodies(root: Node): Node[] {
  return root.descendantsOfType([...BODIES]).filter((node): node is Node =>
    node !== null && node.parent !== null && DEFINITIONS.has(node.parent.type)
  );
}

async function garbage(file: Probed, root: Node): Promise<Outcome[]> {
  const bodies = functionBodies(root);
  const picked = bodies.length > 2 ? [bodies[0], bodies[Math.floor(bodies.length / 2)]] : bodies;
  const out: Outcome[] = [];
  for (const body of picked) {
    const at = body.startIndex + (body.text.startsWith("{") ? 1 : 0);
    const dir = await writeTree({ [file.path]: file.text });
    try {
      const ctx = new StepContext(new DocumentStore(Workspace.open(dir)), 1);
      await ctx.edit(file.path, "probe", [{ start: at, end: at, replacement: " @@ ) " }]);
      const [changed] = await ctx.changedFiles();
      const { errors } = await runEditChecks({ ...changed, records: ctx.records }, {
        step: ctx.step,
        store: ctx.store,
      });
      const codes = [...new Set(errors.map((issue) => issue.code))];
      out.push({
        lang: file.lang,
        broken: file.broken,
        probe: "garbage",
        refused: codes.includes("syntax-error"),
        detail: `${file.id} ${file.path} @${at}: ${codes.join(",") || "passed"}`,
      });
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  }
  return out;
}

/** Which instances to probe: languages (all when empty) and a project half. */
export interface Selection {
  languages: string[];
  part?: "dev" | "held";
}

/** The half a project belongs to: FNV-1a of its repository name, odd is held out. */
export function projectPart(repo: string): "dev" | "held" {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(repo)) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  return hash % 2 ? "held" : "dev";
}

/** The distinct `before` files of a set, with whether tree-sitter already finds errors in them. */
async function probedFiles(path: string, selection: Selection): Promise<Probed[]> {
  const seen = new Set<string>();
  const out: Probed[] = [];
  for (const commit of await loadInstances(path)) {
    if (selection.languages.length > 0 && !selection.languages.includes(commit.lang)) continue;
    if (selection.part && projectPart(commit.repo) !== selection.part) continue;
    for (const file of commit.files) {
      // a file a whole patch creates has no before (`unseen_trees.ts`)
      if (typeof file.before !== "string") continue;
      const language = languageOf(file.path, file.before);
      if (!language || seen.has(file.before)) continue;
      seen.add(file.before);
      const broken = syntaxProblems(await parse(language, file.before)).length > 0 ? "real" : undefined;
      out.push({ lang: commit.lang, id: commit.sha, path: file.path, text: file.before, broken });
    }
  }
  return out;
}

/**
 * A file tree-sitter parses cleanly made broken: ` @@ ) ` inserted just
 * inside its last function body, so the probes that follow (in earlier
 * bodies) run in a file with a pre-existing error elsewhere. Undefined when
 * the file has fewer than three function bodies.
 */
async function madeBroken(file: Probed, root: Node): Promise<Probed | undefined> {
  const bodies = functionBodies(root);
  if (bodies.length < 3) return undefined;
  const last = bodies.at(-1)!;
  const at = last.startIndex + (last.text.startsWith("{") ? 1 : 0);
  const text = file.text.slice(0, at) + " @@ ) " + file.text.slice(at);
  const language = languageOf(file.path, text)!;
  if (syntaxProblems(await parse(language, text)).length === 0) return undefined;
  return { ...file, text, broken: "made" };
}

/**
 * `start` moved back over what the view blanked before the definition (a macro specifier before it on its
 * line, `SNAPPY_ATTRIBUTE_ALWAYS_INLINE` alone on the lines above), so the deletion takes it too.
 */
function withBlankedLead(text: string, view: string, start: number): number {
  let lineStart = view.lastIndexOf("\n", start - 1) + 1;
  if (!/^\s*$/.test(view.slice(lineStart, start))) return start;
  for (;;) {
    if (lineStart === 0) return lineStart;
    const above = view.lastIndexOf("\n", lineStart - 2) + 1;
    const real = text.slice(above, lineStart - 1);
    const blanked = /^\s*$/.test(view.slice(above, lineStart - 1)) && /\S/.test(real) && !/^\s*#/.test(real);
    if (!blanked) return lineStart;
    lineStart = above;
  }
}

/** Run both probes on every distinct file of the set at `path`, and on a made-broken copy of each clean one. */
export async function probeSet(path: string, selection: Selection = { languages: [] }): Promise<Outcome[]> {
  const out: Outcome[] = [];
  for (const shipped of await probedFiles(path, selection)) {
    const root = (await parse(languageOf(shipped.path, shipped.text)!, shipped.text)).rootNode;
    const made = shipped.broken ? undefined : await madeBroken(shipped, root);
    for (const file of made ? [shipped, made] : [shipped]) {
      const language = languageOf(file.path, file.text)!;
      const tree = (await parse(language, file.text)).rootNode;
      // C and C++ targets are read as the analyses read the file: macros before declarations and other
      // branches blanked (same offsets), so a class the grammar misreads for `class API_MACRO X` still
      // shows its overloads, and no declarator is taken for a call
      const view = language === "c" || language === "cpp" ? oneConfiguration(file.text) : undefined;
      const targets = view === undefined ? tree : (await parse(language, view.text)).rootNode;
      const errorAt = file.broken === "made" ? functionBodies(root).at(-1)!.startIndex : Infinity;
      // a name the view hid (defined again in another branch of an `#if`) is declared elsewhere
      for (const target of stillCalled(targets).filter((t) => !view?.hidden.has(t.name))) {
        if (view) target.start = withBlankedLead(file.text, view.text, target.start);
        if (target.end < errorAt) out.push(await deletion(file, target));
      }
      out.push(
        ...(await garbage(file, tree)).filter((o) => Number(o.detail.split("@")[1].split(":")[0]) < errorAt),
      );
    }
  }
  return out;
}

if (import.meta.main) {
  const at = Deno.args.indexOf("--data");
  if (at < 0) {
    console.error("Usage: probe_multilang.ts --data PATH.jsonl.gz [--lang L1,L2] [--part dev|held] [--list]");
    Deno.exit(2);
  }
  const option = (name: string) =>
    Deno.args.includes(name) ? Deno.args[Deno.args.indexOf(name) + 1] : undefined;
  const part = option("--part");
  if (part !== undefined && part !== "dev" && part !== "held") {
    console.error(`Unknown part "${part}": use dev or held`);
    Deno.exit(2);
  }
  const languages = option("--lang")?.split(",") ?? [];
  const outcomes = await probeSet(Deno.args[at + 1], { languages, part });
  for (const lang of [...new Set(outcomes.map((o) => o.lang))]) {
    const cells = (["deletion", "method deletion", "garbage"] as const).flatMap((probe) =>
      [undefined, "real", "made"].map((broken) => {
        const of = outcomes.filter((o) => o.lang === lang && o.probe === probe && o.broken === broken);
        const refused = of.filter((o) => o.refused).length;
        return `${probe}${broken ? ` (${broken} broken)` : ""} ${refused}/${of.length}`;
      })
    );
    console.log(`${lang}: ${cells.join(", ")}`);
  }
  if (Deno.args.includes("--list")) {
    for (const o of outcomes) {
      console.log(
        `${o.refused ? "refused" : "PASSED "} ${o.lang} ${o.probe}${
          o.broken ? ` ${o.broken}-broken` : ""
        } ${o.detail}`,
      );
    }
  }
}
