/**
 * Which grammar serves which language, and the embedded bytes of each.
 *
 * Every grammar is its own module, imported with a dynamic `import()` on
 * first use: a run decodes only the languages it touches. The modules wrap the
 * raw `.wasm` import so that `deno bundle` emits a lazily initialised module
 * per grammar (importing the `.wasm` directly from `import()` makes the bundle
 * copy every byte index into a namespace object: ~0.45 s and ~190 MB).
 *
 * @module
 */

import runtime from "web-tree-sitter/tree-sitter.wasm" with { type: "bytes" };

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

/** A language GraphPlan parses. */
export type LanguageId = typeof LANGUAGES[number];

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

/** The web-tree-sitter runtime, embedded. */
export const RUNTIME_WASM: Uint8Array = runtime;

const LOADERS: Record<LanguageId, () => Promise<{ default: Uint8Array }>> = {
  python: () => import("./python.ts"),
  javascript: () => import("./javascript.ts"),
  typescript: () => import("./typescript.ts"),
  tsx: () => import("./tsx.ts"),
  java: () => import("./java.ts"),
  go: () => import("./go.ts"),
  rust: () => import("./rust.ts"),
  ruby: () => import("./ruby.ts"),
  php: () => import("./php.ts"),
  c: () => import("./c.ts"),
  cpp: () => import("./cpp.ts"),
};

/** The `.wasm` bytes of one language's grammar, decoded on first request. */
export async function grammarBytes(language: LanguageId): Promise<Uint8Array> {
  return (await LOADERS[language]()).default;
}

/** Whether `name` is a language GraphPlan parses. */
export function isLanguageId(name: string): name is LanguageId {
  return (LANGUAGES as readonly string[]).includes(name);
}
