import assert from "node:assert/strict";
import { COMPOSED_OPS } from "../../../engine/edit/composed_ops.ts";
import { PRIMITIVES } from "../../../engine/edit/primitives.ts";
import { parse } from "../../../engine/parse/mod.ts";
import { corpusBeforeFiles } from "../../_support/corpus.ts";
import { PYTHON_SKIP, pythonSyntaxErrors } from "../../_support/python.ts";
import { contextWith, CORPUS_SKIP, textOf } from "./_edit_support.ts";

/** How many distinct corpus files the sweep edits (kept small: the machine is shared). */
const FILES = 40;

Deno.test({
  name: "corpus sweep: composed ops and primitives on real files keep CPython happy",
  ignore: CORPUS_SKIP !== undefined || PYTHON_SKIP !== undefined,
  fn: async () => {
    const seen = new Set<string>();
    const files = (await corpusBeforeFiles(".py")).filter((file) => {
      if (seen.has(file.path) || file.text.includes("\t")) return false;
      seen.add(file.path);
      return true;
    }).slice(0, FILES);
    const results: { name: string; text: string }[] = [];
    let edits = 0;
    for (const file of files) {
      const path = "m.py";
      const { ctx, dir } = await contextWith({ [path]: file.text });
      const tree = await parse("python", file.text);
      const classes = tree.rootNode.namedChildren.filter((node) => node?.type === "class_definition");
      const names = classes.map((node) => node!.childForFieldName("name")!.text);
      const unique = names.find((name) =>
        names.indexOf(name) === names.lastIndexOf(name) && !file.text.includes(`class ${name}(`.repeat(2))
      );
      tree.delete();
      await COMPOSED_OPS.add_import({ file: path, import_statement: "import graphplan_probe" }, ctx);
      edits++;
      if (unique) {
        const cls = { kind: "class", name: unique, file: path };
        const methods = await PRIMITIVES.locate(
          { locator: { kind: "method", file: path, parent: cls } },
          ctx,
        ) as {
          count: number;
        };
        try {
          await COMPOSED_OPS.add_method({
            file: path,
            class_name: unique,
            method_code: 'def probe(self):\n    """Probe.\n\n    Two paragraphs.\n    """\n    return 1\n',
          }, ctx);
          await COMPOSED_OPS.add_class_attribute({ file: path, class: unique, code: "probe_attr = 1" }, ctx);
          edits += 2;
          if (methods.count > 1) {
            await PRIMITIVES.delete_node(
              { locator: { kind: "method", file: path, parent: cls, index: 0 } },
              ctx,
            );
            await PRIMITIVES.wrap_node({
              locator: {
                kind: "statement",
                file: path,
                parent: { kind: "method", name: "probe", parent: cls },
                index: -1,
              },
              before: "try:",
              after: "except ValueError:\n    pass",
            }, ctx);
            edits += 2;
          }
        } catch (err) {
          // Ambiguous names (a method and a nested class...) are a locator matter, not an edit bug.
          if (!(err instanceof Error && /locator-ambiguous|Cannot resolve/.test(err.message))) throw err;
        }
      }
      results.push({ name: `${file.id}:${file.path}`, text: await textOf(ctx, path) });
      await Deno.remove(dir, { recursive: true });
    }
    const errors = await pythonSyntaxErrors(results.map((result) => result.text));
    const broken = results.map((result, i) => [result.name, errors[i]]).filter(([, err]) => err !== null);
    assert.deepEqual(broken, []);
    assert.ok(edits > FILES * 2, `only ${edits} edits ran`);
    for (const result of results) assert.ok(result.text.includes("import graphplan_probe\n"));
  },
});
