/**
 * The operator DSL's expressions and substitution (see `dsl.ts` for the
 * language): `if` conditions parsed by a small recursive-descent parser and
 * evaluated against the variables bound so far (nothing is ever `eval`ed),
 * and `$name.field` references substituted into step params. Shared by the
 * plan-time check (`dsl_check.ts`) and the interpreter (`dsl.ts`).
 *
 * @module
 */

/** A `$name.field` reference (or the `$$` escape), global: for `replace`. */
export const REF = /\$\$|\$([A-Za-z_][A-Za-z0-9_]*)((?:\.[A-Za-z0-9_]+)*)/g;

/** A parsed `if` expression. */
export type Expr =
  | { kind: "ref"; name: string; fields: string[] }
  | { kind: "lit"; value: unknown }
  | { kind: "not"; arg: Expr }
  | { kind: "bin"; op: string; left: Expr; right: Expr };

interface Token {
  type: "ref" | "num" | "str" | "word" | "op" | "(" | ")";
  text: string;
}

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  const re =
    /\s*(?:(\$[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*)|(-?\d+(?:\.\d+)?)|('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")|([A-Za-z_]+)|(==|!=|>=|<=|&&|\|\||[<>!])|([()]))/y;
  let index = 0;
  while (index < source.length) {
    if (/^\s*$/.test(source.slice(index))) break;
    re.lastIndex = index;
    const match = re.exec(source);
    if (!match) throw new Error(`unexpected "${source.slice(index).trim().slice(0, 10)}"`);
    index = re.lastIndex;
    if (match[1]) tokens.push({ type: "ref", text: match[1] });
    else if (match[2]) tokens.push({ type: "num", text: match[2] });
    else if (match[3]) tokens.push({ type: "str", text: match[3] });
    else if (match[4]) tokens.push({ type: "word", text: match[4] });
    else if (match[5]) tokens.push({ type: "op", text: match[5] });
    else tokens.push({ type: match[6] as "(" | ")", text: match[6] });
  }
  return tokens;
}

/** Parse an `if` expression; throws an Error with a readable message when it is malformed. */
export function parseExpression(source: string): Expr {
  const tokens = tokenize(source);
  let pos = 0;
  const peek = () => tokens[pos];
  const isWord = (word: string) => peek()?.type === "word" && peek().text === word;
  const isOp = (...ops: string[]) => peek()?.type === "op" && ops.includes(peek().text);
  const or = (): Expr => {
    let left = and();
    while (isWord("or") || isOp("||")) {
      pos++;
      left = { kind: "bin", op: "or", left, right: and() };
    }
    return left;
  };
  const and = (): Expr => {
    let left = not();
    while (isWord("and") || isOp("&&")) {
      pos++;
      left = { kind: "bin", op: "and", left, right: not() };
    }
    return left;
  };
  const not = (): Expr => {
    if (isWord("not") || isOp("!")) {
      pos++;
      return { kind: "not", arg: not() };
    }
    return comparison();
  };
  const comparison = (): Expr => {
    const left = operand();
    if (isOp("==", "!=", ">", "<", ">=", "<=")) {
      const op = tokens[pos++].text;
      return { kind: "bin", op, left, right: operand() };
    }
    return left;
  };
  const operand = (): Expr => {
    const token = tokens[pos++];
    if (!token) throw new Error("expression ends too early");
    switch (token.type) {
      case "ref": {
        const [name, ...fields] = token.text.slice(1).split(".");
        return { kind: "ref", name, fields };
      }
      case "num":
        return { kind: "lit", value: Number(token.text) };
      case "str":
        return { kind: "lit", value: token.text.slice(1, -1).replace(/\\(.)/g, "$1") };
      case "word":
        if (token.text === "true") return { kind: "lit", value: true };
        if (token.text === "false") return { kind: "lit", value: false };
        if (token.text === "null") return { kind: "lit", value: null };
        throw new Error(`unknown word "${token.text}" (variables start with "$", strings are quoted)`);
      case "(": {
        const inner = or();
        if (tokens[pos++]?.type !== ")") throw new Error(`missing ")"`);
        return inner;
      }
      default:
        throw new Error(`unexpected "${token.text}"`);
    }
  };
  if (tokens.length === 0) throw new Error("expression is empty");
  const expr = or();
  if (pos < tokens.length) throw new Error(`unexpected "${tokens[pos].text}"`);
  return expr;
}

/** The variables an expression reads. */
export function exprRefs(expr: Expr): string[] {
  switch (expr.kind) {
    case "ref":
      return [expr.name];
    case "lit":
      return [];
    case "not":
      return exprRefs(expr.arg);
    case "bin":
      return [...exprRefs(expr.left), ...exprRefs(expr.right)];
  }
}

/** Python-like truthiness. */
export function truthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (value && typeof value === "object") return Object.keys(value).length > 0;
  return Boolean(value);
}

function lookup(env: Record<string, unknown>, name: string, fields: string[]): unknown {
  let value = env[name];
  for (const field of fields) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<string, unknown>)[field];
  }
  return value;
}

/** Evaluate a parsed expression against variables. */
export function evaluate(expr: Expr, env: Record<string, unknown>): unknown {
  switch (expr.kind) {
    case "ref":
      return lookup(env, expr.name, expr.fields);
    case "lit":
      return expr.value;
    case "not":
      return !truthy(evaluate(expr.arg, env));
    case "bin": {
      if (expr.op === "and") return truthy(evaluate(expr.left, env)) && truthy(evaluate(expr.right, env));
      if (expr.op === "or") return truthy(evaluate(expr.left, env)) || truthy(evaluate(expr.right, env));
      const a = evaluate(expr.left, env) ?? null;
      const b = evaluate(expr.right, env) ?? null;
      switch (expr.op) {
        case "==":
          return a === b || (a != null && b != null && JSON.stringify(a) === JSON.stringify(b));
        case "!=":
          return !(a === b || (a != null && b != null && JSON.stringify(a) === JSON.stringify(b)));
        case ">":
          return (a as number) > (b as number);
        case "<":
          return (a as number) < (b as number);
        case ">=":
          return (a as number) >= (b as number);
        default:
          return (a as number) <= (b as number);
      }
    }
  }
}

// ---------------------------------------------------------------- substitution

/** Variable names referenced by `$...` in a JSON-like value. */
export function references(value: unknown): string[] {
  if (typeof value === "string") {
    return [...value.matchAll(REF)].filter((m) => m[0] !== "$$").map((m) => m[1]);
  }
  if (Array.isArray(value)) return value.flatMap(references);
  if (value && typeof value === "object") return Object.values(value).flatMap(references);
  return [];
}

/**
 * Replace `$name(.field)*` references in `value` by their values from `env`.
 * Names not in `env` are kept verbatim (expansion leaves bound variables).
 */
export function substitute(value: unknown, env: Record<string, unknown>): unknown {
  if (typeof value === "string") {
    const whole = /^\$([A-Za-z_][A-Za-z0-9_]*)((?:\.[A-Za-z0-9_]+)*)$/.exec(value);
    if (whole && whole[1] in env) {
      const { value: resolved, rest } = follow(env[whole[1]], whole[2]);
      if (rest === "") return resolved;
    }
    return value.replace(REF, (match, name: string, fields: string) => {
      if (match === "$$") return "$";
      if (!(name in env)) return match;
      const { value: resolved, rest } = follow(env[name], fields);
      return stringify(resolved) + rest;
    });
  }
  if (Array.isArray(value)) return value.map((item) => substitute(item, env));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, substitute(item, env)]));
  }
  return value;
}

/** Follow `.a.b` into objects as far as they go; the unused part is returned as text. */
/** Follow `.field.sub` into objects; what could not be followed is `rest`. */
export function follow(value: unknown, fields: string): { value: unknown; rest: string } {
  const parts = fields.split(".").slice(1);
  let current = value;
  let used = 0;
  for (const part of parts) {
    if (current === null || typeof current !== "object" || !(part in (current as object))) break;
    current = (current as Record<string, unknown>)[part];
    used++;
  }
  return { value: current, rest: parts.slice(used).map((part) => `.${part}`).join("") };
}

function stringify(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined) return "";
  if (value !== null && typeof value === "object") return JSON.stringify(value);
  return String(value);
}
