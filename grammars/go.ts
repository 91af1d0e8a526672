/** The tree-sitter-go grammar from tree-sitter-wasms, embedded as bytes. */
import bytes from "tree-sitter-wasms/out/tree-sitter-go.wasm" with { type: "bytes" };
export default bytes;
