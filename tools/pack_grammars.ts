/**
 * Regenerates `grammars/wasm/<language>.wasm.gz` from the pinned
 * `tree-sitter-wasms` package: the grammars GraphPlan embeds, gzip-compressed.
 *
 * Why compressed: embedded bytes end up base64-encoded inside the bundle and
 * the binary. The 11 grammars take ~15.7 MB raw, which made the one-file
 * bundle ~23 MB; V8 scans all of it at start-up (cold start ~120–175 ms,
 * ~110–160 MB RSS for a one-file `graph`). Gzipped they take ~1.5 MB, and a
 * grammar is inflated only when its language is first parsed.
 *
 * `tests/grammars/grammars_test.ts` checks that every committed file inflates
 * to exactly the bytes of the package, so the two cannot drift apart.
 *
 * Usage: `deno run -A tools/pack_grammars.ts`
 *
 * @module
 */

import { LANGUAGES } from "../grammars/mod.ts";

const outDir = new URL("../grammars/wasm/", import.meta.url);

/** The path of a language's grammar inside the pinned npm package. */
export function packageWasmPath(language: string): string {
  return new URL(import.meta.resolve(`tree-sitter-wasms/out/tree-sitter-${language}.wasm`)).pathname;
}

async function gzip(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

if (import.meta.main) {
  await Deno.mkdir(outDir, { recursive: true });
  let raw = 0;
  let packed = 0;
  for (const language of LANGUAGES) {
    // Make sure the package is in the cache: importing one grammar pulls it in.
    const bytes =
      (await import(`tree-sitter-wasms/out/tree-sitter-${language}.wasm`, { with: { type: "bytes" } }))
        .default as Uint8Array;
    const gz = await gzip(bytes);
    await Deno.writeFile(new URL(`${language}.wasm.gz`, outDir), gz);
    raw += bytes.length;
    packed += gz.length;
    console.log(
      `${language.padEnd(10)} ${String(bytes.length).padStart(8)} -> ${String(gz.length).padStart(7)}`,
    );
  }
  console.log(`total      ${String(raw).padStart(8)} -> ${String(packed).padStart(7)} bytes`);
}
