/**
 * A linear-time regular expression matcher for the `#match?` predicates of
 * S-expression locators.
 *
 * ## Why not `RegExp`
 *
 * JavaScript's `RegExp` backtracks: `^(a+)+$` against 34 `a`s and a `b`
 * takes longer than a request may run, and once started it cannot be
 * stopped (the predicate runs synchronously inside the query). Tree-sitter's
 * own predicates use Rust's `regex` crate, which cannot backtrack; this
 * module gives the same guarantee: the pattern is compiled to a Thompson NFA
 * and run as a Pike VM, keeping the set of live states while reading the
 * text once, so a test costs at most `states × characters` steps whatever
 * the pattern.
 *
 * ## Worked example
 *
 * `a+b` compiles to `0: char a → 1`, `1: split → 0 | 2`, `2: char b → 3`,
 * `3: match`. Against `aab` the live set is `{0}` (plus a fresh `{0}` at
 * each position, since `test` searches anywhere), after `a` it is `{0, 2}`
 * (the split is followed at once), after the second `a` again `{0, 2}`, and
 * after `b` it holds `3`: a match. However many ways `(a+)+` could split the
 * `a`s, each state is in the set at most once.
 *
 * ## The syntax
 *
 * What Rust's `regex` and JavaScript agree on: literals, `.`, `[...]`
 * classes (ranges, `^` negation, `\d \w \s` inside), `\d \D \w \W \s \S`,
 * `\b \B`, escapes of punctuation and `\n \t \r \f \v \0`, `\xHH`,
 * `\uHHHH`, `\x{H...}`, groups `(...)`, `(?:...)`, `(?P<n>...)`,
 * `(?<n>...)`, alternation, `^ $` (whole text), quantifiers `* + ? {n}
 * {n,} {n,m}` (lazy forms accepted: only whether it matches is asked), and
 * a leading `(?i)`. Backreferences and lookaround are refused: Rust's
 * `regex` has neither, and they are what makes matching exponential.
 *
 * @module
 */

/** A compiled pattern: `test` as `RegExp.prototype.test`, in linear time. */
export interface LinearRegex {
  source: string;
  /** Whether the pattern matches anywhere in `text`; `interrupt` is called every few thousand characters. */
  test(text: string, interrupt?: () => void): boolean;
}

/** Most NFA states one pattern may compile to (repeats `{n,m}` are copied out). */
export const MAX_STATES = 10_000;

type CharTest = (c: number) => boolean;

type Ast =
  | { t: "char"; test: CharTest }
  | { t: "cat"; items: Ast[] }
  | { t: "alt"; items: Ast[] }
  | { t: "rep"; item: Ast; min: number; max: number }
  | { t: "assert"; kind: "bol" | "eol" | "wb" | "nwb" }
  | { t: "empty" };

/** A pattern this matcher does not accept (the message says why). */
export class RegexSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RegexSyntaxError";
  }
}

const isWord: CharTest = (c) =>
  (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const isDigit: CharTest = (c) => c >= 48 && c <= 57;
const SPACE = /\s/;
const isSpace: CharTest = (c) => SPACE.test(String.fromCodePoint(c));
const isDot: CharTest = (c) => c !== 10 && c !== 13 && c !== 0x2028 && c !== 0x2029;
const not = (f: CharTest): CharTest => (c) => !f(c);

/** Compile `source`; throws `RegexSyntaxError` for what the module notes refuse. */
export function compileLinearRegex(source: string): LinearRegex {
  let ignoreCase = false;
  let body = source;
  if (body.startsWith("(?i)")) {
    ignoreCase = true;
    body = body.slice(4);
  }
  const ast = new Parser(body).parse();
  const program = compile(ast, ignoreCase);
  return { source, test: (text, interrupt) => run(program, text, interrupt) };
}

class Parser {
  private i = 0;
  private readonly chars: number[];

  constructor(source: string) {
    this.chars = Array.from(source, (ch) => ch.codePointAt(0)!);
  }

  parse(): Ast {
    const ast = this.alternation();
    if (this.i < this.chars.length) throw new RegexSyntaxError(`unmatched ")" at ${this.i}`);
    return ast;
  }

  private peek(): number | undefined {
    return this.chars[this.i];
  }

  private eat(c: string): boolean {
    if (this.chars[this.i] === c.codePointAt(0)) {
      this.i++;
      return true;
    }
    return false;
  }

  private alternation(): Ast {
    const items = [this.sequence()];
    while (this.eat("|")) items.push(this.sequence());
    return items.length === 1 ? items[0] : { t: "alt", items };
  }

  private sequence(): Ast {
    const items: Ast[] = [];
    while (this.i < this.chars.length && this.peek() !== 124 /* | */ && this.peek() !== 41 /* ) */) {
      items.push(this.repeat(this.atom()));
    }
    return items.length === 0 ? { t: "empty" } : items.length === 1 ? items[0] : { t: "cat", items };
  }

  private repeat(atom: Ast): Ast {
    for (;;) {
      let min: number;
      let max: number;
      if (this.eat("*")) [min, max] = [0, Infinity];
      else if (this.eat("+")) [min, max] = [1, Infinity];
      else if (this.eat("?")) [min, max] = [0, 1];
      else if (this.peek() === 123 /* { */ && this.braces()) [min, max] = this.braces()!;
      else return atom;
      if (this.peek() === 123) this.skipBraces();
      if (atom.t === "assert") throw new RegexSyntaxError("a quantifier after an anchor");
      this.eat("?"); // lazy: the same language
      if (this.peek() === 43 /* + */) throw new RegexSyntaxError("possessive quantifiers are not supported");
      atom = { t: "rep", item: atom, min, max };
    }
  }

  /** `{n}`, `{n,}`, `{n,m}` at the cursor (without moving), or undefined when it is a literal `{`. */
  private braces(): [number, number] | undefined {
    const rest = String.fromCodePoint(...this.chars.slice(this.i, this.i + 24));
    const m = /^\{(\d{1,6})(,(\d{0,6}))?\}/.exec(rest);
    if (!m) return undefined;
    const min = Number(m[1]);
    const max = m[2] === undefined ? min : m[3] === "" ? Infinity : Number(m[3]);
    if (max < min) throw new RegexSyntaxError(`repeat {${min},${max}}: the maximum is below the minimum`);
    return [min, max];
  }

  private skipBraces(): void {
    while (this.i < this.chars.length && this.chars[this.i] !== 125 /* } */) this.i++;
    this.i++;
  }

  private atom(): Ast {
    const c = this.chars[this.i++];
    switch (c) {
      case 40 /* ( */:
        return this.group();
      case 91 /* [ */:
        return { t: "char", test: this.charClass() };
      case 46 /* . */:
        return { t: "char", test: isDot };
      case 94 /* ^ */:
        return { t: "assert", kind: "bol" };
      case 36 /* $ */:
        return { t: "assert", kind: "eol" };
      case 92 /* \ */:
        return this.escape(false);
      case 42:
      case 43:
      case 63:
        throw new RegexSyntaxError(`nothing to repeat before "${String.fromCodePoint(c)}"`);
      default:
        return { t: "char", test: (x) => x === c };
    }
  }

  private group(): Ast {
    if (this.eat("?")) {
      if (this.eat(":")) {
        // non-capturing
      } else if (this.eat("P") || this.peek() === 60 /* < */) {
        if (!this.eat("<")) throw new RegexSyntaxError('expected "<" after "(?P"');
        if (this.peek() === 61 /* = */ || this.peek() === 33 /* ! */) {
          throw new RegexSyntaxError("lookbehind is not supported");
        }
        while (this.i < this.chars.length && !this.eat(">")) this.i++;
      } else if (this.peek() === 61 || this.peek() === 33) {
        throw new RegexSyntaxError("lookahead is not supported");
      } else {
        throw new RegexSyntaxError("inline flags are supported only as a leading (?i)");
      }
    }
    const inner = this.alternation();
    if (!this.eat(")")) throw new RegexSyntaxError('unterminated group: missing ")"');
    return inner;
  }

  private charClass(): CharTest {
    const negate = this.eat("^");
    const parts: CharTest[] = [];
    let first = true;
    while (this.i < this.chars.length) {
      if (this.peek() === 93 /* ] */ && !first) break;
      first = false;
      let lo: number;
      const c = this.chars[this.i++];
      if (c === 92) {
        const esc = this.escape(true);
        if (esc.t !== "char" || !("code" in esc)) {
          if (esc.t === "char") parts.push(esc.test);
          continue;
        }
        lo = (esc as { code: number }).code;
      } else lo = c;
      if (this.peek() === 45 /* - */ && this.chars[this.i + 1] !== 93 && this.i + 1 < this.chars.length) {
        this.i++;
        let hi = this.chars[this.i++];
        if (hi === 92) {
          const esc = this.escape(true) as { code?: number };
          if (esc.code === undefined) throw new RegexSyntaxError("a class escape cannot end a range");
          hi = esc.code;
        }
        if (hi < lo) throw new RegexSyntaxError("a range out of order in a character class");
        const [a, b] = [lo, hi];
        parts.push((x) => x >= a && x <= b);
      } else {
        const a = lo;
        parts.push((x) => x === a);
      }
    }
    if (!this.eat("]")) throw new RegexSyntaxError('unterminated character class: missing "]"');
    const any: CharTest = (x) => parts.some((part) => part(x));
    return negate ? not(any) : any;
  }

  /** After a backslash. Literal escapes carry their `code` (for ranges). */
  private escape(inClass: boolean): Ast & { code?: number } {
    const c = this.chars[this.i++];
    if (c === undefined) throw new RegexSyntaxError("a trailing backslash");
    const ch = String.fromCodePoint(c);
    const literal = (code: number) => ({ t: "char" as const, test: (x: number) => x === code, code });
    switch (ch) {
      case "d":
        return { t: "char", test: isDigit };
      case "D":
        return { t: "char", test: not(isDigit) };
      case "w":
        return { t: "char", test: isWord };
      case "W":
        return { t: "char", test: not(isWord) };
      case "s":
        return { t: "char", test: isSpace };
      case "S":
        return { t: "char", test: not(isSpace) };
      case "b":
        return inClass ? literal(8) : { t: "assert", kind: "wb" };
      case "B":
        if (inClass) throw new RegexSyntaxError("\\B inside a character class");
        return { t: "assert", kind: "nwb" };
      case "n":
        return literal(10);
      case "t":
        return literal(9);
      case "r":
        return literal(13);
      case "f":
        return literal(12);
      case "v":
        return literal(11);
      case "0":
        return literal(0);
      case "x":
      case "u": {
        const rest = String.fromCodePoint(...this.chars.slice(this.i, this.i + 10));
        const m = ch === "x"
          ? /^(?:\{([0-9a-fA-F]{1,6})\}|([0-9a-fA-F]{2}))/.exec(rest)
          : /^([0-9a-fA-F]{4})/.exec(rest);
        if (!m) throw new RegexSyntaxError(`a malformed \\${ch} escape`);
        this.i += m[0].length;
        return literal(parseInt(m[1] ?? m[2], 16));
      }
      default:
        if (/[1-9]/.test(ch)) throw new RegexSyntaxError("backreferences are not supported");
        if (ch === "k") throw new RegexSyntaxError("named backreferences are not supported");
        if (/[A-Za-z]/.test(ch)) throw new RegexSyntaxError(`the escape "\\${ch}" is not supported`);
        return literal(c);
    }
  }
}

// ------------------------------------------------------------------ NFA

type State =
  | { t: "char"; test: CharTest; next: number }
  | { t: "split"; a: number; b: number }
  | { t: "assert"; kind: "bol" | "eol" | "wb" | "nwb"; next: number }
  | { t: "match" };

/** A compiled program: states, the start state. */
interface Program {
  states: State[];
  start: number;
}

function compile(ast: Ast, ignoreCase: boolean): Program {
  const states: State[] = [];
  const add = (state: State): number => {
    if (states.length >= MAX_STATES) {
      throw new RegexSyntaxError(
        `the pattern is too large (more than ${MAX_STATES} states once repeats are counted)`,
      );
    }
    states.push(state);
    return states.length - 1;
  };
  const fold = (test: CharTest): CharTest => {
    if (!ignoreCase) return test;
    return (c) => {
      if (test(c)) return true;
      const s = String.fromCodePoint(c);
      const lower = s.toLowerCase().codePointAt(0)!;
      const upper = s.toUpperCase().codePointAt(0)!;
      return (lower !== c && test(lower)) || (upper !== c && test(upper));
    };
  };
  // Compile `node` so that it continues at `next`; returns its entry state.
  const emit = (node: Ast, next: number): number => {
    switch (node.t) {
      case "empty":
        return next;
      case "char":
        return add({ t: "char", test: fold(node.test), next });
      case "assert":
        return add({ t: "assert", kind: node.kind, next });
      case "cat": {
        let entry = next;
        for (let k = node.items.length - 1; k >= 0; k--) entry = emit(node.items[k], entry);
        return entry;
      }
      case "alt": {
        let entry = emit(node.items[node.items.length - 1], next);
        for (let k = node.items.length - 2; k >= 0; k--) {
          entry = add({ t: "split", a: emit(node.items[k], next), b: entry });
        }
        return entry;
      }
      case "rep": {
        let entry = next;
        if (node.max === Infinity) {
          // a loop: split → (item → split) | next
          const split = add({ t: "split", a: -1, b: next });
          const body = emit(node.item, split);
          (states[split] as { a: number }).a = body;
          entry = split;
        } else {
          for (let k = node.max - node.min; k > 0; k--) {
            entry = add({ t: "split", a: emit(node.item, entry), b: next });
          }
        }
        for (let k = 0; k < node.min; k++) entry = emit(node.item, entry);
        return entry;
      }
    }
  };
  const match = add({ t: "match" });
  return { states, start: emit(ast, match) };
}

/** Whether `program` matches anywhere in `text` (a Pike VM without captures). */
function run(program: Program, text: string, interrupt?: () => void): boolean {
  const { states, start } = program;
  const chars = Array.from(text, (ch) => ch.codePointAt(0)!);
  let current: number[] = [];
  let next: number[] = [];
  const mark = new Int32Array(states.length).fill(-1);
  let generation = 0;
  // Follow splits and assertions from `s` at position `pos`, adding char/match states to `list`.
  const addState = (list: number[], s: number, pos: number): boolean => {
    const stack = [s];
    while (stack.length > 0) {
      const id = stack.pop()!;
      if (mark[id] === generation) continue;
      mark[id] = generation;
      const state = states[id];
      if (state.t === "match") return true;
      if (state.t === "split") {
        stack.push(state.b, state.a);
      } else if (state.t === "assert") {
        if (assertion(state.kind, chars, pos)) stack.push(state.next);
      } else list.push(id);
    }
    return false;
  };
  for (let pos = 0; pos <= chars.length; pos++) {
    if (interrupt && (pos & 4095) === 4095) interrupt();
    generation++;
    next = [];
    // threads carried from the previous character
    for (const id of current) {
      const state = states[id] as { test: CharTest; next: number };
      if (state.test(chars[pos - 1]) && addState(next, state.next, pos)) return true;
    }
    // a new thread starting here (the search is unanchored)
    if (addState(next, start, pos)) return true;
    current = next;
  }
  return false;
}

function assertion(kind: "bol" | "eol" | "wb" | "nwb", chars: number[], pos: number): boolean {
  if (kind === "bol") return pos === 0;
  if (kind === "eol") return pos === chars.length;
  const before = pos > 0 && isWord(chars[pos - 1]);
  const after = pos < chars.length && isWord(chars[pos]);
  return kind === "wb" ? before !== after : before === after;
}
