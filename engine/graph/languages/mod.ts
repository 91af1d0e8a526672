/**
 * The graph rules of every language GraphPlan parses.
 *
 * @module
 */

import type { LanguageId } from "../../parse/mod.ts";
import type { LanguageRules } from "../rules.ts";
import { C, CPP } from "./c.ts";
import { GO } from "./go.ts";
import { JAVA } from "./java.ts";
import { JAVASCRIPT, TYPESCRIPT } from "./javascript.ts";
import { PHP } from "./php.ts";
import { PYTHON } from "./python.ts";
import { RUBY } from "./ruby.ts";
import { RUST } from "./rust.ts";

const RULES: Record<LanguageId, LanguageRules> = {
  python: PYTHON,
  javascript: JAVASCRIPT,
  typescript: TYPESCRIPT,
  tsx: TYPESCRIPT,
  java: JAVA,
  go: GO,
  rust: RUST,
  ruby: RUBY,
  php: PHP,
  c: C,
  cpp: CPP,
  text: { symbols: {}, imports: {}, lineKinds: {} },
};

/** The graph rules for `language`. */
export function rulesFor(language: LanguageId): LanguageRules {
  return RULES[language];
}
