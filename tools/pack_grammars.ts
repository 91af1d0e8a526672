/**
 * Regenerates `grammars/wasm/*.wasm.br.b64` from the pinned npm packages:
 * the web-tree-sitter runtime (`tree-sitter.wasm`) and the 11 grammars of
 * `tree-sitter-wasms`, each brotli-compressed and written as base64 text.
 *
 * Why compressed: the one-file bundle carries these bytes as string
 * literals, and every start of the bundle (the CLI's, each pool worker's)
 * reads, copies and scans its whole source. Raw, the grammars take ~15.7 MB
 * (a ~23 MB bundle); gzip brings them to ~1.6 MB, brotli at its highest
 * setting to ~0.98 MB. Measured on a 2-core VM where a page fault costs
 * ~15 us, each MB of bundle source costs ~15–25 ms at start-up. A grammar is
 * inflated only when its language is first parsed.
 *
 * Why base64 text rather than bytes: the grammar modules import the files
 * `with { type: "text" }`, so the bundle holds the same string that a run
 * from the sources reads, and `grammars/mod.ts` decodes it itself (natively
 * where `Uint8Array.fromBase64` exists) instead of relying on the bundler's
 * private decoder.
 *
 * `tests/grammars/grammars_test.ts` checks that every committed file inflates
 * to exactly the bytes of its package, so the two cannot drift apart.
 *
 * Usage: `deno run -A tools/pack_grammars.ts`
 *
 * @module
 */

import { brotliCompressSync, constants } from "node:zlib";
import { LANGUAGES } from "../grammars/mod.ts";

const outDir = new URL("../grammars/wasm/", import.meta.url);

/** Brotli at its densest: quality 11 and the largest standard window (16 MiB). */
export function brotli(bytes: Uint8Array): Uint8Array {
  return new Uint8Array(brotliCompressSync(bytes, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_LGWIN]: constants.BROTLI_MAX_WINDOW_BITS,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  }));
}

/** The `.wasm` bytes of the pinned packages, by the name of the packed file they go to. */
export async function packageWasm(): Promise<Map<string, Uint8Array>> {
  const out = new Map<string, Uint8Array>();
  // Literal specifiers for the runtime; a template for the grammars (the package is in the cache
  // once the first one is imported).
  out.set(
    "tree-sitter",
    (await import("web-tree-sitter/tree-sitter.wasm", { with: { type: "bytes" } })).default as Uint8Array,
  );
  for (const language of LANGUAGES) {
    const url = `tree-sitter-wasms/out/tree-sitter-${language}.wasm`;
    out.set(language, (await import(url, { with: { type: "bytes" } })).default as Uint8Array);
  }
  return out;
}

if (import.meta.main) {
  await Deno.mkdir(outDir, { recursive: true });
  let raw = 0;
  let packed = 0;
  for (const [name, bytes] of await packageWasm()) {
    const compressed = brotli(bytes);
    await Deno.writeTextFile(new URL(`${name}.wasm.br.b64`, outDir), compressed.toBase64());
    raw += bytes.length;
    packed += compressed.length;
    console.log(
      `${name.padEnd(11)} ${String(bytes.length).padStart(8)} -> ${String(compressed.length).padStart(7)}`,
    );
  }
  console.log(
    `total       ${String(raw).padStart(8)} -> ${String(packed).padStart(7)} bytes (before base64)`,
  );
}
