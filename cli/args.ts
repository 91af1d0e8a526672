/**
 * Command-line option parsing: the strict mode of `node:util` `parseArgs`
 * (with positionals allowed), for the option kinds GraphPlan declares
 * (`string` or `boolean`, an optional one-letter `short`, `multiple`).
 *
 * Why not `parseArgs` itself: the first use of any `node:` module, or of the
 * global `process`, starts Deno's Node compatibility layer, measured at
 * 7–11 ms on one machine and ~30 ms on another, at every start of every
 * command, before any work. Nothing else on the way of `graph`, `locate`,
 * `verify` or `helper` needs that layer. The results and the error messages
 * follow `parseArgs`: `tests/cli/args_test.ts` runs both on the same
 * command lines and requires the same answers.
 *
 * Rules, as in `parseArgs`:
 * - `--name value`, `--name=value`, `-n value`, `-nvalue` for a string
 *   option; the value after a separate flag may not look like an option
 *   (`--repo -x` is refused as ambiguous, `--repo=-x` is fine);
 * - `-abc` is `-a -b -c` when `-a` is a boolean; a string option inside such
 *   a group takes the rest of it as its value;
 * - `--` ends the options and a lone `-` is a positional;
 * - an unknown option, a missing value, a value given to a boolean are
 *   errors; a repeated option keeps its last value unless it is `multiple`.
 *
 * @module
 */

/** One declared option. */
export interface OptionDeclaration {
  type: "string" | "boolean";
  /** A one-character alias, used as `-x`. */
  short?: string;
  /** Collect every occurrence into an array. */
  multiple?: boolean;
}

/** Declared options by long name. */
export type OptionSpec = Record<string, OptionDeclaration>;

/** Parsed values (only the options given) and positionals, in order. */
export interface ParsedOptions {
  values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  positionals: string[];
}

/** A command line that breaks the rules (the message names the option). */
export class ArgsError extends Error {
  /** The option as typed, when it is not declared (`--mdoel`, `-x`): for a "did you mean". */
  readonly unknownOption?: string;
  constructor(message: string, options: { unknownOption?: string } = {}) {
    super(message);
    this.name = "ArgsError";
    this.unknownOption = options.unknownOption;
  }
}

/** Parse `args` against `options` (strict, positionals allowed). */
export function parseOptions(args: readonly string[], options: OptionSpec): ParsedOptions {
  const reader = new OptionReader(options);
  const queue = [...args];
  while (queue.length > 0) {
    const arg = queue.shift() as string;
    if (arg === "--") {
      reader.positionals.push(...queue);
      break;
    }
    if (arg.length === 2 && arg[0] === "-" && arg[1] !== "-") {
      // -x: a string option takes the next argument, whatever it looks like.
      const name = reader.longFor(arg[1]);
      reader.store(name, arg, reader.isString(name) ? queue.shift() : undefined, false);
    } else if (arg.length > 2 && arg[0] === "-" && arg[1] !== "-") {
      const name = reader.longFor(arg[1]);
      if (reader.isString(name)) {
        // -xVALUE
        reader.store(name, `-${arg[1]}`, arg.slice(2), true);
      } else {
        // -abc is -a -b -c; a string option inside the group takes the rest: -abVALUE is -a -bVALUE.
        const expanded: string[] = [];
        for (let at = 1; at < arg.length; at++) {
          if (!reader.isString(reader.longFor(arg[at])) || at === arg.length - 1) {
            expanded.push(`-${arg[at]}`);
          } else {
            expanded.push(`-${arg.slice(at)}`);
            break;
          }
        }
        queue.unshift(...expanded);
      }
    } else if (arg.length > 2 && arg.startsWith("--")) {
      const eq = arg.indexOf("=", 3);
      if (eq === -1) {
        const name = arg.slice(2);
        reader.store(name, arg, reader.isString(name) ? queue.shift() : undefined, false);
      } else {
        const name = arg.slice(2, eq);
        reader.store(name, `--${name}`, arg.slice(eq + 1), true);
      }
    } else {
      reader.positionals.push(arg);
    }
  }
  return { values: reader.values, positionals: reader.positionals };
}

/** The values and positionals read so far, and the checks of one option as it is stored. */
class OptionReader {
  readonly values: ParsedOptions["values"] = {};
  readonly positionals: string[] = [];
  readonly #options: OptionSpec;

  constructor(options: OptionSpec) {
    this.#options = options;
  }

  #declared(name: string) {
    return Object.hasOwn(this.#options, name) ? this.#options[name] : undefined;
  }

  /** As parseArgs: a letter no option claims stands for an option of that name (unknown, as a rule). */
  longFor(short: string): string {
    return Object.keys(this.#options).find((name) => this.#options[name].short === short) ?? short;
  }

  /** Whether `name` is a declared string option (it takes a value). */
  isString(name: string): boolean {
    return this.#declared(name)?.type === "string";
  }

  /**
   * Store `value` (undefined for a flag) for option `name`, typed as
   * `rawName`; `inline` when the value was glued to it (`--x=V`, `-xV`).
   * An unknown option, a missing or unwanted value, or a value that looks
   * like an option is an {@linkcode ArgsError}.
   */
  store(name: string, rawName: string, value: string | undefined, inline: boolean): void {
    const declaration = this.#declared(name);
    if (!declaration) {
      throw new ArgsError(
        `Unknown option '${rawName}'. To specify a positional argument starting with a '-', place it at the end of the command after '--', as in '-- ${
          JSON.stringify(rawName)
        }`,
        { unknownOption: rawName },
      );
    }
    const label = `${declaration.short ? `-${declaration.short}, ` : ""}--${name}`;
    if (declaration.type === "string" && value === undefined) {
      throw new ArgsError(`Option '${label} <value>' argument missing`);
    }
    if (declaration.type === "boolean" && value !== undefined) {
      throw new ArgsError(`Option '${label}' does not take an argument`);
    }
    if (!inline && value !== undefined && value.length > 1 && value.startsWith("-")) {
      const example = rawName.startsWith("--") ? `'${rawName}=-XYZ'` : `'--${name}=-XYZ' or '${rawName}-XYZ'`;
      throw new ArgsError(
        `Option '${rawName}' argument is ambiguous.\nDid you forget to specify the option argument for '${rawName}'?\nTo specify an option argument starting with a dash use ${example}.`,
      );
    }
    if (name === "__proto__") return;
    const parsed = value ?? true;
    if (declaration.multiple) {
      const list = this.values[name];
      this.values[name] = Array.isArray(list) ? [...list, parsed] : [parsed];
    } else {
      this.values[name] = parsed;
    }
  }
}
