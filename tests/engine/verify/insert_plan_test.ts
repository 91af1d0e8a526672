import assert from "node:assert/strict";
import { DocumentStore } from "../../../engine/parse/documents.ts";
import { parse } from "../../../engine/parse/mod.ts";
import { type Binding, moduleScope, setIncrementalScopes } from "../../../engine/analysis/scope.ts";
import { verifyPlan } from "../../../engine/verify/mod.ts";
import { Workspace } from "../../../engine/workspace.ts";
import { CORPUS_SKIP } from "../../_support/corpus.ts";
import { insertPlan, insertTarget } from "../../_support/insert_plans.ts";

async function repoWith(files: Record<string, string>): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "graphplan-inserts-" });
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(`${dir}/${path}`.replace(/\/[^/]+$/, ""), { recursive: true });
    await Deno.writeTextFile(`${dir}/${path}`, text);
  }
  return dir;
}

Deno.test({
  name:
    "verify: an N-insert plan on a corpus file gives the same issues with module scopes updated per edit as recomputed",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const target = await insertTarget();
    const plan = insertPlan(target.path, target.text, 120, { mixed: true });
    // The same plan without its star imports: a star import in the final file may bind any name, so the
    // plan's unbound reads settle there (verdicts are the final state's); without them they stay.
    const starless = plan.filter((step) => !JSON.stringify(step).includes("import *"));
    const dir = await repoWith(target.files);
    try {
      const verified = async (steps: unknown[]) => {
        const updated = await verifyPlan(new DocumentStore(Workspace.open(dir)), steps);
        setIncrementalScopes(false);
        try {
          assert.deepEqual(updated, await verifyPlan(new DocumentStore(Workspace.open(dir)), steps));
        } finally {
          setIncrementalScopes(true);
        }
        return updated;
      };
      const codesOf = (report: Awaited<ReturnType<typeof verified>>) =>
        new Set([...report.errors, ...report.warnings].map((issue) => issue.code));
      // the plans exercise the levels that read the module scope, and the settle step
      const withStars = await verified(plan);
      for (const code of ["syntax-error", "line-drift"] as const) {
        assert.ok(codesOf(withStars).has(code), `expected a "${code}" issue, got ${[...codesOf(withStars)]}`);
      }
      assert.ok(!withStars.warnings.some((issue) => issue.message.includes("gp_missing_0")));
      const without = await verified(starless);
      assert.ok(
        codesOf(without).has("unbound-name"),
        `expected "unbound-name", got ${[...codesOf(without)]}`,
      );
      assert.ok(without.warnings.some((issue) => issue.message.includes("gp_missing_0")));
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

function fields(binding: Binding) {
  const { name, kind, start, end, line, module, imported, statementStart, statementEnd } = binding;
  return { name, kind, start, end, line, module, imported, statementStart, statementEnd };
}

Deno.test({
  name: "scope: the module scope updated through 200 re-parses of a corpus file equals a fresh parse's",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const target = await insertTarget();
    const dir = await repoWith({ [target.path]: target.text });
    try {
      const store = new DocumentStore(Workspace.open(dir));
      let doc = await store.get(target.path);
      moduleScope(doc);
      let seed = 7;
      const random = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
      const snippets = [
        "def gp_f(a):\n    return a\n",
        "x_gp, (y_gp, z_gp) = 1, (2, 3)\n",
        "import os.path as gp_osp\n",
        "from .gp import thing as gp_thing\n",
        "class GpC:\n    attr = 1\n",
        "if True:\n    gp_cond = 1\nelse:\n    gp_other = 2\n",
        "for gp_i in range(3):\n    pass\n",
        "def gp_g():\n    global gp_declared\n    gp_declared = 1\n",
        "try:\n    import gp_mod\nexcept ImportError:\n    gp_mod = None\n",
        "@decorator\ndef gp_decorated():\n    pass\n",
        "(gp_walrus := 3)\n",
        "gp_broken = (\n",
      ];
      for (let round = 0; round < 200; round++) {
        const lines = doc.file.text.split("\n");
        const at = random(lines.length);
        if (round % 5 === 4 && lines.length > 20) {
          lines.splice(at, 1 + random(4)); // delete a few lines, sometimes inside a statement
        } else {
          lines.splice(at, 0, ...snippets[random(snippets.length)].split("\n").slice(0, -1));
        }
        const next = await store.reparse(doc, lines.join("\n"));
        const updated = moduleScope(next);
        const fresh = moduleScope({ file: next.file, tree: await parse("python", next.file.text) });
        const flat = (scope: typeof fresh) =>
          [...scope.bindings.entries()].map(([name, list]) => [name, list.map(fields)]);
        assert.deepEqual(flat(updated), flat(fresh), `round ${round}: bindings differ`);
        assert.deepEqual(
          [updated.starImport, [...updated.globals], [...updated.nonlocals], [
            ...updated.declaredGlobal ?? [],
          ]],
          [fresh.starImport, [...fresh.globals], [...fresh.nonlocals], [...fresh.declaredGlobal ?? []]],
        );
        doc = next;
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
