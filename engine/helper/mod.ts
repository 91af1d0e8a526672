/**
 * The in-container helper: one request (`graphplan helper METHOD`) or a
 * session (`graphplan helper --serve`) over the methods of `methods.ts`.
 * The protocol is documented in docs/helper.md.
 *
 * @module
 */

export { Session, type SessionOptions } from "./session.ts";
export { type MethodFn, METHODS } from "./methods.ts";
export { handleLine, handleRequest, internalError, type Response, type SessionResponse } from "./protocol.ts";
export { serve, writeStdout } from "./serve.ts";
