/**
 * One configuration of a C or C++ file, the way a preprocessor would show it,
 * for the readers that need a sound tree where tree-sitter fails on the file.
 *
 * tree-sitter parses a C file without running the preprocessor, so a
 * conditional that splits a statement (curl's `if(a) {...}` then `#ifdef
 * ENABLE_IPV6 else if(b) {...} #endif else {...}`, a `{` opened in both
 * branches of an `#if`) leaves ERROR nodes over whole functions, and so does
 * a macro the grammar reads as a type (`analysis/macro_specifiers.ts`). The
 * names a reader finds inside those ERROR nodes cannot be trusted, so a
 * function deleted while still called there went unnoticed.
 *
 * ## The view
 *
 * Every conditional keeps its first branch (the `#else` branch of an `#if 0`)
 * and loses the others; the directive lines (`#if`, `#ifdef`, `#ifndef`,
 * `#elif`, `#else`, `#endif`, with their continuation lines) and the lost
 * branches become spaces, as do the macros `macro_specifiers.ts` blanks.
 * Every offset stays, so a node of the view is found in the real tree at the
 * same span. What the view hides is reported as words: a name mentioned only
 * in a lost branch (a second definition for another platform, a call under
 * another option) must count as mentioned by a reader that wants to stay
 * conservative, since another configuration sees it.
 *
 * @module
 */

import { blankMacroSpecifiers } from "./macro_specifiers.ts";

/** A file seen in one configuration (see the module notes). */
export interface Configuration {
  /** The text with other branches, directives and unknown macros blanked (same length, same lines). */
  text: string;
  /** The words of the blanked text. */
  hidden: Set<string>;
}

const DIRECTIVE = /^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif)\b(.*)$/;

/** `text` (C or C++) in one configuration, or undefined when it has no conditional and no macro to blank. */
export function oneConfiguration(text: string): Configuration | undefined {
  return configuration(text, firstBranch);
}

/**
 * The two configurations that show the code an edit wrote in conditionals
 * (`l0_macros.ts` reads both when the first branches hide some of it): a
 * conditional around the edit keeps the branch the edit is in, one the edit
 * wrote keeps its first branch in the one view and its `#else` (or nothing)
 * in the other, and every other conditional its first branch. `from` and
 * `to` are the offsets of the edit in `text` (the text before the edit and
 * the text after it are each read with their own).
 */
export function editConfigurations(text: string, from: number, to: number): [string, string] {
  const around = (choose: Choose): Choose => (group) => {
    if (group.start >= from && group.start < to) return choose(group);
    const inside = group.branches.findIndex((branch) => branch.start <= from && from < branch.end);
    return inside >= 0 ? inside : firstBranch(group);
  };
  return [
    blankMacroSpecifiers(branches(text, around(firstBranch))),
    blankMacroSpecifiers(branches(text, around(elseBranch))),
  ];
}

function configuration(text: string, choose: Choose): Configuration | undefined {
  const view = blankMacroSpecifiers(branches(text, choose));
  if (view === text) return undefined;
  const hidden = new Set<string>();
  for (const word of text.matchAll(/[A-Za-z_]\w*/g)) {
    if (view.charCodeAt(word.index) === 32) hidden.add(word[0]);
  }
  return { text: view, hidden };
}

const CONTINUED = /\\\r?$/;
const DEFINE_HEAD = /^[ \t]*#[ \t]*define[ \t]+[A-Za-z_]\w*(?:\([^()\n]*\))?/;

/**
 * `text` (C or C++) with the replacement list of every `#define` blanked,
 * continuation lines included (same length, same lines). The preprocessor
 * keeps a macro's body as tokens and the compiler reads them only where the
 * macro is used, so no body is a syntax error where it is written; the
 * grammar reads a body as one token in a sound tree, but inside an ERROR
 * node its recovery may parse the body as code and fail on it. A body
 * becomes `0` and spaces: the grammar wants a token before the newline.
 */
export function macroBodiesBlanked(text: string): string {
  let continued = false;
  return text.split("\n").map((line) => {
    const blank = (from: number) => line.slice(0, from) + line.slice(from).replace(/[^\r]/g, " ");
    if (continued) {
      continued = CONTINUED.test(line);
      return blank(0);
    }
    const head = line.match(DEFINE_HEAD);
    if (!head) return line;
    continued = CONTINUED.test(line);
    // the grammar wants a body token before the newline: the body's first character becomes `0`
    const first = line.slice(head[0].length).search(/[^ \t\r]/);
    if (first === -1) return line;
    const at = head[0].length + first;
    return blank(at).slice(0, at) + "0" + blank(at + 1).slice(at + 1);
  }).join("\n");
}

/**
 * Whether every conditional of `text` (C or C++) closes in order: no
 * `#elif`, `#else` or `#endif` without an open `#if`, none left open.
 */
export function conditionalsBalanced(text: string): boolean {
  let depth = 0;
  for (const line of text.split("\n")) {
    const word = line.match(DIRECTIVE)?.[1];
    if (!word) continue;
    if (word.startsWith("if")) depth++;
    else if (depth === 0) return false;
    else if (word === "endif") depth--;
  }
  return depth === 0;
}

/** One conditional: where its `#if` line starts, and its branches (after each directive, to the next one). */
interface Group {
  start: number;
  branches: { word: string; condition: string; start: number; end: number }[];
}

/** Which branch of a conditional a view keeps (an index of its branches, or -1 for none). */
type Choose = (group: Group) => number;

/** The first branch, or the one after an `#if 0`. */
const firstBranch: Choose = (group) => {
  const [first] = group.branches;
  const never = first.word === "if" && /^\s*0\s*(?:\/[/*].*)?$/.test(first.condition);
  return never ? (group.branches.length > 1 ? 1 : -1) : 0;
};

/** The `#else` branch (every condition false), or none. */
const elseBranch: Choose = (group) => group.branches.findIndex((branch) => branch.word === "else");

/** The lines of `text` with their offsets, a directive's continuation lines joined to it. */
function logicalLines(text: string): { start: number; end: number; directive?: RegExpMatchArray }[] {
  const out: { start: number; end: number; directive?: RegExpMatchArray }[] = [];
  let offset = 0;
  let continued = false;
  for (const line of text.split("\n")) {
    const end = offset + line.length;
    if (continued) out.at(-1)!.end = end;
    else out.push({ start: offset, end, directive: line.match(DIRECTIVE) ?? undefined });
    continued = line.endsWith("\\");
    offset = end + 1;
  }
  return out;
}

/** `text` with the branches `choose` does not keep and every conditional's directive lines blanked. */
function branches(text: string, choose: Choose): string {
  const lines = logicalLines(text);
  // first pass: the conditionals and their branches
  const groups: Group[] = [];
  const stack: Group[] = [];
  const groupAt = new Map<number, Group>();
  for (const line of lines) {
    const directive = line.directive;
    if (!directive) continue;
    const [, word, condition] = directive;
    if (word.startsWith("if")) {
      const group: Group = { start: line.start, branches: [] };
      groups.push(group);
      stack.push(group);
    }
    const group = stack.at(-1);
    if (!group) continue;
    const last = group.branches.at(-1);
    if (last) last.end = line.start;
    if (word === "endif") stack.pop();
    else group.branches.push({ word, condition, start: line.end + 1, end: text.length });
    groupAt.set(line.start, group);
  }
  const kept = new Map(groups.map((group) => [group, choose(group)]));
  // second pass: a line shows when every conditional around it is in its kept branch
  const open: { group: Group; branch: number }[] = [];
  const chars = text.split("");
  const blank = (from: number, to: number) => {
    for (let i = from; i < to; i++) if (chars[i] !== "\n" && chars[i] !== "\r") chars[i] = " ";
  };
  for (const line of lines) {
    const directive = line.directive;
    if (directive) {
      const group = groupAt.get(line.start);
      const word = directive[1];
      if (group && word.startsWith("if")) open.push({ group, branch: 0 });
      else if (group && word === "endif") open.pop();
      else if (group) open.at(-1)!.branch++;
      blank(line.start, line.end);
      continue;
    }
    if (open.some((level) => kept.get(level.group) !== level.branch)) blank(line.start, line.end);
  }
  return chars.join("");
}
