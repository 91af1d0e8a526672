/**
 * Which grammar serves which language, and the embedded bytes of each.
 *
 * Every grammar is its own module, imported with a dynamic `import()` on
 * first use: a run decodes only the languages it touches. The runtime and
 * the grammars are stored brotli-compressed as base64 text
 * (`grammars/wasm/*.wasm.br.b64`, made from the pinned npm packages by
 * `tools/pack_grammars.ts`): ~1.4 MB of the bundle instead of ~21 MB of
 * plain base64 that every start would read and scan. A grammar is inflated
 * when its language is first parsed. The modules wrap the text import so that
 * `deno bundle` emits a lazily initialised module per grammar (importing the
 * file directly from `import()` makes the bundle build a namespace object
 * for it at start-up).
 *
 * @module
 */

import runtimePacked from "./wasm/tree-sitter.wasm.br.b64" with { type: "text" };
import { type LanguageId, LANGUAGES, PLAIN_TEXT } from "../engine/base/languages.ts";

// The language table lives with language detection, which must not load a grammar.
export { EXTENSIONS, type LanguageId, LANGUAGES, PLAIN_TEXT } from "../engine/base/languages.ts";

const LOADERS: Record<typeof LANGUAGES[number], () => Promise<{ default: string }>> = {
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

/** The `.wasm` bytes of the web-tree-sitter runtime (inflated at each call). */
export function runtimeBytes(): Promise<Uint8Array> {
  return unpack(runtimePacked);
}

/** The `.wasm` bytes of one language's grammar (inflated at each call). */
export async function grammarBytes(language: LanguageId): Promise<Uint8Array> {
  if (language === PLAIN_TEXT) throw new Error("Plain text has no grammar");
  return await unpack((await LOADERS[language]()).default);
}

/** The bytes of a packed file: base64 text of brotli-compressed bytes. */
export async function unpack(packed: string): Promise<Uint8Array> {
  return await unbrotli(fromBase64(packed));
}

/** Decode base64, natively where the engine has `Uint8Array.fromBase64`. */
export function fromBase64(text: string): Uint8Array {
  const native = (Uint8Array as { fromBase64?: (text: string) => Uint8Array }).fromBase64;
  if (native) return native(text);
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * Inflate brotli bytes with the web `DecompressionStream` (Deno 2.7+), or
 * with node:zlib on a Deno whose stream lacks the format.
 *
 * The stream is written and read directly: going through `Blob` and
 * `Response` would also load Deno's fetch body and headers code, ~6 ms of a
 * cold start on the machines we measure (creating the process's first
 * stream costs another ~7 ms, however it is read).
 */
export async function unbrotli(bytes: Uint8Array): Promise<Uint8Array> {
  let stream: DecompressionStream;
  try {
    stream = new DecompressionStream("brotli" as CompressionFormat);
  } catch {
    const zlib = process.getBuiltinModule("node:zlib") as typeof import("node:zlib");
    return new Uint8Array(zlib.brotliDecompressSync(bytes));
  }
  const writer = stream.writable.getWriter();
  // A corrupt input rejects these and the reader alike; the reader's rejection is the one reported.
  writer.write(bytes as Uint8Array<ArrayBuffer>).catch(() => {});
  writer.close().catch(() => {});
  const reader = stream.readable.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    chunks.push(next.value);
    total += next.value.length;
  }
  if (chunks.length === 1) return chunks[0];
  const joined = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    joined.set(chunk, at);
    at += chunk.length;
  }
  return joined;
}

/** Whether `name` is a language GraphPlan parses. */
export function isLanguageId(name: string): name is LanguageId {
  return (LANGUAGES as readonly string[]).includes(name);
}
