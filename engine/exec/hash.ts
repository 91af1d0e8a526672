/**
 * SHA-256 for the journal, with `node:crypto` loaded on first use.
 *
 * `deno bundle` turns every `node:` import anywhere in the program into a
 * static import at the top of the one-file bundle, so a plain
 * `import ... from "node:crypto"` would start Node's compatibility layer
 * (~11 ms, with `node:module`) every time the bundle starts, in every pool
 * worker too, although only `apply` and `rollback` hash anything.
 * `process.getBuiltinModule` loads the module synchronously when it is first
 * asked for.
 *
 * @module
 */

type NodeCrypto = typeof import("node:crypto");

let nodeCrypto: NodeCrypto | undefined;

/** The SHA-256 of `data` (a string is hashed as UTF-8), as lowercase hex. */
export function sha256Hex(data: string | Uint8Array): string {
  nodeCrypto ??= process.getBuiltinModule("node:crypto") as NodeCrypto;
  return nodeCrypto.createHash("sha256").update(data).digest("hex");
}
