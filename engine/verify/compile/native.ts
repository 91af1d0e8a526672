/**
 * Compilers and parsers of the other languages as oracles, one process per
 * check: `gcc`/`g++ -fsyntax-only`, `javac` with the file's source root on
 * the source path, `rustfmt` as Rust's parser (stable `rustc` has no
 * parse-only mode, and `rustfmt` reading standard input parses one file
 * without following `mod x;`), `gofmt -e` then `go vet` on the file's
 * package, `tsc` through the project's own TypeScript (`typed.ts`), `ruby
 * -c`, `php -l`. For L0's oracle (`target.findHeaders`) gcc and g++ also
 * find a `<header>` installed one directory below a system root
 * (`system_headers.ts`). A tool that
 * is not on PATH gives no verdict, and so does a check that fails both
 * before and after the plan (a header the temporary copy cannot find, a
 * dependency javac lacks): only new failures count, as with CPython and
 * Node (`mod.ts`).
 *
 * The file is checked as a copy in a temporary directory, never in the
 * repository (verification writes nothing there), under its own name (javac
 * wants a public class in its own file); the include and source paths point
 * back into the repository, so `#include "x.h"` beside the file (or beside
 * any directory above it, up to the root) and the other classes of a Java
 * package are found.
 *
 * @module
 */

import type { LanguageId } from "../../parse/mod.ts";
import { ancestorDirs, dirOf, type NativeTarget, runTool, simple, type Tool } from "./tool.ts";
import { GO_VET, TSC } from "./typed.ts";
import { compileFindingHeaders } from "./system_headers.ts";

/** One tool's verdict on one text: null when the tool could not judge (absent, timed out). */
export interface NativeVerdict {
  ok: boolean;
  message: string;
  line?: number;
}

export type { NativeTarget } from "./tool.ts";

/**
 * gcc and g++: syntax and types only (warnings do not fail a check); in C a
 * call to an undeclared function is made an error (C accepts it with a
 * warning, and the linker fails later).
 */
function cFamily(program: string, standard: string, header: string, source: string, extra: string[]): Tool {
  return simple(program, (target, copy) => {
    const dir = `${target.root}/${dirOf(target.path)}`.replace(/\/$/, "");
    return {
      program,
      args: [
        "-fsyntax-only",
        ...extra,
        `-std=${standard}`,
        "-x",
        /\.(h|hh|hpp|hxx)$/.test(target.path) ? header : source,
        "-iquote",
        dir,
        ...ancestorDirs(target.root, target.path).flatMap((d) => ["-I", d]),
        "-I",
        `${target.root}/include`,
        copy,
      ],
    };
  });
}

/** The source root of a Java file: its path less its package's directories. */
export function javaSourceRoot(root: string, path: string, text: string): string {
  const pkg = /^\s*package\s+([\w.]+)\s*;/m.exec(text)?.[1];
  const dir = dirOf(path);
  const suffix = pkg ? pkg.replaceAll(".", "/") : "";
  if (suffix && (dir === suffix || dir.endsWith(`/${suffix}`))) {
    return `${root}/${dir.slice(0, dir.length - suffix.length)}`.replace(/\/$/, "");
  }
  return `${root}/${dir}`.replace(/\/$/, "");
}

const TOOLS: Partial<Record<LanguageId, Tool[]>> = {
  c: [cFamily("gcc", "gnu11", "c-header", "c", ["-Werror=implicit-function-declaration"])],
  cpp: [cFamily("g++", "gnu++17", "c++-header", "c++", [])],
  java: [simple("javac", (target, copy, text) => ({
    program: "javac",
    args: [
      "-proc:none",
      "-implicit:none",
      "-nowarn",
      "-Xlint:none",
      "-d",
      `${dirOf(copy)}/classes`,
      "-sourcepath",
      javaSourceRoot(target.root, target.path, text),
      copy,
    ],
  }))],
  rust: [
    simple(
      "rustfmt",
      () => ({ program: "rustfmt", args: ["--edition", "2021", "--emit", "stdout"], stdin: true }),
    ),
  ],
  go: [simple("gofmt", (_t, copy) => ({ program: "gofmt", args: ["-e", "-l", copy] })), GO_VET],
  typescript: [TSC],
  tsx: [TSC],
  ruby: [simple("ruby", (_t, copy) => ({ program: "ruby", args: ["-c", copy] }))],
  php: [simple("php", (_t, copy) => ({ program: "php", args: ["-l", "-n", copy] }))],
};

/** The tools that judge `language`, in the order they run (a syntax check before a type check). */
export function nativeToolsFor(language: LanguageId): string[] {
  return (TOOLS[language] ?? []).map((tool) => tool.label);
}

/**
 * Check one text with one of its language's tools (`tool`: its label; the
 * first by default); null when no verdict (no tool, no tool here, timeout).
 */
export async function nativeCheck(
  target: NativeTarget,
  text: string,
  env?: Record<string, string>,
  tool?: string,
): Promise<NativeVerdict | null> {
  const chosen = TOOLS[target.language]?.find((candidate) => tool === undefined || candidate.label === tool);
  if (!chosen) return null;
  const dir = await Deno.makeTempDir({ prefix: "graphplan-compile-" });
  try {
    const name = target.path.slice(target.path.lastIndexOf("/") + 1);
    const copy = `${dir}/${name}`;
    await Deno.writeTextFile(copy, text);
    const command = await chosen.command(target, copy, text);
    if (!command) return null;
    const { program, args, stdin } = command;
    const options = {
      cwd: dir,
      ...(env || command.env ? { env: { ...env, ...command.env } } : {}),
      ...(stdin ? { stdinText: text } : {}),
    };
    const output = target.findHeaders && (program === "gcc" || program === "g++")
      ? await compileFindingHeaders(program, args, options)
      : await runTool(program, args, options);
    if (!output) return null; // not installed, not allowed to run, or timed out
    const stderr = output.stderr;
    if (output.success) return { ok: true, message: "" };
    return { ok: false, ...firstError(stderr, name) };
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

/** The first error line of a tool's output, and its line number where the tool gives one. */
function firstError(stderr: string, name: string): { message: string; line?: number } {
  // `# package` headers (go) are not messages
  const lines = stderr.split("\n").map((line) => line.trim()).filter((line) =>
    line !== "" && !line.startsWith("# ")
  );
  const chosen = lines.find((line) => /\berror\b/i.test(line)) ?? lines[0] ?? "failed";
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const located =
    new RegExp(`(?:${escaped}|<stdin>|Standard input code)(?::| on line |:\\s*)(\\d+)`).exec(stderr) ??
      /-->\s*<stdin>:(\d+)/.exec(stderr) ?? / on line (\d+)/.exec(stderr);
  const message = chosen.replace(/^.*?\berror\b:?\s*/i, "").slice(0, 200) || chosen.slice(0, 200);
  return located ? { message, line: Number(located[1]) } : { message };
}
