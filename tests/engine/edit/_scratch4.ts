import { PRIMITIVES } from "../../../engine/edit/primitives.ts";
import { contextWith, corpusFile, textOf } from "./_edit_support.ts";
const MODELS = "requests/models.py";
const text = await corpusFile("psf__requests-2931", MODELS);
const { ctx } = await contextWith({ [MODELS]: text });
const method = (name: string, cls: string) => ({ kind: "method", name, file: MODELS, parent: { kind: "class", name: cls } });
await PRIMITIVES.replace_node({
      locator: { ...method("__bool__", "Response"), field: "body" },
      replacement: "if self.status_code is None:\n            return False\n        return self.ok",
    }, ctx);
const after = await textOf(ctx, MODELS);
const i = after.indexOf("def __bool__");
console.log(after.slice(i - 10, i + 300));
const source = "class A:\n    def f(self):\n        return 'é'\n\n    def g(self):\n        pass\n";
const c2 = (await contextWith({ "a.py": source })).ctx;
console.log(JSON.stringify(await PRIMITIVES.locate({ locator: { kind: "method", file: "a.py" } }, c2)));
console.log(JSON.stringify(await PRIMITIVES.locate_region({ locator: { kind: "method", name: "f", file: "a.py" } }, c2)));
