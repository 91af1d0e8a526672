/** The tree-sitter-ruby grammar of tree-sitter-wasms 0.1.13, brotli-compressed, as base64 (see tools/pack_grammars.ts). */
import packed from "./wasm/ruby.wasm.br.b64" with { type: "text" };
export default packed;
