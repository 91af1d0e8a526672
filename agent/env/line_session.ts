/**
 * A {@linkcode LineSession} over any spawned process with piped stdin,
 * stdout and stderr: a host process, or `docker exec -i` into a container.
 *
 * One request is in flight at a time (later calls queue). Lines the process
 * printed when nobody asked are dropped before each request, so an answer is
 * always the first line after its question. A request that times out kills
 * the process, since a late answer would be taken for the next one; the
 * session then refuses requests until `restart()`.
 *
 * @module
 */

import { onInterrupt } from "./cleanup.ts";
import { type LineSession, SessionError } from "./types.ts";

/** The parts of a child process a session needs (`Deno.ChildProcess` has them). */
export interface SpawnedProcess {
  readonly stdin: WritableStream<Uint8Array>;
  readonly stdout: ReadableStream<Uint8Array>;
  readonly stderr: ReadableStream<Uint8Array>;
  readonly status: Promise<{ code: number }>;
  kill(signal?: Deno.Signal): void;
}

/** Starts the process, again on every restart. */
export type Spawner = () => SpawnedProcess;

/** Default seconds to wait for an answer line. */
export const SESSION_TIMEOUT = 120;
const STDERR_TAIL = 4000;
const CLOSE_GRACE_MS = 2000;
const STDERR_GRACE_MS = 500;

interface Generation {
  process: SpawnedProcess;
  writer: WritableStreamDefaultWriter<Uint8Array>;
  lines: string[];
  waiter?: { resolve: (line: string) => void; reject: (err: Error) => void };
  alive: boolean;
  stderr: string;
  loops: Promise<unknown>;
}

/** A line session over a spawned process. Create with {@linkcode startLineSession}. */
export class ProcessLineSession implements LineSession {
  readonly #spawn: Spawner;
  readonly #label: string;
  #current!: Generation;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(spawn: Spawner, label: string) {
    this.#spawn = spawn;
    this.#label = label;
    this.#start();
  }

  /** Whether the process is running. */
  get alive(): boolean {
    return this.#current.alive;
  }

  /** The last bytes of the process's stderr. */
  get stderrTail(): string {
    return this.#current.stderr;
  }

  /** Send a line, get a line. */
  request(line: string, options: { timeout?: number } = {}): Promise<string> {
    const run = this.#queue.then(() => this.#request(line, options.timeout ?? SESSION_TIMEOUT));
    this.#queue = run.catch(() => {});
    return run;
  }

  /** Kill the process if it runs and start it again. */
  async restart(): Promise<void> {
    await this.#stop(false);
    this.#start();
  }

  /** Close stdin, then kill the process if it does not exit. */
  async close(): Promise<void> {
    await this.#stop(true);
  }

  #start(): void {
    const process = this.#spawn();
    const generation: Generation = {
      process,
      writer: process.stdin.getWriter(),
      lines: [],
      alive: true,
      stderr: "",
      loops: Promise.resolve(),
    };
    const stderrDone = this.#readStderr(generation);
    generation.loops = Promise.all([this.#readLines(generation, stderrDone), stderrDone]);
    this.#current = generation;
  }

  async #request(line: string, timeout: number): Promise<string> {
    const generation = this.#current;
    if (!generation.alive) {
      throw new SessionError("closed", `${this.#label} is not running${this.#stderrNote(generation)}`);
    }
    generation.lines.length = 0;
    try {
      await generation.writer.write(new TextEncoder().encode(line.replace(/\n/g, " ") + "\n"));
    } catch (err) {
      throw new SessionError("write", `Cannot write to ${this.#label}${this.#stderrNote(generation)}`, {
        cause: err,
      });
    }
    const queued = generation.lines.shift();
    if (queued !== undefined) return queued;
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      return await new Promise<string>((resolve, reject) => {
        generation.waiter = { resolve, reject };
        timer = setTimeout(() => {
          generation.waiter = undefined;
          generation.alive = false;
          this.#kill(generation);
          reject(
            new SessionError("timeout", `${this.#label} gave no answer within ${timeout} s`, {
              delivered: true,
            }),
          );
        }, timeout * 1000);
      });
    } finally {
      clearTimeout(timer);
      generation.waiter = undefined;
    }
  }

  async #readLines(generation: Generation, stderrDone: Promise<void>): Promise<void> {
    const decoder = new TextDecoder();
    // The pieces of the line not yet ended: each chunk is searched for a newline once, so a
    // line of many megabytes (a command's whole output) costs linear time.
    let pieces: string[] = [];
    const reader = generation.process.stdout.getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        let text = decoder.decode(value, { stream: true });
        let newline: number;
        while ((newline = text.indexOf("\n")) >= 0) {
          const line = (pieces.join("") + text.slice(0, newline)).replace(/\r$/, "");
          pieces = [];
          text = text.slice(newline + 1);
          if (generation.waiter) generation.waiter.resolve(line);
          else generation.lines.push(line);
          generation.waiter = undefined;
        }
        if (text) pieces.push(text);
      }
    } catch {
      // the process was killed mid-read
    }
    await generation.process.status.catch(() => {});
    // Let stderr finish (bounded: a grandchild may hold it open) so the error can quote it.
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([stderrDone, new Promise((resolve) => timer = setTimeout(resolve, STDERR_GRACE_MS))]);
    clearTimeout(timer);
    generation.alive = false;
    generation.waiter?.reject(
      new SessionError("closed", `${this.#label} exited without answering${this.#stderrNote(generation)}`, {
        delivered: true,
      }),
    );
    generation.waiter = undefined;
  }

  async #readStderr(generation: Generation): Promise<void> {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of generation.process.stderr) {
        generation.stderr = (generation.stderr + decoder.decode(chunk, { stream: true })).slice(-STDERR_TAIL);
      }
    } catch {
      // the process was killed mid-read
    }
  }

  #kill(generation: Generation): void {
    try {
      generation.process.kill("SIGKILL");
    } catch {
      // already gone
    }
  }

  async #stop(gently: boolean): Promise<void> {
    const generation = this.#current;
    if (gently && generation.alive) {
      await generation.writer.close().catch(() => {});
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        generation.loops,
        new Promise((resolve) => timer = setTimeout(resolve, CLOSE_GRACE_MS)),
      ]);
      clearTimeout(timer);
    }
    if (generation.alive) this.#kill(generation);
    await generation.writer.close().catch(() => {});
    await generation.loops;
  }

  #stderrNote(generation: Generation): string {
    const tail = generation.stderr.trim();
    return tail ? `: stderr: ${tail.slice(-500)}` : "";
  }
}

/** Start a line session; `label` names it in error messages. */
export function startLineSession(spawn: Spawner, label: string): ProcessLineSession {
  return new ProcessLineSession(spawn, label);
}

/** Spawn `argv` on the host in its own process group (killing it kills the group, as Ctrl-C does). */
export function spawnHost(
  argv: string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
): Spawner {
  return () => {
    const child = new Deno.Command(argv[0], {
      args: argv.slice(1),
      cwd: options.cwd,
      env: options.env,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
      detached: true,
    }).spawn();
    // A graceful stop leaves the session alone: the helper may be applying a
    // plan, which must end in commit or rollback; the run closes it after.
    const unregister = onInterrupt(() => Promise.resolve(killHostGroup(child)), { keepOnStop: true });
    child.status.finally(unregister);
    return {
      stdin: child.stdin,
      stdout: child.stdout,
      stderr: child.stderr,
      status: child.status,
      kill: (signal: Deno.Signal = "SIGKILL") => killHostGroup(child, signal),
    };
  };
}

function killHostGroup(child: Deno.ChildProcess, signal: Deno.Signal = "SIGKILL"): void {
  try {
    Deno.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      // already gone
    }
  }
}
