/** The tree-sitter-typescript grammar from tree-sitter-wasms, embedded as bytes. */
import bytes from "tree-sitter-wasms/out/tree-sitter-typescript.wasm" with { type: "bytes" };
export default bytes;
