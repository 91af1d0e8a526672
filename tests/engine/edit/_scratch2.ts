import { parse } from "../../../engine/parse/mod.ts";
const t = await parse("python", 'def u(self):\n    """E.\n\n    M.\n    """\n    x = 1\n');
const s = t.rootNode.descendantsOfType("string")[0]!;
console.log(s.type, s.isNamed, s.parent?.type, s.parent?.namedChildCount, s.parent?.parent?.type);
const body = s.parent!.parent!;
console.log(body.namedChildren.map(c=>c?.id), s.parent!.id);
