/**
 * `graphplan helper --serve`: newline-delimited requests in, one response
 * line per request out, in order, until the input ends. A malformed line gets
 * an error response and the session goes on.
 *
 * Bounded: the input is read as bytes and split at newlines without ever
 * holding more than `max_request_bytes` of one line. A longer line is
 * answered with `request-too-large` as soon as it passes the limit (with the
 * id read from its first bytes when it starts with one), and the rest of it
 * is skipped as it arrives. When the other side closes stdout (a broken
 * pipe), the session ends quietly: nobody is left to answer.
 *
 * @module
 */

import { limits, overLimit } from "../base/limits.ts";
import { handleLine } from "./protocol.ts";
import type { Session } from "./session.ts";

/** Bytes kept from the start of a line that is too large, to find its id. */
const HEAD_BYTES = 512;

/**
 * Serve requests from `input` (NDJSON) until it closes, writing each
 * response line with `write`. Returns when the input ends or the output is
 * closed (`"output-closed"`).
 */
export async function serve(
  session: Session,
  input: ReadableStream<Uint8Array>,
  write: (line: string) => Promise<void>,
): Promise<"input-ended" | "output-closed"> {
  const max = limits().max_request_bytes;
  const decoder = new TextDecoder();
  let parts: Uint8Array[] = [];
  let size = 0;
  let skipping = false;
  let head = new Uint8Array(0);
  const send = async (response: unknown): Promise<boolean> => {
    try {
      await write(JSON.stringify(response) + "\n");
      return true;
    } catch (err) {
      if (isClosedPipe(err)) return false;
      throw err;
    }
  };
  const answer = async (): Promise<boolean> => {
    const line = decoder.decode(concatBytes(parts, size));
    parts = [];
    size = 0;
    if (line.trim() === "") return true;
    return await send(await handleLine(session, line));
  };
  const reader = input.getReader();
  try {
    for (;;) {
      const { value: chunk, done } = await reader.read();
      if (done) break;
      let start = 0;
      for (;;) {
        const nl = chunk.indexOf(10, start);
        const end = nl === -1 ? chunk.length : nl;
        if (!skipping) {
          const piece = chunk.subarray(start, end);
          if (size === 0 && piece.length > 0) head = piece.slice(0, HEAD_BYTES);
          if (size + piece.length > max) {
            skipping = true;
            parts = [];
            size = 0;
            if (!await send(tooLarge(head, max))) return "output-closed";
          } else if (piece.length > 0) {
            parts.push(piece.slice());
            size += piece.length;
          }
        }
        if (nl === -1) break;
        if (!skipping && !await answer()) return "output-closed";
        skipping = false;
        start = nl + 1;
      }
    }
    if (!skipping && size > 0 && !await answer()) return "output-closed";
    return "input-ended";
  } finally {
    reader.releaseLock();
  }
}

/** The concatenation of `parts` (`size` bytes in all). */
export function concatBytes(parts: Uint8Array[], size: number): Uint8Array {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** The response to a line over the limit, with the id its first bytes show (else null). */
function tooLarge(head: Uint8Array, max: number): unknown {
  const text = new TextDecoder().decode(head);
  const found = /^\s*\{\s*"id"\s*:\s*("(?:[^"\\]|\\.){0,200}"|-?\d{1,20}(?:\.\d{1,20})?|null)\s*[,}]/.exec(
    text,
  );
  let id: unknown = null;
  try {
    if (found) id = JSON.parse(found[1]);
  } catch {
    id = null;
  }
  return {
    id,
    error: {
      issues: [overLimit(
        "request-too-large",
        "max_request_bytes",
        `The request is larger than ${max} bytes: refused without reading the rest`,
        { hint: "send large plans in several requests, or edit fewer files per plan" },
      )],
    },
  };
}

/** Whether `err` says the reading side of our output is gone. */
export function isClosedPipe(err: unknown): boolean {
  return err instanceof Deno.errors.BrokenPipe || err instanceof Deno.errors.ConnectionReset ||
    (err instanceof Error && /broken pipe|EPIPE|os error 32/i.test(err.message));
}

/** A `write` for `serve` that writes whole lines to stdout. */
export async function writeStdout(line: string): Promise<void> {
  const bytes = new TextEncoder().encode(line);
  let done = 0;
  while (done < bytes.length) done += await Deno.stdout.write(bytes.subarray(done));
}
