/**
 * L0 in files tree-sitter already fails on (issue 27): the corpus's C and
 * C++ files with pre-existing ERROR nodes (cJSON's `CJSON_CDECL` macros,
 * spdlog headers). An inserted function without its closing brace and an
 * inserted garbage token are refused wherever they land; each real commit
 * of those files, applied as one edit, is not refused by the broken-file
 * checks.
 */

import assert from "node:assert/strict";
import { parse, syntaxProblems } from "../../../../engine/parse/mod.ts";
import { headerLanguage } from "../../../../engine/base/header_language.ts";
import { detectLanguage } from "../../../../engine/parse/mod.ts";
import { brokenFileProblems } from "../../../../engine/verify/levels/l0_broken.ts";
import type { Document } from "../../../../engine/parse/documents.ts";
import { loadMultilang, MULTILANG_SKIP } from "../../../_support/multilang.ts";
import { editAndCheck, ofLevel } from "./_support.ts";

interface Broken {
  sha: string;
  path: string;
  before: string;
  after: string;
}

async function brokenFiles(): Promise<Broken[]> {
  const out: Broken[] = [];
  const seen = new Set<string>();
  for (const commit of await loadMultilang()) {
    if (commit.lang !== "c" && commit.lang !== "cpp") continue;
    for (const file of commit.files) {
      const language = file.path.endsWith(".h") ? headerLanguage(file.before) : detectLanguage(file.path)!;
      if (syntaxProblems(await parse(language, file.before)).length === 0) continue;
      if (seen.has(file.before)) continue;
      seen.add(file.before);
      out.push({ sha: commit.sha, ...file });
    }
  }
  return out;
}

/** Up to `count` evenly spaced offsets of `pattern`'s matches (plus `skip` characters). */
function spots(text: string, pattern: RegExp, skip: number, count: number): number[] {
  const all = [...text.matchAll(pattern)].map((m) => m.index! + skip);
  return Array.from(
    { length: Math.min(count, all.length) },
    (_, k) => all[Math.floor(k * all.length / count)],
  );
}

async function refused(file: Broken, at: number, insertion: string): Promise<boolean> {
  const step = await editAndCheck(
    { [file.path]: file.before },
    file.path,
    () => [{ start: at, end: at, replacement: insertion }],
  );
  try {
    return ofLevel(step.errors, "L0").some((issue) => issue.code === "syntax-error");
  } finally {
    await Deno.remove(step.dir, { recursive: true });
  }
}

Deno.test({
  name: "L0 broken files: an unclosed function and a garbage token are refused in every broken C/C++ file",
  ignore: MULTILANG_SKIP !== undefined,
  async fn(t) {
    const files = await brokenFiles();
    assert.ok(files.length >= 10, `${files.length} broken files`);
    for (const file of files) {
      await t.step(`${file.sha.slice(0, 8)} ${file.path}`, async () => {
        for (const at of spots(file.before, /\n}\n\n/g, 3, 2)) {
          assert.ok(await refused(file, at, "int broken() {\n  return 1;\n"), `unclosed function at ${at}`);
        }
        for (const at of spots(file.before, /;\n\s+/g, 2, 2)) {
          assert.ok(await refused(file, at, " @@ "), `garbage at ${at}`);
        }
      });
    }
  },
});

Deno.test({
  name: "L0 broken files: the real commits of those files pass the broken-file checks",
  ignore: MULTILANG_SKIP !== undefined,
  async fn() {
    for (const file of await brokenFiles()) {
      const language = file.path.endsWith(".h") ? headerLanguage(file.before) : detectLanguage(file.path)!;
      const doc = async (text: string) =>
        ({
          file: { path: file.path, text, language },
          tree: await parse(language, text),
        }) as unknown as Document;
      assert.deepEqual(
        await brokenFileProblems(await doc(file.before), await doc(file.after)),
        [],
        file.path,
      );
    }
  },
});
