/**
 * `graphplan helper`: the in-container helper, one request or a session.
 *
 * @module
 */

import { type Command, EXIT, readInput, stringOption, UsageError } from "./command.ts";
import { error, IssueError } from "../engine/base/issue.ts";
import {
  handleRequest,
  internalError,
  type Response,
  serve,
  Session,
  writeStdout,
} from "../engine/helper/mod.ts";
import { METHODS } from "../engine/helper/methods.ts";
import { concatBytes, isClosedPipe } from "../engine/helper/serve.ts";
import { limits, overLimit } from "../engine/base/limits.ts";
import { BOUND_HELP, BOUND_OPTIONS, configureBounds } from "./bounds.ts";

const command: Command = {
  name: "helper",
  summary: "Run the in-container helper: one request, or a --serve session",
  usage: "METHOD [--repo DIR] [--json-in FILE]\n       graphplan helper --serve [--repo DIR]",
  help: `
One request: reads the method's params as JSON from stdin (or --json-in FILE;
empty input means {}) and prints one response, {"result": ...} or
{"error": {"issues": [...]}}. Exit 0 for a result, 1 for an error.

Session (--serve): reads newline-delimited requests {"id", "method",
"params"} and writes one line per request, {"id", "result"} or {"id",
"error": {"issues": [...]}}, until stdin closes. Parsed trees are kept
between requests.

Methods: ${Object.keys(METHODS).join(", ")} (see docs/helper.md).

Options:
  --repo DIR       repository root (default: .)
  --json-in FILE   read the params from FILE instead of stdin
  --serve          serve a session on stdin/stdout
${BOUND_HELP}

The budget applies to each request; a request may ask for its own with
params.timeout (seconds). A request line (or one-shot input) longer than
max_request_bytes is answered with "request-too-large" without being read
into memory. A closed stdin or stdout ends the session with exit 0.`,
  options: { serve: { type: "boolean" }, "json-in": { type: "string" }, ...BOUND_OPTIONS },
  async run(args) {
    configureBounds(args);
    const repo = stringOption(args, "repo", ".")!;
    if (args.values.serve === true) {
      if (args.positionals.length > 0) throw new UsageError("--serve takes no METHOD");
      const session = openSession(repo);
      if ("error" in session) {
        await writeStdout(JSON.stringify({ id: null, ...session }) + "\n");
        return EXIT.rejected;
      }
      // Ends when stdin closes or stdout is closed by the other side: both are a normal end.
      try {
        await serve(session, Deno.stdin.readable, writeStdout);
      } finally {
        await session.close();
      }
      return EXIT.ok;
    }
    const [method, ...extra] = args.positionals;
    if (!method) throw new UsageError("Missing the METHOD argument (or --serve)");
    if (extra.length > 0) {
      throw new UsageError(`Unexpected arguments: ${extra.map((a) => `"${a}"`).join(" ")}`);
    }
    const response = await oneShot(repo, method, stringOption(args, "json-in"));
    try {
      await writeStdout(JSON.stringify(response) + "\n");
    } catch (err) {
      if (!isClosedPipe(err)) throw err;
      return EXIT.ok; // nobody reads the answer: not a bug
    }
    if ("result" in response) return EXIT.ok;
    if (response.error.issues.some((issue) => issue.code === "internal-error")) {
      console.error(response.error.issues.map((issue) => `${issue.message}\n${issue.hint ?? ""}`).join("\n"));
      return EXIT.internal;
    }
    return EXIT.rejected;
  },
};

async function oneShot(repo: string, method: string, jsonIn: string | undefined): Promise<Response> {
  const session = openSession(repo);
  if ("error" in session) return session;
  let params: unknown;
  try {
    const text = await readBounded(jsonIn ?? "-", limits().max_request_bytes);
    params = text.trim() === "" ? {} : JSON.parse(text);
  } catch (err) {
    if (err instanceof IssueError) return { error: { issues: err.issues } };
    return {
      error: { issues: [error("json-invalid", `The params are not valid JSON: ${(err as Error).message}`)] },
    };
  }
  try {
    return await handleRequest(session, method, params);
  } finally {
    await session.close();
  }
}

/**
 * Read the params from a file or stdin, refusing (`request-too-large`) as
 * soon as they pass `max` bytes instead of reading everything first.
 */
async function readBounded(arg: string, max: number): Promise<string> {
  if (arg !== "-") {
    let size = 0;
    try {
      size = (await Deno.stat(arg)).size;
    } catch {
      return await readInput(arg); // words the problem
    }
    if (size > max) throw new IssueError(tooLarge(max));
    return await readInput(arg);
  }
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of Deno.stdin.readable) {
    size += chunk.length;
    if (size > max) throw new IssueError(tooLarge(max));
    parts.push(chunk);
  }
  return new TextDecoder().decode(concatBytes(parts, size));
}

function tooLarge(max: number) {
  return overLimit(
    "request-too-large",
    "max_request_bytes",
    `The request is larger than ${max} bytes: refused`,
  );
}

function openSession(repo: string): Session | { error: { issues: ReturnType<typeof error>[] } } {
  try {
    return Session.open(repo);
  } catch (err) {
    if (err instanceof IssueError) return { error: { issues: err.issues } };
    return { error: { issues: [internalError(err)] } };
  }
}

export default command;
