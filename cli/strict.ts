/**
 * `--strict` and `--strict-codes` of `verify` and `apply`: which warning
 * codes count as errors (`engine/verify/strict.ts`).
 *
 * @module
 */

import { type ParsedArgs, UsageError } from "./command.ts";
import { DEFAULT_STRICT_CODES, strictCodes } from "../engine/verify/strict.ts";

/** The option declarations, for a command's `options`. */
export const STRICT_OPTIONS = {
  strict: { type: "boolean" },
  "strict-codes": { type: "string" },
} as const;

/** The help lines of the options. */
export const STRICT_HELP = `  --strict     count the warnings that mean broken code as errors:
               ${DEFAULT_STRICT_CODES.join(", ")}
  --strict-codes CODES
               comma-separated warning codes to count as errors instead
               (implies --strict)`;

/** The codes the command line asks to count as errors (empty: not strict). */
export function strictFromArgs(args: ParsedArgs): readonly string[] {
  const list = args.values["strict-codes"];
  if (typeof list === "string") {
    const codes = list.split(",").map((code) => code.trim()).filter((code) => code !== "");
    const bad = codes.find((code) => !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(code));
    if (codes.length === 0 || bad !== undefined) {
      throw new UsageError(
        `Invalid --strict-codes: ${
          bad === undefined ? "no code given" : `"${bad}" is not a kebab-case code`
        }`,
      );
    }
    return codes;
  }
  return strictCodes(args.values.strict === true);
}
