/**
 * `deno run -A tools/issue_codes_doc.ts`: write `docs/issue_codes.md`, the
 * published list of issue codes, from `engine/base/issue_codes.ts`.
 * `tests/engine/issue_codes_test.ts` fails when the page's rows differ from
 * the list.
 *
 * @module
 */

import { ISSUE_CODES } from "../engine/base/issue_codes.ts";

/** Where the page lives, relative to the repository root. */
export const ISSUE_CODES_PAGE = "docs/issue_codes.md";

/** The page's Markdown: a short introduction and one table row per code (before `deno fmt` aligns it). */
export function issueCodesPage(): string {
  const rows = Object.entries(ISSUE_CODES).map(([code, meaning]) => `| \`${code}\` | ${meaning} |`);
  return [
    "# Issue codes",
    "",
    "Every problem GraphPlan reports is an issue object `{code, severity, message, file?, line?, ...}`",
    `(see the README). Its \`code\` is one of these ${rows.length} stable identifiers; scripts may match on them.`,
    "`graphplan schema --issue-codes [--json]` prints the same list.",
    "",
    "Generated from `engine/base/issue_codes.ts` by `deno run -A tools/issue_codes_doc.ts`: edit that file, not this page.",
    "",
    "| Code | Meaning |",
    "| --- | --- |",
    ...rows,
    "",
  ].join("\n");
}

if (import.meta.main) {
  const path = new URL(`../${ISSUE_CODES_PAGE}`, import.meta.url);
  await Deno.writeTextFile(path, issueCodesPage());
  // Formatted as `deno fmt --check` wants it; the test compares the rows, not the layout.
  await new Deno.Command(Deno.execPath(), { args: ["fmt", "--quiet", path.pathname] }).output();
  console.log(`wrote ${ISSUE_CODES_PAGE}`);
}
