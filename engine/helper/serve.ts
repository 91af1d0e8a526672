/**
 * `graphplan helper --serve`: newline-delimited requests in, one response
 * line per request out, in order, until the input ends. A malformed line gets
 * an error response and the session goes on.
 *
 * @module
 */

import { handleLine } from "./protocol.ts";
import type { Session } from "./session.ts";

/** Serve requests from `input` (NDJSON) until it closes, writing each response line with `write`. */
export async function serve(
  session: Session,
  input: ReadableStream<Uint8Array>,
  write: (line: string) => Promise<void>,
): Promise<void> {
  let buffer = "";
  const answer = async (line: string) => {
    if (line.trim() === "") return;
    const response = await handleLine(session, line);
    await write(JSON.stringify(response) + "\n");
  };
  for await (const chunk of input.pipeThrough(new TextDecoderStream())) {
    buffer += chunk;
    for (let nl = buffer.indexOf("\n"); nl !== -1; nl = buffer.indexOf("\n")) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      await answer(line);
    }
  }
  await answer(buffer);
}

/** A `write` for `serve` that writes whole lines to stdout. */
export async function writeStdout(line: string): Promise<void> {
  const bytes = new TextEncoder().encode(line);
  let done = 0;
  while (done < bytes.length) done += await Deno.stdout.write(bytes.subarray(done));
}
