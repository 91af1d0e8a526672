/** The tree-sitter-java grammar from tree-sitter-wasms, embedded as bytes. */
import bytes from "tree-sitter-wasms/out/tree-sitter-java.wasm" with { type: "bytes" };
export default bytes;
