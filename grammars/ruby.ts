/** The tree-sitter-ruby grammar from tree-sitter-wasms, embedded as bytes. */
import bytes from "tree-sitter-wasms/out/tree-sitter-ruby.wasm" with { type: "bytes" };
export default bytes;
