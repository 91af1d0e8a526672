/**
 * The command that starts this same GraphPlan elsewhere (a Slurm task, a
 * script): the compiled executable itself, or `deno run -A` with the
 * bundle or `main.ts` this process runs from.
 *
 * @module
 */

import { fileURLToPath } from "../../engine/base/node_builtins.ts";
import { isCompiled } from "../common/deploy.ts";

/** The argv that runs `graphplan` as this process does. */
export function selfCommand(): string[] {
  if (isCompiled()) return [Deno.execPath()];
  const main = Deno.mainModule.startsWith("file:") ? fileURLToPath(Deno.mainModule) : Deno.mainModule;
  return [Deno.execPath(), "run", "-A", main];
}
