/** The tree-sitter-php grammar from tree-sitter-wasms, embedded as bytes. */
import bytes from "tree-sitter-wasms/out/tree-sitter-php.wasm" with { type: "bytes" };
export default bytes;
