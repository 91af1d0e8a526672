/**
 * Deleting a still-called function, per language, on the multilang corpus
 * (issue 27): for every function or method definition in the corpus files
 * (`before` of each commit), delete it and ask the name check whether the
 * file is left with a use of it. Counted only where the name is still
 * called after the deletion (a regex: `name(`, `.name`, `->name`,
 * `::name`) and no other definition of it stays in the file (overloads,
 * another class's method, a trait default keep the name defined, and the
 * check must stay quiet there). Reported per language: deletions refused of
 * those counted, and false errors, the real commits (`before` to `after`,
 * each file with its commit's other files) that the check refuses.
 *
 * Held out: `heldOut` of `tests/_support/multilang.ts` (4 commits per
 * language, seed 27), not looked at while the receiver rules were built;
 * `--part built|held|all` picks the part (default all, reported apart).
 *
 * Standalone: `deno run -A tests/bench/names_deletions.ts [--part held] [--lang L] [--misses]`.
 *
 * @module
 */

import { headerLanguage } from "../../engine/base/header_language.ts";
import { detectLanguage, type LanguageId, type Node, parse } from "../../engine/parse/mod.ts";
import { type LostDefinition, lostDefinitions, nameRules } from "../../engine/analysis/names/mod.ts";
import { declares } from "../../engine/analysis/names/importers.ts";
import { answerableElsewhere } from "../../engine/analysis/names/receivers.ts";
import type { Tree } from "../../engine/parse/mod.ts";
import { heldOut, loadMultilang, type MultilangCommit } from "../_support/multilang.ts";

const DEFINITION_TYPES = new Set([
  "function_declaration",
  "method_declaration",
  "function_definition",
  "function_item",
  "method",
  "singleton_method",
  "method_definition",
]);

/** The name a function or method definition declares (undefined for operators, destructors, constructors). */
export function definedName(node: Node): string | undefined {
  const name = node.childForFieldName("name");
  if (name) return name.text;
  let at: Node | null = node.childForFieldName("declarator");
  while (at && at.type !== "function_declarator") at = at.childForFieldName("declarator");
  let id = at?.childForFieldName("declarator") ?? null;
  while (id && (id.type === "qualified_identifier" || id.type === "template_function")) {
    id = id.childForFieldName("name");
  }
  if (!id || !["identifier", "field_identifier"].includes(id.type)) return undefined;
  return id.text;
}

/** Every function or method definition of a tree with its name. */
export function definitions(root: Node): { node: Node; name: string }[] {
  const out: { node: Node; name: string }[] = [];
  const visit = (node: Node) => {
    if (DEFINITION_TYPES.has(node.type)) {
      const name = definedName(node);
      if (name) out.push({ node, name });
    }
    for (const child of node.namedChildren) if (child) visit(child);
  };
  visit(root);
  return out;
}

/** Whether `text` still calls `name`: bare, through a receiver or a qualified path. */
export function stillCalled(text: string, name: string, language: LanguageId): boolean {
  const word = name.replace(/\$/g, "\\$");
  if (new RegExp(`(?<![\\w$])${word}\\s*\\(`).test(text)) return true;
  if (language === "ruby") return new RegExp(`\\.${word}\\b(?![?!=])`).test(text);
  return false;
}

/** The text of a tree with its comments and string literals blanked (a call in a comment is no call). */
export function codeOnly(root: Node): string {
  const chars = root.text.split("");
  const visit = (node: Node) => {
    if (/comment|string|heredoc/.test(node.type)) {
      for (let i = node.startIndex; i < node.endIndex; i++) if (chars[i] !== "\n") chars[i] = " ";
      return;
    }
    for (const child of node.children) if (child) visit(child);
  };
  visit(root);
  return chars.join("");
}

/** The language of a corpus file. */
export function languageOf(path: string, text: string): LanguageId {
  return path.endsWith(".h") ? headerLanguage(text) : detectLanguage(path)!;
}

/**
 * The losses the level reports: those answered through receivers are
 * dropped where another file of the commit declares the name, as
 * `declaredElsewhere` does over the workspace.
 */
export async function reported(
  language: LanguageId,
  before: Tree,
  after: Tree,
  others: { tree: Tree; language: LanguageId }[],
): Promise<LostDefinition[]> {
  const rules = nameRules(language)!;
  return (await lostDefinitions(language, before, after)).filter((loss) =>
    !answerableElsewhere(rules, loss) ||
    !others.some(({ tree, language: of }) => declares(tree, nameRules(of)!, loss.name))
  );
}

/** One language's figures. */
interface Tally {
  counted: number;
  refused: number;
  files: number;
  falseErrors: string[];
  misses: string[];
}

async function measure(commits: readonly MultilangCommit[]): Promise<Map<string, Tally>> {
  const out = new Map<string, Tally>();
  for (const commit of commits) {
    const tally = out.get(commit.lang) ??
      { counted: 0, refused: 0, files: 0, falseErrors: [], misses: [] };
    out.set(commit.lang, tally);
    for (const file of commit.files) {
      const language = languageOf(file.path, file.before);
      const before = await parse(language, file.before);
      const after = await parse(language, file.after);
      const others = await Promise.all(
        commit.files.filter((f) => f !== file).map(async (f) => {
          const of = languageOf(f.path, f.after);
          return { tree: await parse(of, f.after), language: of };
        }),
      );
      tally.files++;
      for (const { name } of await reported(language, before, after, others)) {
        tally.falseErrors.push(`${commit.sha.slice(0, 8)} ${file.path}: ${name}`);
      }
      const all = definitions(before.rootNode);
      for (const { node, name } of all) {
        const start = file.before.lastIndexOf("\n", node.startIndex - 1) + 1;
        const end = file.before.startsWith("\n", node.endIndex) ? node.endIndex + 1 : node.endIndex;
        const text = file.before.slice(0, start) + file.before.slice(end);
        const cut = await parse(language, text);
        if (!stillCalled(codeOnly(cut.rootNode), name, language)) {
          cut.delete();
          continue;
        }
        // another definition (an overload, a prototype, another class's method) answers: not counted
        if (
          definitions(cut.rootNode).some((d) => d.name === name) || declares(cut, nameRules(language)!, name)
        ) {
          cut.delete();
          continue;
        }
        tally.counted++;
        const lost = (await reported(language, before, cut, others)).some((l) => l.name === name);
        if (lost) tally.refused++;
        else {tally.misses.push(
            `${commit.sha.slice(0, 8)} ${file.path}:${node.startPosition.row + 1} ${name}`,
          );}
        cut.delete();
      }
    }
  }
  return out;
}

if (import.meta.main) {
  const part = Deno.args.includes("--part") ? Deno.args[Deno.args.indexOf("--part") + 1] : "all";
  const only = Deno.args.includes("--lang") ? Deno.args[Deno.args.indexOf("--lang") + 1] : undefined;
  const all = await loadMultilang();
  const held = heldOut(all);
  const commits = all.filter((c) => !only || c.lang === only);
  const parts = part === "all" ? ["built", "held"] : [part];
  for (const which of parts) {
    const of = commits.filter((c) => held.has(c.sha) === (which === "held"));
    console.log(`## ${which === "held" ? "held out" : "built on"} (${of.length} commits)`);
    for (const [lang, t] of [...(await measure(of))].sort()) {
      console.log(
        `${
          lang.padEnd(11)
        } refused ${t.refused}/${t.counted}  false errors ${t.falseErrors.length} (${t.files} files)`,
      );
      for (const line of t.falseErrors) console.log(`  false: ${line}`);
      if (Deno.args.includes("--misses")) { for (const line of t.misses) console.log(`  miss: ${line}`); }
    }
  }
}
