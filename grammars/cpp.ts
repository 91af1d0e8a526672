/** The tree-sitter-cpp grammar from tree-sitter-wasms, embedded as bytes. */
import bytes from "tree-sitter-wasms/out/tree-sitter-cpp.wasm" with { type: "bytes" };
export default bytes;
