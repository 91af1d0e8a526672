/**
 * What every CLI command shares: its declaration, argument parsing with
 * `--help`, the `--json`/text output convention and the exit codes.
 *
 * Exit codes: 0 success; 1 input rejected or task not solved; 2 usage error;
 * 3 internal error (a bug).
 *
 * @module
 */

import { ArgsError, type OptionSpec, type ParsedOptions, parseOptions } from "./args.ts";
import { closestNames, didYouMean } from "../engine/base/suggest.ts";
import { isAbsolute } from "../engine/base/node_builtins.ts";
import { readFailure } from "../engine/base/read_failure.ts";
import { formatIssue, type Issue, IssueError } from "../engine/base/issue.ts";

/** Process exit codes (see ARCHITECTURE.md, "CLI conventions"). */
export const EXIT = { ok: 0, rejected: 1, usage: 2, internal: 3 } as const;

export type { OptionSpec } from "./args.ts";

/** A subcommand of `graphplan`. */
export interface Command {
  name: string;
  /** One line for the command list. */
  summary: string;
  /** Usage lines after `graphplan NAME`, e.g. `FILE... [--repo DIR] [--json]`. */
  usage: string;
  /** Longer help text: what it does, options, examples. */
  help: string;
  options: OptionSpec;
  /** Run with parsed arguments; returns the exit code. */
  run(args: ParsedArgs): Promise<number>;
}

/** Parsed command-line arguments: the option values given, and the positionals in order. */
export type ParsedArgs = ParsedOptions;

/** A mistake in how a command was called (exit 2). */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** Options every command understands. */
export const COMMON_OPTIONS: OptionSpec = {
  help: { type: "boolean", short: "h" },
  json: { type: "boolean" },
  repo: { type: "string" },
};

/** Parse `argv` for `command`, turning parser complaints into usage errors (with a "did you mean"). */
export function parseCommandArgs(command: Command, argv: string[]): ParsedArgs {
  const spec = { ...COMMON_OPTIONS, ...command.options };
  try {
    return parseOptions(argv, spec);
  } catch (err) {
    const message = (err as Error).message.replace(/\. To specify a positional.*$/s, "");
    const typed = err instanceof ArgsError ? err.unknownOption : undefined;
    // Long options only: one letter is too little to guess from.
    if (typed === undefined || !typed.startsWith("--")) throw new UsageError(message);
    const hint = didYouMean(closestNames(typed.slice(2), Object.keys(spec)).map((name) => `--${name}`));
    throw new UsageError(hint ? `${message}: ${hint}` : message);
  }
}

/** The full help text of a command. */
export function commandHelp(command: Command): string {
  return `graphplan ${command.name}: ${command.summary}\n\nUsage: graphplan ${command.name} ${command.usage}\n\n${command.help.trim()}\n`;
}

/** A string option's value, or `fallback`. */
export function stringOption(args: ParsedArgs, name: string, fallback?: string): string | undefined {
  const value = args.values[name];
  return typeof value === "string" ? value : fallback;
}

/**
 * Write one JSON document to stdout: indented for a person at a terminal,
 * compact for a program reading a pipe (a 9 MB graph's indented JSON is
 * twice the size and a tenth of the command's time).
 */
export function printJson(value: unknown): void {
  writeLine(Deno.stdout.isTerminal() ? JSON.stringify(value, null, 2) : JSON.stringify(value));
}

/**
 * Write `text` and a newline to stdout. Unlike `console.log`, which takes
 * ~25 ms for a 5 MB graph, this encodes once and writes the bytes as they
 * are.
 */
export function writeLine(text: string): void {
  writePieces([text, "\n"]);
}

/** Where `writePieces` writes: `Deno.stdout`, or anything with its synchronous write. */
export interface SyncWriter {
  /** Write some of `bytes`; returns how many were written. */
  writeSync(bytes: Uint8Array): number;
}

/**
 * Write the concatenation of `pieces` as UTF-8 through one reusable buffer
 * of `bufferSize` bytes: the text is never one string nor one array of
 * bytes, so a large document costs no more memory than its pieces.
 */
export function writePieces(
  pieces: Iterable<string>,
  out: SyncWriter = Deno.stdout,
  bufferSize = 1 << 16,
): void {
  if (bufferSize < 4) throw new RangeError("writePieces needs a buffer of at least 4 bytes (one character)");
  const encoder = new TextEncoder();
  const buffer = new Uint8Array(bufferSize);
  let used = 0;
  const flush = () => {
    for (let offset = 0; offset < used;) offset += out.writeSync(buffer.subarray(offset, used));
    used = 0;
  };
  for (const piece of pieces) {
    let rest = piece;
    while (rest !== "") {
      const { read, written } = encoder.encodeInto(rest, buffer.subarray(used));
      used += written;
      rest = read === rest.length ? "" : rest.slice(read);
      // Left over: the buffer is full, or has no room for the next character.
      if (rest !== "") flush();
    }
  }
  flush();
}

/** Write issues to stderr, one per block, for a person. */
export function printIssues(issues: Issue[]): void {
  for (const issue of issues) console.error(formatIssue(issue));
}

/**
 * Run a command body with the shared error policy: issues → exit 1 (as JSON
 * `{errors}` with `--json`, on stderr otherwise); usage errors → exit 2;
 * anything else → exit 3 with the stack.
 */
export async function runGuarded(json: boolean, body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (err) {
    if (err instanceof IssueError) {
      if (json) printJson({ success: false, errors: err.issues, warnings: [] });
      else printIssues(err.issues);
      return EXIT.rejected;
    }
    if (err instanceof UsageError) return usageFailure(json, err.message);
    if (err instanceof Deno.errors.NotCapable) {
      const issue = permissionIssue(err);
      if (json) printJson({ success: false, errors: [issue], warnings: [] });
      else printIssues([issue]);
      return EXIT.rejected;
    }
    console.error(`graphplan: internal error: ${(err as Error)?.stack ?? String(err)}`);
    return EXIT.internal;
  }
}

/**
 * Report a usage error (exit 2): on stderr for a person, and with `--json`
 * also as the one JSON document a program reading stdout waits for.
 */
export function usageFailure(json: boolean, message: string, hint = "run with --help for usage"): number {
  console.error(`graphplan: ${message}`);
  console.error(hint.charAt(0).toUpperCase() + hint.slice(1));
  if (json) {
    printJson({
      success: false,
      errors: [{ code: "usage-error", severity: "error", message, hint }],
      warnings: [],
    });
  }
  return EXIT.usage;
}

/**
 * Report a command's own refusal of its input: `graphplan NAME: message` on
 * stderr and, with `--json`, the one JSON document `{success: false,
 * errors: [issue]}`; returns `options.exit`.
 */
export function refuse(command: string, issue: Issue, options: { json: boolean; exit: number }): number {
  console.error(`graphplan ${command}: ${issue.message}`);
  if (options.json) printJson({ success: false, errors: [issue], warnings: [] });
  return options.exit;
}

/**
 * The issue for a Deno permission GraphPlan was not given: the bundle run as
 * `deno run dist/graphplan.js` without `-A` may not read the repository.
 */
export function permissionIssue(err: Error): Issue {
  return {
    code: "permission-missing",
    severity: "error",
    message: `Deno refused an operation GraphPlan needs: ${err.message.split("\n")[0]}`,
    hint:
      "run the bundle with all permissions: deno run -A dist/graphplan.js ... (the compiled binary has them)",
  };
}

/** Read a whole input argument: a path, or `-` for stdin. */
export async function readInput(arg: string): Promise<string> {
  if (arg === "-") return await new Response(Deno.stdin.readable).text();
  try {
    return await Deno.readTextFile(arg);
  } catch (err) {
    if (err instanceof Deno.errors.NotCapable) throw err;
    const notFound = err instanceof Deno.errors.NotFound;
    throw new IssueError({
      code: "input-unreadable",
      severity: "error",
      message: `Cannot read "${arg}": ${readFailure(err as Error)}`,
      // Paths inside plans are relative to --repo, an input file's path is not: say where it was looked for.
      ...(notFound && !isAbsolute(arg)
        ? { hint: `relative paths are read from the current directory "${Deno.cwd()}", not from --repo` }
        : {}),
    });
  }
}

/** Read a JSON argument given inline, as `@FILE`, or `-` (stdin). */
export async function readJsonArg(arg: string, what: string): Promise<unknown> {
  const text = arg === "-" ? await readInput("-") : arg.startsWith("@") ? await readInput(arg.slice(1)) : arg;
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new IssueError({
      code: "json-invalid",
      severity: "error",
      message: `The ${what} is not valid JSON: ${(err as Error).message}`,
      hint: `give the ${what} inline, as @FILE, or - for stdin`,
    });
  }
}
