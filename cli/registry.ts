/**
 * The subcommands of `graphplan`, by name, in the order `--help` lists them.
 *
 * @module
 */

import type { Command } from "./command.ts";

/** Every command the CLI offers. */
export const COMMANDS: Command[] = [];
