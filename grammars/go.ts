/** The tree-sitter-go grammar of tree-sitter-wasms 0.1.13, gzip-compressed (see tools/pack_grammars.ts). */
import bytes from "./wasm/go.wasm.gz" with { type: "bytes" };
export default bytes;
