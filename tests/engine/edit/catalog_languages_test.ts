/**
 * The catalog per language (issue 27): `catalog --language L` lists what
 * works in L, each entry with an example written in L, and every such
 * example runs as written on a small realistic file of L
 * (tests/fixtures/catalog/L/) and leaves code the language's own compiler
 * accepts: `node --check` (JavaScript), `rustc` (Rust), `javac` (Java), `go
 * vet` (Go, where go is installed); TypeScript, whose compiler is not
 * installed here, is checked by its grammar (no syntax error anywhere in the
 * result), as every language is.
 */

import assert from "node:assert/strict";
import { catalogEntries, renderCatalog } from "../../../engine/ops/catalog.ts";
import {
  CATALOG_EXAMPLE_FILES,
  CATALOG_EXAMPLES,
  FILE_OP_SCRATCH,
  FILE_OP_SCRIPT,
} from "../../../engine/edit/catalog_examples.ts";
import type { StepContext } from "../../../engine/edit/operator.ts";
import { gitModeOf } from "../../../engine/base/file_mode.ts";
import { runStep } from "../../../engine/ops/dispatch.ts";
import { parsePlan } from "../../../engine/plan/mod.ts";
import { type LanguageId, syntaxProblems, withTree } from "../../../engine/parse/mod.ts";
import { skipReason } from "../../_support/skips.ts";
import { slow } from "../../_support/quick.ts";
import { assertNodeParses, contextWith, textOf } from "./_edit_support.ts";

const FIXTURES = new URL("../../fixtures/catalog/", import.meta.url);

function toolSkip(tool: string, args: string[]): string | undefined {
  try {
    return new Deno.Command(tool, { args, stdout: "null", stderr: "null" }).outputSync().success
      ? undefined
      : skipReason(`${tool} does not run`);
  } catch {
    return skipReason(`${tool} not found on PATH: its examples are checked by the grammar only`);
  }
}

const SLOW = slow("tests that run compilers (gcc, g++, javac, rustc, go, tsc)");
const RUSTC_SKIP = toolSkip("rustc", ["--version"]);
const JAVAC_SKIP = toolSkip("javac", ["-version"]);
const GO_SKIP = toolSkip("go", ["version"]);

async function compiles(
  command: string,
  args: string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<string | undefined> {
  const out = await new Deno.Command(command, { args, stdout: "piped", stderr: "piped", ...options })
    .output();
  return out.success
    ? undefined
    : new TextDecoder().decode(out.stderr) + new TextDecoder().decode(out.stdout);
}

/**
 * The compiler's verdict on each of `texts` (results of the examples of
 * `language`, by entry name): the names whose result it rejects, with its
 * message. One compiler run for all of them: each Rust result becomes a
 * module of one crate, each Java result a package of its own.
 */
async function compilerVerdicts(language: string, texts: Map<string, string>): Promise<string[]> {
  const dir = await Deno.makeTempDir({ prefix: "graphplan-catalog-" });
  const names = [...texts.keys()];
  try {
    if (language === "javascript") {
      const out: string[] = [];
      for (const [name, text] of texts) {
        await assertNodeParses(text).catch((error) => out.push(`${name}: ${(error as Error).message}`));
      }
      return out;
    }
    if (language === "rust" && !RUSTC_SKIP) {
      const crate = names.map((name, k) =>
        `#[allow(dead_code, unused_imports)]\nmod e${k} {\n${texts.get(name)}\n}\n`
      );
      await Deno.writeTextFile(`${dir}/lib.rs`, crate.join("\n"));
      const verdict = await compiles("rustc", [
        "--edition",
        "2021",
        "--crate-type",
        "lib",
        "--emit=metadata",
        "-o",
        `${dir}/lib.rmeta`,
        `${dir}/lib.rs`,
      ]);
      return verdict ? [`rustc rejects (module eN is the Nth of ${names.join(", ")}): ${verdict}`] : [];
    }
    if (language === "java" && !JAVAC_SKIP) {
      const files: string[] = [];
      for (const [k, name] of names.entries()) {
        await Deno.mkdir(`${dir}/e${k}`, { recursive: true });
        const file = `${dir}/e${k}/Inventory.java`;
        await Deno.writeTextFile(file, texts.get(name)!.replace("package shop;", `package e${k};`));
        files.push(file);
      }
      const verdict = await compiles("javac", ["-d", `${dir}/out`, ...files]);
      return verdict ? [`javac rejects (package eN is the Nth of ${names.join(", ")}): ${verdict}`] : [];
    }
    if (language === "go" && !GO_SKIP) {
      await Deno.writeTextFile(`${dir}/go.mod`, "module catalog\n\ngo 1.19\n");
      for (const [k, name] of names.entries()) {
        await Deno.mkdir(`${dir}/e${k}`, { recursive: true });
        await Deno.writeTextFile(`${dir}/e${k}/inventory.go`, texts.get(name)!);
      }
      const env = {
        GOCACHE: `${dir}/.cache`,
        GOPATH: `${dir}/.gopath`,
        GOFLAGS: "-mod=mod",
        GO111MODULE: "on",
      };
      const verdict = await compiles("go", ["vet", "./..."], { cwd: dir, env });
      return verdict ? [`go vet rejects (package eN is the Nth of ${names.join(", ")}): ${verdict}`] : [];
    }
    return [];
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** A whole-file step of the catalog. */
type FileStep = { op: string; params: Record<string, string> };

/**
 * What is wrong with the effect of a whole-file example (undefined when it did
 * what it says): a created source file that does not parse, a deleted file
 * still there, a moved fixture whose bytes changed, a mode not set.
 */
async function fileStepProblem(
  step: FileStep,
  ctx: StepContext,
  language: string,
  fixture: string,
  source: string,
): Promise<string | undefined> {
  const params = step.params;
  switch (step.op) {
    case "create_file": {
      const text = await textOf(ctx, params.file);
      if (text !== params.content) return "the new file does not hold the content given";
      const broken = await withTree(
        language as LanguageId,
        text,
        (tree) => syntaxProblems(tree, 1).length > 0,
      );
      return broken ? `the new file has a syntax error:\n${text}` : undefined;
    }
    case "delete_file":
      return await ctx.store.exists(params.file) ? "the file is still there" : undefined;
    case "rename_file":
      if (params.from !== fixture) return `it moves "${params.from}", not the example file`;
      if (await ctx.store.exists(fixture)) return "the old path is still there";
      return await textOf(ctx, params.to) === source ? undefined : "the moved file's text changed";
    case "set_mode":
      return gitModeOf((await ctx.store.get(params.file)).file.mode) === params.mode
        ? undefined
        : "the mode was not set";
    default:
      return `no check for "${step.op}"`;
  }
}

for (const [language, file] of Object.entries(CATALOG_EXAMPLE_FILES)) {
  const source = await Deno.readTextFile(new URL(`${language}/${file}`, FIXTURES));

  Deno.test(`catalog --language ${language}: every listed entry has an example in ${language}`, () => {
    const entries = catalogEntries({ language });
    assert.ok(entries.length > 10, `${language}: ${entries.length} entries`);
    const missing = entries.filter((entry) => entry.example === undefined).map((entry) => entry.name);
    assert.deepEqual(missing, [], `${language}: entries without an example`);
    const listed = new Set(entries.map((entry) => `${entry.form}:${entry.name}`));
    for (const step of CATALOG_EXAMPLES[language]) {
      const key = step.template ? `template:${step.template}` : `op:${step.op}`;
      assert.ok(listed.has(key), `${language}: example for "${key}", which the catalog does not list`);
    }
    const markdown = renderCatalog({ language });
    assert.ok(!markdown.includes('.py"'), `${language}: the catalog shows a Python file`);
  });

  Deno.test(
    `catalog --language ${language}: every example runs as written and the result compiles`,
    SLOW,
    async () => {
      assert.deepEqual(await compilerVerdicts(language, new Map([["fixture", source]])), []);
      const failures: string[] = [];
      const results = new Map<string, string>();
      for (const entry of catalogEntries({ language })) {
        const { ctx, dir } = await contextWith({
          [file]: source,
          [FILE_OP_SCRATCH]: "to be removed\n",
          [FILE_OP_SCRIPT]: "#!/bin/sh\necho release\n",
        });
        try {
          const { plan, issues } = parsePlan([entry.example]);
          if (!plan) {
            failures.push(`${entry.name}: ${JSON.stringify(issues)}`);
            continue;
          }
          try {
            await runStep(plan.steps[0], ctx);
          } catch (caught) {
            failures.push(`${entry.name}: ${(caught as Error).message}`);
            continue;
          }
          if (entry.group === "files") {
            const problem = await fileStepProblem(entry.example as FileStep, ctx, language, file, source);
            if (problem) failures.push(`${entry.name}: ${problem}`);
            continue;
          }
          const after = await textOf(ctx, file);
          const readOnly = entry.name === "locate" || entry.name === "locate_region";
          if ((after === source) !== readOnly) {
            failures.push(`${entry.name}: ${readOnly ? "edits" : "changes nothing"}`);
          }
          const broken = await withTree(
            language as LanguageId,
            after,
            (tree) => syntaxProblems(tree, 1).length > 0,
          );
          if (broken) failures.push(`${entry.name}: the result has a syntax error:\n${after}`);
          if (!readOnly) results.set(`${entry.form} ${entry.name}`, after);
        } finally {
          await Deno.remove(dir, { recursive: true });
        }
      }
      failures.push(...await compilerVerdicts(language, results));
      assert.deepEqual(failures, []);
    },
  );
}
