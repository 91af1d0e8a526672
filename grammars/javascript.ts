/** The tree-sitter-javascript grammar of tree-sitter-wasms 0.1.13, gzip-compressed (see tools/pack_grammars.ts). */
import bytes from "./wasm/javascript.wasm.gz" with { type: "bytes" };
export default bytes;
