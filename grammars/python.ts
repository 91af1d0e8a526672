/** The tree-sitter-python grammar from tree-sitter-wasms, embedded as bytes. */
import bytes from "tree-sitter-wasms/out/tree-sitter-python.wasm" with { type: "bytes" };
export default bytes;
