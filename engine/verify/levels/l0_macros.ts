/**
 * L0's view of unknown C and C++ macros before declarations
 * (`analysis/macro_specifiers.ts`): an edit's new syntax problems are the
 * macros' when, with the macro specifiers blanked on both sides, the edit
 * brings none.
 *
 * @module
 */

import { problemsWithoutMacros } from "../../analysis/macro_specifiers.ts";
import { type Document, editBetween } from "../../parse/documents.ts";
import { syntaxProblems } from "../../parse/mod.ts";
import { unmatchedProblems } from "./l0_syntax.ts";

/** What an edit of a C or C++ file looks like with its macro specifiers blanked. */
export interface MacroView {
  /** The edit's new syntax problems then. */
  fresh: number;
  /** Whether the file had syntax problems before the edit even then. */
  broken: boolean;
}

/** The edit seen with macro specifiers blanked on both sides; undefined outside C/C++ or without any. */
export async function macroView(before: Document, after: Document): Promise<MacroView | undefined> {
  const language = after.file.language;
  const found = await problemsWithoutMacros(language, after.file.text);
  if (!found) return undefined;
  const old = await problemsWithoutMacros(language, before.file.text) ?? syntaxProblems(before.tree);
  return { fresh: unmatchedProblems(old, found, editBetween(before, after)).length, broken: old.length > 0 };
}
