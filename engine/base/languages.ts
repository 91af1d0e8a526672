/**
 * Which language a file is by its extension, as data: the languages
 * GraphPlan parses and the extension table. Kept apart from the parser
 * (`engine/parse/mod.ts`) and the grammars (`grammars/mod.ts`, which
 * re-exports it) so that the workspace and the file lister can name a file's
 * language without loading either; a `.h` file's language also reads its
 * text (`header_language.ts`).
 *
 * @module
 */

/** The languages GraphPlan parses (TSX is TypeScript's JSX dialect). */
export const LANGUAGES = [
  "python",
  "javascript",
  "typescript",
  "tsx",
  "java",
  "go",
  "rust",
  "ruby",
  "php",
  "c",
  "cpp",
] as const;

/**
 * A language GraphPlan parses, or `"text"`: a file of any other kind, which
 * only the text operators edit (no grammar applies, see `parse`).
 */
export type LanguageId = typeof LANGUAGES[number] | "text";

/** The pseudo-language of files no grammar applies to (changelogs, docs, configs). */
export const PLAIN_TEXT = "text" as const;

/** File extensions (lower case, with the dot) and their language. */
export const EXTENSIONS: Readonly<Record<string, LanguageId>> = {
  ".py": "python",
  ".js": "javascript",
  ".jsx": "javascript",
  ".mjs": "javascript",
  ".cjs": "javascript",
  ".ts": "typescript",
  ".mts": "typescript",
  ".cts": "typescript",
  ".tsx": "tsx",
  ".java": "java",
  ".go": "go",
  ".rs": "rust",
  ".rb": "ruby",
  ".php": "php",
  ".c": "c",
  ".h": "c",
  ".cpp": "cpp",
  ".cc": "cpp",
  ".cxx": "cpp",
  ".hpp": "cpp",
  ".hxx": "cpp",
};

/** The language of a path by its extension, or `undefined` when unknown. */
export function detectLanguage(path: string): LanguageId | undefined {
  const slash = path.lastIndexOf("/");
  const dot = path.lastIndexOf(".");
  if (dot <= slash) return undefined;
  return EXTENSIONS[path.slice(dot).toLowerCase()];
}
