/**
 * A real compiler when one is there: after a plan (executed or simulated),
 * every changed Python file is compiled with the environment's CPython,
 * every changed JavaScript file is checked by Node, and C, C++, Java, Rust,
 * Go, Ruby and PHP files by their own tools when installed (`native.ts`:
 * gcc/g++, javac, rustfmt, gofmt and go vet, ruby, php, one process per
 * check), TypeScript by the project's own `tsc` when it has one; Python
 * and Node run each through one
 * long-lived process per `Compilers` (a helper session keeps one for its
 * lifetime). The helper itself stays free of both: an interpreter that is
 * not on PATH (or may not be run) is simply not used, and the report says
 * which ones were (`compiled: "python3.11"`, or null).
 *
 * Only new failures count, as everywhere in verification: a file that did
 * not compile before the plan either (Python 2 code, syntax newer than the
 * interpreter) is not blamed. A failure is an L0 `compile-error`. Nor is a
 * CPython older than the repository's declared minimum (`requires-python =
 * ">=3.12"` checked by a 3.11) a judge of the code: its refusals are no
 * verdict, since the plan may rightly use the newer syntax.
 *
 * @module
 */

import { compareVersions, type PythonVersion } from "../../analysis/python_version.ts";
import { error, type Issue } from "../../base/issue.ts";
import type { LanguageId } from "../../parse/mod.ts";
import { LineProcess } from "./process.ts";
import { NODE_LOOP, PYTHON_LOOP } from "./scripts.ts";
import { nativeCheck, nativeToolsFor } from "./native.ts";

/** One changed file to compile: its text before and after the plan. */
export interface CompileInput {
  path: string;
  language: LanguageId;
  before: string;
  after: string;
  /** The plan step that last changed it (for the issue). */
  step?: number;
}

/** What `check` found, and which interpreters it used. */
export interface CompileReport {
  errors: Issue[];
  /** `"python3.11"`, `"node20.19.5"`, both joined with ", ", or null when none was used. */
  compiled: string | null;
}

type Kind = "python" | "node";

/** Options of one `Compilers.check`. */
export interface CheckOptions {
  /** The Python the repository declares as its minimum (not the assumed default): an older CPython gives no verdict. */
  pythonMinimum?: PythonVersion;
  /** The repository root: where the other languages' tools (`native.ts`) find includes and source paths. */
  root?: string;
}

/** Options of `Compilers`. */
export interface CompilersOptions {
  /** The environment the interpreters are started with (and found through: its PATH). Default: inherited. */
  env?: Record<string, string>;
}

/** The interpreters of one session, each started on first need (see the module notes). */
export class Compilers {
  #options: CompilersOptions;
  #started = new Map<Kind, Promise<LineProcess | undefined>>();

  constructor(options: CompilersOptions = {}) {
    this.#options = options;
  }

  /** Compile the changed files whose language has an interpreter here; new failures are errors. */
  async check(files: readonly CompileInput[], options: CheckOptions = {}): Promise<CompileReport> {
    const errors: Issue[] = [];
    const used = new Set<string>();
    for (const file of files) {
      if (options.root && nativeToolsFor(file.language).length > 0 && file.before !== file.after) {
        const found = await nativeError(file, options.root, this.#options.env);
        if (found.used) used.add(found.used);
        if (found.error) errors.push(found.error);
        continue;
      }
      const kind = kindOf(file);
      if (!kind || file.before === file.after) continue;
      const process = await this.#process(kind);
      if (!process) continue;
      const after = await process.request({ path: file.path, source: file.after });
      if (!after) continue; // the interpreter died: no verdict
      used.add(String(process.greeting.version));
      if (after.ok) continue;
      if (kind === "python" && olderThan(String(process.greeting.version), options.pythonMinimum)) continue;
      const before = file.before === ""
        ? { ok: true }
        : await process.request({ path: file.path, source: file.before });
      if (!before || !before.ok) continue; // not new
      const line = typeof after.line === "number" ? after.line : undefined;
      errors.push(error(
        "compile-error",
        `${label(String(process.greeting.version))} refuses "${file.path}" after the plan${
          line ? ` at line ${line}` : ""
        }: ${String(after.message)}`,
        {
          level: "L0",
          file: file.path,
          ...(line ? { line } : {}),
          ...(file.step !== undefined ? { step: file.step } : {}),
          hint: "the file compiled before the plan: fix the code the plan writes there",
        },
      ));
    }
    return { errors, compiled: used.size > 0 ? [...used].sort().reverse().join(", ") : null };
  }

  /** The interpreter versions started so far (for tests and reports). */
  async available(kind: Kind): Promise<string | null> {
    const process = await this.#process(kind);
    return process ? String(process.greeting.version) : null;
  }

  /** Stop every interpreter started. */
  async close(): Promise<void> {
    const started = [...this.#started.values()];
    this.#started.clear();
    for (const process of await Promise.all(started)) await process?.close();
  }

  #process(kind: Kind): Promise<LineProcess | undefined> {
    let started = this.#started.get(kind);
    if (!started) {
      started = kind === "python" ? this.#startPython() : this.#startNode();
      this.#started.set(kind, started);
    }
    return started;
  }

  async #startPython(): Promise<LineProcess | undefined> {
    for (const command of ["python3", "python"]) {
      const process = await LineProcess.start(command, ["-I", "-S", "-u", "-c", PYTHON_LOOP], this.#options);
      if (process && process.greeting.major === 3) return process;
      await process?.close();
    }
    return undefined;
  }

  #startNode(): Promise<LineProcess | undefined> {
    return LineProcess.start(
      "node",
      ["--experimental-vm-modules", "--no-warnings", "-e", NODE_LOOP],
      this.#options,
    );
  }
}

/**
 * One file checked by its language's own tools in turn (a parser, then a
 * type checker): the first new failure is an error; no tool or no verdict is
 * neither. `used`: the tools that gave a verdict.
 */
async function nativeError(
  file: CompileInput,
  root: string,
  env: Record<string, string> | undefined,
): Promise<{ used?: string; error?: Issue }> {
  const target = { root, path: file.path, language: file.language };
  const used: string[] = [];
  for (const tool of nativeToolsFor(file.language)) {
    const after = await nativeCheck(target, file.after, env, tool);
    if (!after) continue;
    used.push(tool);
    if (after.ok) continue;
    const before = file.before === "" ? { ok: true } : await nativeCheck(target, file.before, env, tool);
    if (!before || !before.ok) continue; // not new
    return {
      used: used.join(", "),
      error: error(
        "compile-error",
        `${tool} refuses "${file.path}" after the plan${
          after.line ? ` at line ${after.line}` : ""
        }: ${after.message}`,
        {
          level: "L0",
          file: file.path,
          ...(after.line ? { line: after.line } : {}),
          ...(file.step !== undefined ? { step: file.step } : {}),
          hint: "the file passed this check before the plan: fix the code the plan writes there",
        },
      ),
    };
  }
  return used.length ? { used: used.join(", ") } : {};
}

function kindOf(file: CompileInput): Kind | undefined {
  if (file.language === "python") return "python";
  if (file.language === "javascript" && /\.(c|m)?js$/.test(file.path)) return "node";
  return undefined;
}

/** Whether an interpreter greeting `python3.11` is older than `minimum`. */
function olderThan(version: string, minimum: PythonVersion | undefined): boolean {
  const match = /^python(\d+)\.(\d+)/.exec(version);
  if (!minimum || !match) return false;
  return compareVersions({ major: Number(match[1]), minor: Number(match[2]) }, minimum) < 0;
}

function label(version: string): string {
  return version.startsWith("python") ? `CPython ${version.slice(6)}` : `Node ${version.slice(4)}`;
}
