import { parse } from "../../engine/parse/mod.ts";
const src = Deno.args[1] ?? `
import os.path, sys as s
from . import a as b, c
from x.y import *
try:
    pass
except ValueError as e:
    pass
with open(f) as (g, h), k:
    pass
def f(a, b: int, c=1, d: int = 2, *args, e, **kw) -> int:
    global z
    nonlocal q
    x = [i for i in y if i for j in i]
    del x
    lambda p, *r: p
    (w := 3)
    f(a, k=2, *l, **m)
    o.attr = 1
    for u, (v, t) in zip(): pass
    print(x, file=3)
class C(B, metaclass=M):
    y: int = 2
`;
const tree = await parse((Deno.args[0] ?? "python") as "python", src);
console.log(tree.rootNode.toString().replace(/\(/g, "\n(").slice(0, 20000));
