/**
 * A long-lived child process spoken to in JSON lines: one request line in,
 * one answer line out, in order. The first line the child prints is its
 * greeting (the interpreter's name and version). Used for the compilers a
 * plan's result is checked with, so a session starts each at most once.
 *
 * @module
 */

/** A started JSON-lines child. */
export class LineProcess {
  readonly greeting: Record<string, unknown>;
  #child: Deno.ChildProcess;
  #writer: WritableStreamDefaultWriter<Uint8Array>;
  #lines: AsyncIterator<string>;
  #queue: Promise<unknown> = Promise.resolve();
  #closed = false;

  private constructor(
    child: Deno.ChildProcess,
    lines: AsyncIterator<string>,
    greeting: Record<string, unknown>,
  ) {
    this.#child = child;
    this.#writer = child.stdin.getWriter();
    this.#lines = lines;
    this.greeting = greeting;
  }

  /**
   * Start `command` with `args`; undefined when it cannot be started (not
   * installed, no permission to run programs) or does not greet within
   * `timeoutMs`.
   */
  static async start(
    command: string,
    args: string[],
    options: { env?: Record<string, string>; timeoutMs?: number } = {},
  ): Promise<LineProcess | undefined> {
    let child: Deno.ChildProcess;
    try {
      child = new Deno.Command(command, {
        args,
        stdin: "piped",
        stdout: "piped",
        stderr: "null",
        env: options.env,
      }).spawn();
    } catch {
      return undefined; // not on PATH, or --allow-run missing
    }
    const lines = readLines(child.stdout);
    const first = await withTimeout(lines.next(), options.timeoutMs ?? 10_000);
    let greeting: Record<string, unknown> | undefined;
    try {
      greeting = first && !first.done ? JSON.parse(first.value) : undefined;
    } catch {
      greeting = undefined;
    }
    const process = new LineProcess(child, lines, greeting ?? {});
    if (!greeting) {
      await process.close();
      return undefined;
    }
    return process;
  }

  /** Send one request and wait for its answer; undefined when the child died or timed out. */
  request(message: unknown, timeoutMs = 30_000): Promise<Record<string, unknown> | undefined> {
    const next = this.#queue.then(async () => {
      if (this.#closed) return undefined;
      try {
        await this.#writer.write(new TextEncoder().encode(JSON.stringify(message) + "\n"));
        const line = await withTimeout(this.#lines.next(), timeoutMs);
        if (!line || line.done) {
          await this.close();
          return undefined;
        }
        return JSON.parse(line.value) as Record<string, unknown>;
      } catch {
        await this.close();
        return undefined;
      }
    });
    this.#queue = next.catch(() => undefined);
    return next;
  }

  /** Stop the child (closing its input ends its loop; a kill makes sure). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    try {
      await this.#writer.close();
    } catch { /* already gone */ }
    try {
      this.#child.kill();
    } catch { /* already exited */ }
    try {
      await this.#lines.return?.();
    } catch { /* stream errored */ }
    await this.#child.status.catch(() => undefined);
  }
}

async function* readLines(stream: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  let buffer = "";
  for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
    buffer += chunk;
    for (let nl = buffer.indexOf("\n"); nl !== -1; nl = buffer.indexOf("\n")) {
      yield buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
    }
  }
}

async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
