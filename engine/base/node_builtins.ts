/**
 * The few Node built-ins GraphPlan uses (path helpers, `fileURLToPath`,
 * SHA-256), loaded on first use.
 *
 * `deno bundle` turns every `node:` import anywhere in the program into a
 * static import at the top of the one-file bundle, so one plain
 * `import { join } from "node:path"` in the agent starts Node's
 * compatibility layer at every start of the bundle, in every pool worker
 * too (7–11 ms on one machine, ~30 ms on another). Reading the global
 * `process` starts it as well, so these wrappers fetch the module with
 * `process.getBuiltinModule` only when first called, and code on the way of
 * `graph` calls none of them. All but `sha256Hex` have the signatures of the
 * originals.
 *
 * @module
 */

type NodePath = typeof import("node:path");
type NodeUrl = typeof import("node:url");
type NodeCrypto = typeof import("node:crypto");

let pathModule: NodePath | undefined;
let urlModule: NodeUrl | undefined;
let cryptoModule: NodeCrypto | undefined;

const nodePath = () => pathModule ??= process.getBuiltinModule("node:path") as NodePath;
const nodeUrl = () => urlModule ??= process.getBuiltinModule("node:url") as NodeUrl;
const nodeCrypto = () => cryptoModule ??= process.getBuiltinModule("node:crypto") as NodeCrypto;

/** `path.join` of node:path. */
export const join: NodePath["join"] = (...paths) => nodePath().join(...paths);
/** `path.resolve` of node:path. */
export const resolve: NodePath["resolve"] = (...paths) => nodePath().resolve(...paths);
/** `path.dirname` of node:path. */
export const dirname: NodePath["dirname"] = (path) => nodePath().dirname(path);
/** `path.basename` of node:path. */
export const basename: NodePath["basename"] = (path, suffix) => nodePath().basename(path, suffix);
/** `path.isAbsolute` of node:path. */
export const isAbsolute: NodePath["isAbsolute"] = (path) => nodePath().isAbsolute(path);
/** `url.fileURLToPath` of node:url. */
export const fileURLToPath: NodeUrl["fileURLToPath"] = (url, options) =>
  nodeUrl().fileURLToPath(url, options);

/** The SHA-256 of `data` (a string is hashed as UTF-8), as lowercase hex (node:crypto). */
export function sha256Hex(data: string | Uint8Array): string {
  return nodeCrypto().createHash("sha256").update(data).digest("hex");
}
