/** The tree-sitter-rust grammar from tree-sitter-wasms, embedded as bytes. */
import bytes from "tree-sitter-wasms/out/tree-sitter-rust.wasm" with { type: "bytes" };
export default bytes;
