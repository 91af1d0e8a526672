/**
 * `graphplan`: structural code editing for coding agents.
 *
 * The one entry point of both faces of the executable: the orchestrator on
 * the host, and the helper (`graphplan helper ...`) inside a task container.
 *
 * @module
 */

import {
  type Command,
  commandHelp,
  EXIT,
  parseCommandArgs,
  runGuarded,
  UsageError,
  usageFailure,
} from "./cli/command.ts";
import { COMMANDS } from "./cli/registry.ts";
import { maybeRunWorker } from "./engine/graph/pool.ts";
import { VERSION } from "./version.ts";

function mainHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  const list = COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join("\n");
  return `graphplan ${VERSION}: structural, verified code edits for coding agents

Usage: graphplan <command> [options]

Commands:
${list}

Every command takes --help. Common options: --repo DIR (default: .), --json.
Exit codes: 0 success, 1 rejected or not solved, 2 usage error, 3 internal error.
`;
}

/** Run the CLI with `argv` and return the exit code. */
export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    if (name === "help" && rest[0]) return main([rest[0], "--help"]);
    console.log(mainHelp());
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  if (name === "--version" || name === "-V") {
    console.log(VERSION);
    return EXIT.ok;
  }
  const entry = COMMANDS.find((c) => c.name === name);
  const json = rest.includes("--json");
  if (!entry) {
    return usageFailure(
      json,
      `Unknown command "${name}"`,
      `commands: ${COMMANDS.map((c) => c.name).join(", ")}`,
    );
  }
  return await runGuarded(json, async () => {
    const command: Command = await entry.load();
    const args = parseCommandArgs(command, rest);
    if (args.values.help) {
      console.log(commandHelp(command));
      return EXIT.ok;
    }
    return await command.run(args);
  });
}

// A pool worker starts this same module; it must call maybeRunWorker() before
// any `await`, or the worker could miss its first request.
if (import.meta.main) {
  if (!maybeRunWorker()) {
    let code: number;
    try {
      code = await main(Deno.args);
    } catch (err) {
      // main() guards every command; this is the last line of defence.
      console.error(`graphplan: internal error: ${(err as Error)?.stack ?? String(err)}`);
      code = err instanceof UsageError ? EXIT.usage : EXIT.internal;
    }
    Deno.exit(code);
  }
}
