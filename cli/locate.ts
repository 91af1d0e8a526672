/**
 * `graphplan locate` (not implemented yet).
 *
 * @module
 */

import type { Command } from "./command.ts";
import { EXIT } from "./command.ts";

const command: Command = {
  name: "locate",
  summary: "not implemented yet",
  usage: "",
  help: "Not implemented yet.",
  options: {},
  run() {
    console.error("graphplan locate: not implemented yet");
    return Promise.resolve(EXIT.internal);
  },
};

export default command;
