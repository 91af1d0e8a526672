/**
 * `graphplan lift (--diff FILE | --search-replace FILE | --apply-patch FILE)`:
 * turn a unified diff, SEARCH/REPLACE blocks or an apply_patch document
 * into a verified structural plan
 * (ARCHITECTURE.md, "Lift"). Writes nothing to the repository; `--out`
 * writes the plan document to a file.
 *
 * @module
 */

import {
  type Command,
  EXIT,
  printIssues,
  printJson,
  readInput,
  stringOption,
  UsageError,
  writeLine,
} from "./command.ts";
import { DocumentStore } from "../engine/parse/documents.ts";
import { Workspace } from "../engine/workspace.ts";
import { lift } from "../engine/lift/mod.ts";
import { BOUND_HELP, BOUND_OPTIONS, withBounds } from "./bounds.ts";

const command: Command = {
  name: "lift",
  summary:
    "Turn a diff, SEARCH/REPLACE blocks or an apply_patch into a verified structural plan; write nothing",
  usage:
    "(--diff FILE | --search-replace FILE | --apply-patch FILE) [--repo DIR] [--out PLAN] [--json] [--timeout SECONDS]",
  help: `
Reads a git-format unified diff (--diff), Aider-style SEARCH/REPLACE
blocks (--search-replace) or an OpenAI apply_patch document
(--apply-patch), FILE or - for stdin, applies it in memory to the
repository's files and maps every change onto AST nodes: each change
becomes the most specific step that reproduces it (a tier-2 template such
as modify_condition, replace_expression, guard_clause, add_parameter,
replace_function_body; a tier-3 fragment for new statements; tier-1
delete_node), replace_node or the legacy replace_code only when nothing
formal reproduces it. A created, deleted or renamed file and a mode
change are whole-file steps (create_file, delete_file, rename_file,
set_mode); a binary change is refused. The plan is verified (layers 0-6, levels L0-L6) and
replayed in memory; lift succeeds only when the replay reproduces the
diff's result byte for byte. The repository is never written.

Options:
  --diff FILE            a unified diff (git diff, diff -u; -p1 paths)
  --search-replace FILE  SEARCH/REPLACE blocks (the file name on the line
                         before each fence)
  --apply-patch FILE     an OpenAI apply_patch document ("*** Begin Patch";
                         also recognized when given to --diff)
  --repo DIR             repository root (default: .)
  --out PLAN             also write the plan document to PLAN (only when
                         the lift succeeds)
  --json                 print {success, plan, hunks, exact, errors,
                         warnings}; hunks: [{file, index, steps, lifted,
                         tiers, kinds}]
${BOUND_HELP}

Exit codes: 0 lifted and replayed exactly, 1 a hunk does not apply or
could not be lifted exactly, 2 usage error, 3 internal error.

Examples:
  git diff > fix.diff && graphplan lift --diff fix.diff --out plan.json
  graphplan lift --search-replace answer.md --json
  graphplan lift --apply-patch codex.patch --out plan.json
  git diff | graphplan lift --diff - --repo .`,
  options: {
    diff: { type: "string" },
    "search-replace": { type: "string" },
    "apply-patch": { type: "string" },
    out: { type: "string" },
    ...BOUND_OPTIONS,
  },
  async run(args) {
    if (args.positionals.length > 0) {
      throw new UsageError(`Unexpected arguments: ${args.positionals.map((a) => `"${a}"`).join(" ")}`);
    }
    const inputs = { diff: "diff", search_replace: "search-replace", apply_patch: "apply-patch" } as const;
    const given = Object.entries(inputs).filter(([, option]) => stringOption(args, option) !== undefined);
    if (given.length !== 1) {
      throw new UsageError("Give exactly one of --diff FILE, --search-replace FILE and --apply-patch FILE");
    }
    const json = args.values.json === true;
    const workspace = Workspace.open(stringOption(args, "repo", "."));
    const [key, option] = given[0];
    const input = { [key]: await readInput(stringOption(args, option)!) };
    const result = await withBounds(args, () => lift(new DocumentStore(workspace), input));
    const out = stringOption(args, "out");
    // A plan that does not reproduce the diff is not worth a file: an earlier PLAN stays as it was.
    if (out !== undefined && result.success) {
      await Deno.writeTextFile(out, JSON.stringify(result.plan, null, 2) + "\n");
    }
    if (json) {
      printJson(result);
    } else {
      printIssues([...result.errors, ...result.warnings]);
      for (const hunk of result.hunks) {
        const steps = hunk.steps.map((step, k) => `${step}:${hunk.kinds[k]}(tier ${hunk.tiers[k]})`).join(
          ", ",
        );
        writeLine(`hunk ${hunk.index} ${hunk.file}: ${hunk.lifted ? steps || "no change" : "NOT LIFTED"}`);
      }
      if (out === undefined) writeLine(JSON.stringify(result.plan, null, 2));
      const summary = `${result.success ? "Lifted" : "Not lifted"}: ${result.plan.length} step(s), replay ${
        result.exact ? "exact" : "not exact"
      }`;
      if (result.success) writeLine(summary);
      else console.error(out === undefined ? summary : `${summary}; --out "${out}" not written`);
    }
    return result.success ? EXIT.ok : EXIT.rejected;
  },
};

export default command;
