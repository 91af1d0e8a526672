/**
 * Type checkers as oracles, after the parsers of `native.ts`: `go vet` and
 * TypeScript's `tsc`. Both judge more than one file (a Go package, a
 * TypeScript project), yet verification writes nothing in the repository,
 * so each sees the changed text in its own way:
 *
 * - **go vet**: the copy of the changed file sits in a temporary directory
 *   with copies of its package's other `.go` files (test files left out but
 *   for the changed one), and `go vet` runs on that list in GOPATH mode with
 *   the network off. A package importing more than the standard library
 *   fails to build there before the plan as after it, which is no verdict
 *   (`mod.ts` counts new failures only); a name the plan removed that a
 *   sibling file still uses, a type error or an unused import is a verdict.
 * - **tsc**: only when the project has TypeScript installed
 *   (`node_modules/typescript` in the file's directory or one above it,
 *   within the repository), run by Node with the project's nearest
 *   `tsconfig.json`, through a compiler host that reads the changed file's
 *   new text instead of the file on disk. Errors in the changed file count.
 *   Without TypeScript in the project, or without Node, no verdict.
 *
 * @module
 */

import { dirOf, type NativeTarget, type Tool } from "./tool.ts";

/** `go vet` on the package of the changed file (see the module notes). */
export const GO_VET: Tool = {
  label: "go vet",
  async command(target: NativeTarget, copy: string) {
    const name = copy.slice(copy.lastIndexOf("/") + 1);
    const packageDir = `${target.root}/${dirOf(target.path)}`.replace(/\/$/, "");
    const names = [name];
    try {
      for await (const entry of Deno.readDir(packageDir)) {
        if (!entry.isFile || !entry.name.endsWith(".go") || entry.name === name) continue;
        if (entry.name.endsWith("_test.go")) continue;
        await Deno.copyFile(`${packageDir}/${entry.name}`, `${dirOf(copy)}/${entry.name}`);
        names.push(entry.name);
      }
    } catch {
      // a new file in a new directory: the file alone
    }
    return {
      program: "go",
      args: ["vet", ...names.sort()],
      env: { GO111MODULE: "off", GOFLAGS: "", GOPROXY: "off", GOTOOLCHAIN: "local" },
    };
  },
};

/** The script Node runs: type-check one file of a project with its new text (argv: typescript, config, file, copy). */
const TSC_SCRIPT = `
const [tsPath, config, file, copy] = process.argv.slice(1);
const ts = require(tsPath);
const text = require("fs").readFileSync(copy, "utf8");
let options = { noEmit: true };
let names = [file];
if (config) {
  const parsed = ts.getParsedCommandLineOfConfigFile(config, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic() {} });
  if (parsed) {
    options = { ...parsed.options, noEmit: true };
    names = parsed.fileNames.includes(file) ? parsed.fileNames : [...parsed.fileNames, file];
  }
}
const host = ts.createCompilerHost(options);
const readFile = host.readFile;
host.readFile = (name) => (name === file ? text : readFile(name));
const getSourceFile = host.getSourceFile;
host.getSourceFile = (name, version, onError, create) =>
  name === file ? ts.createSourceFile(name, text, version) : getSourceFile(name, version, onError, create);
const program = ts.createProgram(names, options, host);
const errors = ts.getPreEmitDiagnostics(program, program.getSourceFile(file))
  .filter((d) => d.category === ts.DiagnosticCategory.Error);
if (errors.length === 0) process.exit(0);
const first = errors[0];
const line = first.file ? first.file.getLineAndCharacterOfPosition(first.start).line + 1 : 0;
const base = file.slice(file.lastIndexOf("/") + 1);
process.stderr.write(base + ":" + line + ": error: " + ts.flattenDiagnosticMessageText(first.messageText, " ") + "\\n");
process.exit(1);
`;

/** The nearest directory from the file's up to the root that holds `relative`, as its full path. */
async function nearest(target: NativeTarget, relative: string): Promise<string | undefined> {
  let dir = dirOf(target.path);
  for (;;) {
    const candidate = `${target.root}/${dir ? `${dir}/` : ""}${relative}`;
    if (await Deno.stat(candidate).then(() => true, () => false)) return candidate;
    if (dir === "") return undefined;
    dir = dirOf(dir);
  }
}

/** `tsc` through the project's own TypeScript (see the module notes). */
export const TSC: Tool = {
  label: "tsc",
  async command(target: NativeTarget, copy: string) {
    const typescript = await nearest(target, "node_modules/typescript/lib/typescript.js");
    if (!typescript) return undefined;
    const config = await nearest(target, "tsconfig.json") ?? "";
    const file = `${target.root}/${target.path}`;
    return { program: "node", args: ["-e", TSC_SCRIPT, typescript, config, file, copy] };
  },
};
