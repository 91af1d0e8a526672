/**
 * `graphplan catalog [--json] [--language LANG] [--group GROUP]...`: the
 * operator catalog the agent's plan prompt includes, generated from the
 * operator, template and fragment registries.
 *
 * @module
 */

import { LANGUAGES } from "../grammars/mod.ts";
import { catalogEntries, renderCatalog } from "../engine/ops/catalog.ts";
import { CATALOG_GROUPS } from "../engine/edit/catalog_types.ts";
import { type Command, EXIT, printJson, stringOption, UsageError } from "./command.ts";

const command: Command = {
  name: "catalog",
  summary: "Print the operator catalog the agent's prompts include",
  usage: "[--json] [--language LANG] [--group GROUP]...",
  help: `
Prints the catalog of edit operators a model sees when it writes a plan:
templates grouped by use case (adding, modifying, wrapping, restructuring),
AST surgery, typed fragments, then primitives, composed and legacy
operators. Each entry has a one-line summary, its parameters with their
kinds ("?" marks optional ones) and one worked example step. The catalog is
generated from the registries the engine runs, so it lists exactly the
operators that exist.

Options:
  --json             print the entries as a JSON array instead of markdown
  --language LANG    only operators that support LANG (python, javascript, ...)
  --group GROUP      only this group (repeatable): ${CATALOG_GROUPS.join(", ")}

Exit codes: 0 printed; 2 usage error.

Examples:
  graphplan catalog --language python
  graphplan catalog --json --group surgery --group fragments
`,
  options: { language: { type: "string" }, group: { type: "string", multiple: true } },
  run(args) {
    const language = stringOption(args, "language");
    if (language !== undefined && !(LANGUAGES as readonly string[]).includes(language)) {
      throw new UsageError(`Unknown language "${language}" (languages: ${LANGUAGES.join(", ")})`);
    }
    const raw = args.values.group;
    const groups = raw === undefined ? undefined : (Array.isArray(raw) ? raw : [raw]).map(String);
    for (const group of groups ?? []) {
      if (!(CATALOG_GROUPS as readonly string[]).includes(group)) {
        throw new UsageError(`Unknown group "${group}" (groups: ${CATALOG_GROUPS.join(", ")})`);
      }
    }
    if (args.values.json) printJson(catalogEntries({ language, groups }));
    else console.log(renderCatalog({ language, groups }).trimEnd());
    return Promise.resolve(EXIT.ok);
  },
};

export default command;
