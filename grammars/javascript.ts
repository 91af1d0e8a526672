/** The tree-sitter-javascript grammar from tree-sitter-wasms, embedded as bytes. */
import bytes from "tree-sitter-wasms/out/tree-sitter-javascript.wasm" with { type: "bytes" };
export default bytes;
