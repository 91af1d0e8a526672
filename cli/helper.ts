/**
 * `graphplan helper` (not implemented yet).
 *
 * @module
 */

import type { Command } from "./command.ts";
import { EXIT } from "./command.ts";

const command: Command = {
  name: "helper",
  summary: "not implemented yet",
  usage: "",
  help: "Not implemented yet.",
  options: {},
  run() {
    console.error("graphplan helper: not implemented yet");
    return Promise.resolve(EXIT.internal);
  },
};

export default command;
