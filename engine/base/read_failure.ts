/**
 * Why a file could not be read, in words for a message that already quotes
 * the path: Deno's own text ("No such file or directory (os error 2):
 * readfile 'PATH'") repeats the path and reads like a system call.
 *
 * @module
 */

/** The reason `err` (thrown by a Deno file read) gives, e.g. `no such file`, `it is a directory`. */
export function readFailure(err: unknown): string {
  if (err instanceof Deno.errors.NotFound) return "no such file";
  if (err instanceof Deno.errors.IsADirectory) return "it is a directory";
  if (err instanceof Deno.errors.PermissionDenied) return "permission denied";
  const message = err instanceof Error ? err.message : String(err);
  const os = /^(.*?) \(os error \d+\)/s.exec(message);
  return os ? os[1].charAt(0).toLowerCase() + os[1].slice(1) : message;
}
