import { detectLanguage, parse } from "../../../engine/parse/mod.ts";
for (const f of Deno.args) {
  const text = Deno.readTextFileSync(f);
  const tree = await parse(detectLanguage(f)!, text);
  const out: string[] = [];
  const walk = (n: any, depth: number, field: string | null) => {
    if (!n.isNamed) return;
    const first = n.text.split("\n")[0].slice(0, 40);
    out.push(`${"  ".repeat(depth)}${field ? field + ": " : ""}${n.type} [${n.startPosition.row + 1}] ${n.childCount === 0 || n.type.includes("identifier") ? JSON.stringify(first) : ""}`);
    for (let i = 0; i < n.childCount; i++) walk(n.child(i), depth + 1, n.fieldNameForChild(i));
  };
  walk(tree.rootNode, 0, null);
  console.log(`#### ${f}\n${out.join("\n")}`);
}
