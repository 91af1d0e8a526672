/**
 * `deno task compile`: build the self-contained `dist/graphplan` executable
 * with `deno compile`.
 *
 * `deno compile` appends the program to a `denort` runtime binary that it
 * downloads from dl.deno.land unless the `DENORT_BIN` environment variable
 * (read by deno itself) names a local one. Offline machines must set it:
 *
 *     DENORT_BIN=/path/to/denort deno task compile
 *     deno task compile --denort /path/to/denort --target x86_64-unknown-linux-gnu
 *
 * The grammars are raw imports (`--unstable-raw-imports`, also in deno.json)
 * and every dynamic `import()` names its module literally, so the binary
 * needs no `--include`: pool workers start `Deno.mainModule`, which is the
 * compiled entry itself. `--dry-run` prints the command without running it.
 *
 * @module
 */

import { parseArgs } from "node:util";

/** The repository root (this file is tools/compile.ts). */
const REPO_ROOT = new URL("../", import.meta.url).pathname.replace(/\/$/, "");

/** Options of {@linkcode compileCommand}. */
export interface CompileOptions {
  /** Output file (default `dist/graphplan` in the repository; a relative path is relative to the repository). */
  output?: string;
  /** A Rust target triple for cross-compiling (needs a matching denort). */
  target?: string;
  /** A local denort binary; passed to deno as `DENORT_BIN` (default: the caller's `DENORT_BIN`). */
  denort?: string;
  /** Skip type checking (`deno task check` type-checks anyway). */
  noCheck?: boolean;
  /** Files left out of the executable (see {@linkcode unusedGrammarFiles}). */
  exclude?: string[];
}

/** The `deno` arguments and environment that build the executable. */
export interface CompileCommand {
  args: string[];
  /** Extra environment for the `deno compile` process. */
  env: Record<string, string>;
  cwd: string;
}

/** A problem that stops the build before `deno compile` runs. */
export class CompileError extends Error {
  override name = "CompileError";
}

/** Build the `deno compile` invocation for `options` (pure; checks DENORT_BIN exists when given). */
export function compileCommand(options: CompileOptions = {}): CompileCommand {
  const output = options.output ?? `${REPO_ROOT}/dist/graphplan`;
  const args = [
    "compile",
    "--allow-all",
    "--unstable-raw-imports",
    "--config",
    `${REPO_ROOT}/deno.json`,
    "--output",
    output,
  ];
  if (options.noCheck) args.push("--no-check");
  for (const path of options.exclude ?? []) args.push("--exclude", path);
  if (options.target) args.push("--target", options.target);
  args.push(`${REPO_ROOT}/main.ts`);
  const env: Record<string, string> = {};
  if (options.denort !== undefined) {
    let info: Deno.FileInfo;
    try {
      info = Deno.statSync(options.denort);
    } catch {
      throw new CompileError(`DENORT_BIN names a missing file: "${options.denort}"`);
    }
    if (!info.isFile) throw new CompileError(`DENORT_BIN is not a file: "${options.denort}"`);
    if (((info.mode ?? 0o755) & 0o111) === 0) {
      throw new CompileError(`DENORT_BIN is not executable: "${options.denort}" (chmod +x it)`);
    }
    env.DENORT_BIN = options.denort;
  }
  return { args, env, cwd: REPO_ROOT };
}

/**
 * The grammar files of the tree-sitter-wasms package that no grammars/*.ts
 * module imports. deno compile embeds whole npm packages, and the package
 * holds 36 grammars (50 MB); GraphPlan embeds its 11 from grammars/wasm/*.wasm.br.b64
 * (see tools/pack_grammars.ts), so none of the package's are needed. Returns []
 * when the package is not in deno's npm cache (nothing to leave out then).
 */
export async function unusedGrammarFiles(): Promise<string[]> {
  const used = new Set<string>();
  for (const entry of Deno.readDirSync(`${REPO_ROOT}/grammars`)) {
    if (!entry.isFile || !entry.name.endsWith(".ts")) continue;
    const text = Deno.readTextFileSync(`${REPO_ROOT}/grammars/${entry.name}`);
    for (const match of text.matchAll(/tree-sitter-wasms\/out\/([\w.-]+\.wasm)/g)) used.add(match[1]);
  }
  const config = JSON.parse(Deno.readTextFileSync(`${REPO_ROOT}/deno.json`));
  const version = /tree-sitter-wasms@([\w.-]+)/.exec(JSON.stringify(config.imports ?? {}))?.[1];
  if (!version) return [];
  const info = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json"],
    stdout: "piped",
    stderr: "null",
  })
    .output();
  if (!info.success) return [];
  const npmCache: string = JSON.parse(new TextDecoder().decode(info.stdout)).npmCache;
  const dir = `${npmCache}/registry.npmjs.org/tree-sitter-wasms/${version}/out`;
  try {
    return [...Deno.readDirSync(dir)]
      .filter((entry) => entry.isFile && entry.name.endsWith(".wasm") && !used.has(entry.name))
      .map((entry) => `${dir}/${entry.name}`)
      .sort();
  } catch {
    return [];
  }
}

const USAGE =
  `Usage: deno task compile [--output FILE] [--target TRIPLE] [--denort FILE] [--no-check] [--dry-run]

Builds dist/graphplan with deno compile. Without --denort (or DENORT_BIN in the
environment) deno downloads denort from dl.deno.land, which fails offline.`;

async function main(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        output: { type: "string", short: "o" },
        target: { type: "string" },
        denort: { type: "string" },
        "no-check": { type: "boolean" },
        "dry-run": { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (err) {
    console.error(`compile: ${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const denort = values.denort ?? Deno.env.get("DENORT_BIN");
  let command: CompileCommand;
  try {
    command = compileCommand({
      output: values.output,
      target: values.target,
      denort,
      noCheck: values["no-check"],
      exclude: await unusedGrammarFiles(),
    });
  } catch (err) {
    if (!(err instanceof CompileError)) throw err;
    console.error(`compile: ${err.message}`);
    return 1;
  }
  const shown = `${Object.entries(command.env).map(([k, v]) => `${k}=${v} `).join("")}deno ${
    command.args.join(" ")
  }`;
  if (values["dry-run"]) {
    console.log(shown);
    return 0;
  }
  if (!denort) {
    console.error("compile: DENORT_BIN is not set: deno will download denort from dl.deno.land");
  }
  console.error(`compile: ${shown}`);
  const target = command.args[command.args.indexOf("--output") + 1];
  const absolute = target.startsWith("/") ? target : `${REPO_ROOT}/${target}`;
  await Deno.mkdir(absolute.slice(0, absolute.lastIndexOf("/")), { recursive: true });
  const status = await new Deno.Command(Deno.execPath(), {
    args: command.args,
    cwd: command.cwd,
    env: command.env,
    stdout: "inherit",
    stderr: "inherit",
  }).spawn().status;
  if (!status.success) {
    console.error(
      denort
        ? `compile: deno compile failed (exit ${status.code}); is "${denort}" a denort ${Deno.version.deno} binary for the target?`
        : `compile: deno compile failed (exit ${status.code}); offline, point DENORT_BIN at a denort ${Deno.version.deno} binary`,
    );
    return 1;
  }
  return 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
