/** The tree-sitter-tsx grammar from tree-sitter-wasms, embedded as bytes. */
import bytes from "tree-sitter-wasms/out/tree-sitter-tsx.wasm" with { type: "bytes" };
export default bytes;
