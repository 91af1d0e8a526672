/**
 * Python statements whose verdict depends on where they stand (`break`,
 * `return`, `yield`, `await`, `nonlocal`, argument and parameter order,
 * assignment targets, Python 2 syntax, blocks the grammar reads as empty),
 * and the way to put one at the `{S}` hole of a context: shared by the tests
 * that hold the statement-context analysis to CPython's `compile()`.
 *
 * @module
 */

/** The statements (some spanning lines, indented as one block). */
export const CONTEXT_STATEMENTS = [
  "pass",
  "break",
  "continue",
  "return",
  "return 1",
  "yield",
  "yield from z",
  "x = yield",
  "await z",
  "x = [await z for z in w]",
  "x = (await z for z in w)",
  "x = [z async for z in w]",
  "x = (z async for z in w)",
  "x = {k: await v for k, v in w}",
  "x = [z for z in await w]",
  "x = [[await z for z in w] for v in u]",
  "x = ([await z for z in w] for v in u)",
  "x = lambda: await z",
  "x = lambda: (await z for z in w)",
  "async for z in w: pass",
  "async with z: pass",
  "nonlocal x",
  "nonlocal y",
  "nonlocal q",
  "f(a=1, b)",
  "f(**k, b)",
  "f(**k, *a)",
  "f(*a, b=1, *c)",
  "f(a=1, a=2)",
  "f(a, b=1, **k)",
  "class B(M, metaclass=N): pass",
  "class B(metaclass=N, M): pass",
  "def h(a, a): pass",
  "def h(a=1, b): pass",
  "def h(a=1, *, b): pass",
  "def h(a=1, /, b): pass",
  "def h(*, **k): pass",
  "def h(a, *a): pass",
  "x = lambda a, a: 0",
  "x = lambda a=1, b: 0",
  "del f()",
  "del (a, b), [c.d, e[0]]",
  "del [a, 1]",
  "a, b += 1",
  "[a] += 1",
  "a.b += 1",
  "*a = b",
  "*a, *b = c",
  "*a, b = c",
  "with z as f(): pass",
  "with z as (a, b): pass",
  "with z as (a, 1): pass",
  "x = lambda: (yield)",
  "x = [(yield) for z in w]",
  "x = [y for y in (yield)]",
  "x = ((yield) for z in w)",
  "print 'x'",
  "@d\ndef h(): return 1",
  "x = 1",
  "global q",
  "f(x)",
  "return [await z for z in w]",
  "return (yield)",
  // a body not indented under its header: the grammar reads an empty block (flask-5014's guard written flat)
  "if z:\nx = 1",
  "if z:\n    x = 1",
  "def h():\n# only a comment\nx = 1",
  "try:\n    pass\nexcept E:\nraise",
  'class B:\n"""doc"""',
];

/** Put `statement` at the `{S}` hole of `context`, indented like the hole. */
export function fillHole(context: string, statement: string): string {
  const hole = context.indexOf("{S}");
  const indent = context.slice(context.lastIndexOf("\n", hole) + 1, hole);
  return context.replace("{S}", statement.replaceAll("\n", "\n" + indent)) + "\n";
}
