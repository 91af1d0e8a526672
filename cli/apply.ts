/**
 * `graphplan apply` (not implemented yet).
 *
 * @module
 */

import type { Command } from "./command.ts";
import { EXIT } from "./command.ts";

const command: Command = {
  name: "apply",
  summary: "not implemented yet",
  usage: "",
  help: "Not implemented yet.",
  options: {},
  run() {
    console.error("graphplan apply: not implemented yet");
    return Promise.resolve(EXIT.internal);
  },
};

export default command;
