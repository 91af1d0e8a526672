/**
 * Strictness the user chooses: warning codes that count as errors. By
 * default the three that leave code which fails when it runs: a name used
 * but bound nowhere (`unbound-name`, L3), an import missing or placed after
 * its use (`import-missing`, `import-after-use`, L4: the import closure),
 * and a changed signature or removed symbol its callers still use
 * (`interface-mismatch`, L5). `verify --strict`, `apply --strict`, the
 * helper's `strict` parameter and the agent's `verification.strict` use it.
 *
 * Strictness is judged on the settled warnings of the whole plan (what is
 * still true after the last step), never on a step's intermediate state: a
 * plan that uses a helper in step 0 and defines it in step 1 is fine.
 *
 * @module
 */

import type { Issue } from "../base/issue.ts";

/** The codes `--strict` turns into errors unless others are chosen. */
export const DEFAULT_STRICT_CODES: readonly string[] = [
  "unbound-name",
  "import-missing",
  "import-after-use",
  "interface-mismatch",
];

/**
 * The strict codes a user setting means: `true` the defaults, a list those
 * codes, `false`/undefined none.
 */
export function strictCodes(setting: boolean | readonly string[] | undefined): readonly string[] {
  if (setting === true) return DEFAULT_STRICT_CODES;
  if (Array.isArray(setting)) return setting;
  return [];
}

/** Warnings whose code is in `codes` become errors (hint says why); the rest stay warnings. */
export function promoteWarnings(
  warnings: readonly Issue[],
  codes: readonly string[],
): { errors: Issue[]; warnings: Issue[] } {
  const errors: Issue[] = [];
  const kept: Issue[] = [];
  for (const issue of warnings) {
    if (!codes.includes(issue.code)) {
      kept.push(issue);
      continue;
    }
    const note = `an error under --strict (code "${issue.code}")`;
    errors.push({ ...issue, severity: "error", hint: issue.hint ? `${issue.hint}; ${note}` : note });
  }
  return { errors, warnings: kept };
}
