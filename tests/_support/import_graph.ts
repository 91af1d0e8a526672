/**
 * The import graph of the project's own TypeScript files, read from their
 * text, and the layering rules checked against it.
 *
 * `importsOf` scans one file with a small tokenizer (comments, strings,
 * template literals and regular expressions are skipped as such, so code
 * quoted inside a string or a JSDoc example is not mistaken for an import)
 * and returns every module specifier of `import ... from`, `import "x"`,
 * `export ... from` and a dynamic `import("x")` with a string literal.
 * Only relative specifiers name project files; `npm:`, `node:` and bare
 * names are dependencies and are left out of the graph.
 *
 * @module
 */

import { dirname, join, normalize } from "node:path";

/** One import of a file: the repository-relative path it names, and whether it is `import type`/`export type`. */
export interface ImportEdge {
  to: string;
  typeOnly: boolean;
  /** 1-based line of the `import`/`export` keyword. */
  line: number;
}

/** File (repository-relative, `/`-separated) → what it imports. */
export type ImportGraph = Map<string, ImportEdge[]>;

interface Token {
  kind: "word" | "string" | "punct";
  text: string;
  line: number;
}

const WORD = /[A-Za-z0-9_$]/;

/** Tokens of `source`: words, string literal values and punctuation; comments, templates and regexes dropped. */
function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let line = 1;
  let i = 0;
  const regexMayStart = () => {
    const last = tokens.at(-1);
    if (!last) return true;
    if (last.kind === "string") return false;
    if (last.kind === "word") {
      return ["return", "typeof", "case", "do", "else", "in", "of", "yield"].includes(last.text);
    }
    return ![")", "]", "}"].includes(last.text);
  };
  while (i < source.length) {
    const c = source[i];
    if (c === "\n") {
      line++;
      i++;
    } else if (c === "/" && source[i + 1] === "/") {
      while (i < source.length && source[i] !== "\n") i++;
    } else if (c === "/" && source[i + 1] === "*") {
      const end = source.indexOf("*/", i + 2);
      const stop = end < 0 ? source.length : end + 2;
      for (; i < stop; i++) if (source[i] === "\n") line++;
    } else if (c === '"' || c === "'") {
      const start = line;
      let value = "";
      i++;
      while (i < source.length && source[i] !== c && source[i] !== "\n") {
        if (source[i] === "\\") i++;
        value += source[i++];
      }
      i++;
      tokens.push({ kind: "string", text: value, line: start });
    } else if (c === "`") {
      i = skipTemplate(source, i + 1, () => line++);
      tokens.push({ kind: "punct", text: "`", line });
    } else if (c === "/" && regexMayStart()) {
      let inClass = false;
      i++;
      while (i < source.length && source[i] !== "\n" && (inClass || source[i] !== "/")) {
        if (source[i] === "\\") i++;
        else if (source[i] === "[") inClass = true;
        else if (source[i] === "]") inClass = false;
        i++;
      }
      i++;
      tokens.push({ kind: "punct", text: "/regex/", line });
    } else if (WORD.test(c)) {
      let word = "";
      while (i < source.length && WORD.test(source[i])) word += source[i++];
      tokens.push({ kind: "word", text: word, line });
    } else {
      if (!/\s/.test(c)) tokens.push({ kind: "punct", text: c, line });
      i++;
    }
  }
  return tokens;
}

/** Skips a template literal's body from `i` (after the opening backtick), nested `${...}` included. */
function skipTemplate(source: string, i: number, newline: () => void): number {
  while (i < source.length && source[i] !== "`") {
    if (source[i] === "\\") i++;
    else if (source[i] === "\n") newline();
    else if (source[i] === "$" && source[i + 1] === "{") {
      let depth = 1;
      i += 2;
      while (i < source.length && depth > 0) {
        if (source[i] === "`") {
          i = skipTemplate(source, i + 1, newline);
          continue;
        }
        if (source[i] === "\n") newline();
        else if (source[i] === "{") depth++;
        else if (source[i] === "}") depth--;
        if (depth > 0) i++;
      }
    }
    i++;
  }
  return i + 1;
}

/** The module specifiers `source` imports or re-exports, in order. */
export function importsOf(source: string): { specifier: string; typeOnly: boolean; line: number }[] {
  const tokens = tokenize(source);
  const found: { specifier: string; typeOnly: boolean; line: number }[] = [];
  for (let k = 0; k < tokens.length; k++) {
    const token = tokens[k];
    if (token.kind !== "word" || (token.text !== "import" && token.text !== "export")) continue;
    if (tokens[k - 1]?.text === ".") continue; // import.meta, obj.import
    const next = tokens[k + 1];
    if (token.text === "import" && next?.text === "(") {
      if (tokens[k + 2]?.kind === "string" && tokens[k + 3]?.text === ")") {
        found.push({ specifier: tokens[k + 2].text, typeOnly: false, line: token.line });
      }
      continue;
    }
    if (token.text === "import" && next?.kind === "string") {
      found.push({ specifier: next.text, typeOnly: false, line: token.line });
      continue;
    }
    if (token.text === "export" && next?.text !== "{" && next?.text !== "*" && next?.text !== "type") {
      continue;
    }
    // scan the clause up to `from "..."`, stopping at the statement's end
    for (let j = k + 1; j < tokens.length && tokens[j].text !== ";"; j++) {
      if (tokens[j].text === "from" && tokens[j + 1]?.kind === "string") {
        const typeOnly = next?.text === "type" && tokens[k + 2]?.text !== "(";
        found.push({ specifier: tokens[j + 1].text, typeOnly, line: token.line });
        break;
      }
      if (tokens[j].kind === "word" && (tokens[j].text === "import" || tokens[j].text === "export")) break;
    }
  }
  return found;
}

/** The import graph of every `.ts` file under `dirs` (relative to `root`), with paths relative to `root`. */
export async function readImportGraph(root: string, dirs: readonly string[]): Promise<ImportGraph> {
  const graph: ImportGraph = new Map();
  const visit = async (dir: string) => {
    for await (const entry of Deno.readDir(join(root, dir))) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory) await visit(path);
      else if (entry.isFile && entry.name.endsWith(".ts")) {
        const text = await Deno.readTextFile(join(root, path));
        graph.set(
          path,
          importsOf(text).filter(({ specifier }) => specifier.startsWith(".")).map((
            { specifier, typeOnly, line },
          ) => ({
            to: normalize(join(dirname(path), specifier)).replaceAll("\\", "/"),
            typeOnly,
            line,
          })),
        );
      }
    }
  };
  for (const dir of dirs) await visit(dir);
  return graph;
}

/** A layering rule: files matching `from` may not import files matching `to` (unless `allow` says so). */
export interface LayerRule {
  name: string;
  from: (file: string) => boolean;
  to: (file: string) => boolean;
  allow?: (file: string, edge: ImportEdge) => boolean;
}

/** Every import that breaks a rule, as `rule: file:line imports target`. */
export function layerViolations(graph: ImportGraph, rules: readonly LayerRule[]): string[] {
  const out: string[] = [];
  for (const [file, edges] of graph) {
    for (const rule of rules) {
      if (!rule.from(file)) continue;
      for (const edge of edges) {
        if (rule.to(edge.to) && !rule.allow?.(file, edge)) {
          out.push(`${rule.name}: ${file}:${edge.line} imports ${edge.to}`);
        }
      }
    }
  }
  return out;
}

/**
 * The import cycles of `graph` (strongly connected components of more than
 * one node), each as its sorted member list.
 * `key` maps a file to the node it counts as (the file itself, or its folder
 * for a folder-level check); edges within one node are ignored.
 */
export function importCycles(graph: ImportGraph, key: (file: string) => string = (file) => file): string[][] {
  const edges = new Map<string, Set<string>>();
  for (const [file, imports] of graph) {
    const from = key(file);
    const set = edges.get(from) ?? new Set();
    edges.set(from, set);
    for (const { to } of imports) {
      const target = key(to);
      if (target !== from) set.add(target);
    }
  }
  // Tarjan's algorithm (recursive: import chains are a few dozen files deep)
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const connect = (node: string) => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const members: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        members.push(member);
      } while (member !== node);
      if (members.length > 1) cycles.push(members.sort());
    }
  };
  for (const node of edges.keys()) if (!index.has(node)) connect(node);
  return cycles;
}
