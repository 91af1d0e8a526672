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
  const view = blankMacroSpecifiers(firstBranches(text));
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

/** `text` with every conditional's other branches and its directive lines blanked. */
function firstBranches(text: string): string {
  // per open conditional: whether its current branch is skipped, and whether a branch was taken
  const open: { skip: boolean; taken: boolean }[] = [];
  let continued = false;
  let blankContinued = false;
  return text.split("\n").map((line) => {
    const blank = line.replace(/[^\r]/g, " ");
    if (continued) {
      continued = line.endsWith("\\");
      return blankContinued ? blank : line;
    }
    continued = line.endsWith("\\");
    const directive = line.match(DIRECTIVE);
    if (!directive) {
      blankContinued = open.some((level) => level.skip);
      return blankContinued ? blank : line;
    }
    const [, word, condition] = directive;
    if (word.startsWith("if")) {
      const never = word === "if" && /^\s*0\s*(?:\/[/*].*)?$/.test(condition);
      open.push({ skip: never, taken: !never });
    } else if (word === "endif") {
      open.pop();
    } else {
      const level = open.at(-1);
      if (level) [level.skip, level.taken] = [level.taken, true];
    }
    blankContinued = true;
    return blank;
  }).join("\n");
}
