/**
 * Which grammar serves which language, and the embedded bytes of each.
 *
 * Every grammar is its own module, imported with a dynamic `import()` on
 * first use: a run decodes only the languages it touches. The grammars are
 * stored gzip-compressed (`grammars/wasm/*.wasm.gz`, made from the pinned
 * tree-sitter-wasms package by `tools/pack_grammars.ts`), which keeps the
 * bundle at ~3.6 MB instead of ~23 MB of base64 that V8 would scan at every
 * start; a grammar is inflated when its language is first parsed. The modules wrap the
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

/** The `.wasm` bytes of one language's grammar, inflated on first request. */
export async function grammarBytes(language: LanguageId): Promise<Uint8Array> {
  return await gunzip((await LOADERS[language]()).default);
}

/** Inflate gzip bytes. */
export async function gunzip(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** Whether `name` is a language GraphPlan parses. */
export function isLanguageId(name: string): name is LanguageId {
  return (LANGUAGES as readonly string[]).includes(name);
}
