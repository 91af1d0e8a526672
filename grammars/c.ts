/** The tree-sitter-c grammar from tree-sitter-wasms, embedded as bytes. */
import bytes from "tree-sitter-wasms/out/tree-sitter-c.wasm" with { type: "bytes" };
export default bytes;
