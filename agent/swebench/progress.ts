/**
 * What a batch tells its user while it runs. The runner emits
 * {@linkcode BatchEvent}s; two views show them:
 *
 * - {@linkcode LineProgress}: one plain line per event (not per model step),
 *   for logs, CI and anything that is not a terminal;
 * - {@linkcode LiveProgress}: at a terminal, a block redrawn in place by the
 *   `log-update` package: done/total, the running instances with their
 *   phase, step and cost, total cost, elapsed time, ETA and the exit-status
 *   counts; each finished instance leaves one line above the block.
 *
 * @module
 */

import process from "node:process";
import { createLogUpdate } from "log-update";
import { basename } from "../../engine/base/node_builtins.ts";

/** Something that happened in a batch. */
export type BatchEvent =
  | { type: "start"; total: number; skipped: number; todo: number; workers: number; costLimit: number }
  | { type: "sweep"; removed: string[] }
  | { type: "instance-start"; id: string }
  | { type: "phase"; id: string; phase: string }
  | { type: "step"; id: string; phase: string; step: number; cost: number }
  | {
    type: "instance-end";
    id: string;
    status: string;
    cost: number;
    steps: number;
    seconds: number;
    /** Why it ended without a patch (a container that did not start, an internal error), in full. */
    error?: string;
  }
  /** Something the user should know once (the container runtime's `run -i` did not work), said by instance `id`. */
  | { type: "warning"; id: string; message: string }
  | { type: "cost-cap"; spent: number; committed: number; cap: number; left: number }
  /** `count` instances in a row could not start their container with the same error: none starts after. */
  | { type: "setup-stop"; count: number; error: string; left: number }
  | { type: "interrupt"; signal: string; running: number }
  /** A damaged output file was kept aside as `keptAs` and `rebuilt` entries were recovered from trajectories. */
  | { type: "recovered"; file: string; keptAs: string; problem: string; rebuilt: number; what: string }
  /** An output could not be written (`error` names the path): no new instance starts. */
  | { type: "write-stop"; error: string; diskFull: boolean; left: number }
  | {
    type: "end";
    done: number;
    cost: number;
    statuses: Record<string, number>;
    seconds: number;
    /** Where the outputs are (absolute) and the predictions file in it. */
    outDir?: string;
    preds?: string;
    /** Instances of this run that did not end with a prediction (a rerun runs them). */
    left?: number;
    interrupted?: boolean;
  };

/** A view of batch events. */
export interface BatchProgress {
  event(event: BatchEvent): void;
  /** Stop drawing (the last state stays on screen). */
  close(): void;
}

/** `$1.2345`. */
function money(value: number): string {
  return `$${value.toFixed(4)}`;
}

/** `1h02m`, `3m05s`, `12s`. */
export function duration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s >= 3600) return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
  if (s >= 60) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
  return `${s}s`;
}

function counts(statuses: Record<string, number>): string {
  const entries = Object.entries(statuses).sort(([a], [b]) => a.localeCompare(b));
  return entries.length === 0 ? "none" : entries.map(([status, n]) => `${status} ${n}`).join(", ");
}

/**
 * An error on one line: its first line and, for a long tool output (podman's
 * retries, a stack), its last, which is where the cause usually is; the
 * whole text is in batch.json and the trajectory.
 */
export function errorGist(error: string, width = 320): string {
  const lines = error.split("\n").map((line) => line.trim()).filter(Boolean);
  const gist = lines.length > 1 ? `${lines[0]} ... ${lines.at(-1)}` : lines[0] ?? "";
  return gist.length > width ? `${gist.slice(0, width - 3)}...` : gist;
}

/** The line an event prints, or null for events too frequent for a log (model steps). */
export function eventLine(event: BatchEvent): string | null {
  switch (event.type) {
    case "start":
      return `batch: ${event.total} selected, ${event.skipped} already in preds, ${event.todo} to run with ` +
        `${event.workers} worker${event.workers === 1 ? "" : "s"}` +
        (event.costLimit > 0 ? `, cost limit ${money(event.costLimit)}` : "");
    case "sweep":
      return event.removed.length === 0
        ? null
        : `batch: removed ${event.removed.length} container(s) left by an earlier run: ${
          event.removed.join(", ")
        }`;
    case "instance-start":
      return `batch: ${event.id}: started`;
    case "phase":
      return `batch: ${event.id}: ${event.phase}`;
    case "step":
      return null;
    case "instance-end":
      return `batch: ${event.id}: ${event.status}, ${money(event.cost)}, ${event.steps} steps, ` +
        `${event.seconds.toFixed(1)} s` + (event.error ? `: ${errorGist(event.error)}` : "");
    case "warning":
      return `batch: warning: ${event.id}: ${event.message}`;
    case "cost-cap":
      return `batch: cost limit: ${money(event.spent)} spent, ${money(event.committed)} committed of ` +
        `${money(event.cap)}; ${event.left} instance(s) not started`;
    case "setup-stop":
      return `batch: ${event.count} instances in a row could not start their container: ${event.error}; ` +
        `check --image/--env, then run the same command again (${event.left} instance(s) not started)`;
    case "recovered":
      return `batch: "${event.file}" was damaged (${event.problem}): kept it as "${event.keptAs}" and ` +
        `rebuilt ${event.rebuilt} ${event.what}(s) from the instances' trajectories; the rest run again ` +
        `(compare with the kept file, then delete it)`;
    case "write-stop":
      return `batch: ${event.error}; ${event.diskFull ? "free some space" : "make it writable"}, then run ` +
        `the same command again (${event.left} instance(s) not started)`;
    case "interrupt":
      return `batch: ${event.signal}: stopping ${event.running} running instance(s) and removing their ` +
        `containers (again to exit at once)`;
    case "end":
      return [
        `batch: ${event.interrupted ? "stopped" : "finished"}: ${event.done} instance(s) ended, ${
          money(event.cost)
        }, ${duration(event.seconds)}; exit statuses: ${counts(event.statuses)}`,
        ...endHints(event),
      ].join("\n");
  }
}

/** After the end: where the outputs are, what to run next, how to run what is left. */
function endHints(event: Extract<BatchEvent, { type: "end" }>): string[] {
  if (!event.outDir) return [];
  const preds = event.preds ? basename(event.preds) : "preds.json";
  const lines = [
    `batch: outputs in ${event.outDir}: ${preds} (for the SWE-bench harness), batch.json, ` +
    `exit_statuses.yaml, ID/ID.traj.json`,
    `batch: see them: graphplan inspect ${event.outDir}`,
  ];
  if (event.left) {
    lines.push(
      `batch: ${event.left} instance(s) have no prediction yet: run the same command again to run them` +
        (event.statuses.BatchCostLimit ? " (with a higher --cost-limit)" : ""),
    );
  }
  return lines;
}

/**
 * Whether the live view can draw: on a terminal with a size (a
 * pseudo-terminal without one cannot hold the block) whose `TERM` can move
 * the cursor (not `dumb`, e.g. an editor's shell buffer, which would show
 * the escapes as text).
 */
export function liveViewFits(stream: { terminal: boolean; rows: number; term?: string }): boolean {
  return stream.terminal && stream.rows > 0 && stream.term !== "dumb";
}

/** One line per event on `write` (default: stderr). */
export class LineProgress implements BatchProgress {
  readonly #write: (line: string) => void;

  constructor(write: (line: string) => void = (line) => console.error(line)) {
    this.#write = write;
  }

  event(event: BatchEvent): void {
    const line = eventLine(event);
    if (line !== null) this.#write(line);
  }

  close(): void {}
}

interface Running {
  phase: string;
  step: number;
  cost: number;
  started: number;
}

/** The live view at a terminal (stderr), redrawn on each event and every second. */
export class LiveProgress implements BatchProgress {
  readonly #update: ReturnType<typeof createLogUpdate>;
  readonly #stream: { write(text: string): unknown };
  readonly #running = new Map<string, Running>();
  readonly #statuses: Record<string, number> = {};
  readonly #started: number;
  readonly #timer: ReturnType<typeof setInterval>;
  readonly #now: () => number;
  #total = 0;
  #todo = 0;
  #ended = 0;
  #cost = 0;
  #costLimit = 0;
  #note = "";
  #closed = false;

  constructor(options: { stream?: NodeJS.WritableStream; now?: () => number } = {}) {
    const stream = options.stream ?? process.stderr;
    this.#stream = stream as unknown as { write(text: string): unknown };
    this.#update = createLogUpdate(stream, { showCursor: true });
    this.#now = options.now ?? (() => performance.now());
    this.#started = this.#now();
    this.#timer = setInterval(() => this.#render(), 1000);
    Deno.unrefTimer(Number(this.#timer));
  }

  event(event: BatchEvent): void {
    if (this.#closed) return;
    switch (event.type) {
      case "start":
        this.#total = event.total;
        this.#todo = event.todo;
        this.#costLimit = event.costLimit;
        break;
      case "instance-start":
        this.#running.set(event.id, { phase: "setup", step: 0, cost: 0, started: this.#now() });
        break;
      case "phase": {
        const running = this.#running.get(event.id);
        if (running) running.phase = event.phase;
        break;
      }
      case "step": {
        const running = this.#running.get(event.id);
        if (running) Object.assign(running, { phase: event.phase, step: event.step, cost: event.cost });
        break;
      }
      case "instance-end":
        this.#running.delete(event.id);
        this.#ended += 1;
        this.#cost += event.cost;
        this.#statuses[event.status] = (this.#statuses[event.status] ?? 0) + 1;
        this.#persist(eventLine(event)!);
        break;
      case "setup-stop":
      case "warning":
      case "recovered":
      case "write-stop":
        this.#persist(eventLine(event)!);
        break;
      case "cost-cap":
      case "interrupt":
      case "sweep": {
        const line = eventLine(event);
        if (line) this.#note = line.replace(/^batch: /, "");
        break;
      }
      case "end":
        this.#render();
        this.close();
        this.#stream.write(eventLine(event) + "\n");
        return;
    }
    this.#render();
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#timer);
    this.#update.done();
  }

  /** Print `line` above the live block, where it stays. */
  #persist(line: string): void {
    this.#update.clear();
    this.#stream.write(line + "\n");
  }

  /** The text of the live block. */
  view(): string {
    const elapsed = (this.#now() - this.#started) / 1000;
    const left = this.#todo - this.#ended;
    const eta = this.#ended > 0 && left > 0 ? duration((elapsed / this.#ended) * left) : "-";
    let spent = this.#cost;
    for (const running of this.#running.values()) spent += running.cost;
    const done = this.#total - this.#todo + this.#ended;
    const lines = [
      `GraphPlan batch  ${done}/${this.#total} done  running ${this.#running.size}  ` +
      `cost ${money(spent)}${this.#costLimit > 0 ? ` of ${money(this.#costLimit)}` : ""}  ` +
      `elapsed ${duration(elapsed)}  ETA ${eta}`,
    ];
    const width = Math.max(8, ...[...this.#running.keys()].map((id) => id.length));
    for (const [id, running] of this.#running) {
      lines.push(
        `  ${id.padEnd(width)}  ${running.phase.padEnd(8)}  step ${String(running.step).padStart(3)}  ` +
          `${money(running.cost)}  ${duration((this.#now() - running.started) / 1000)}`,
      );
    }
    lines.push(`  exit statuses: ${counts(this.#statuses)}`);
    if (this.#note) lines.push(`  ${this.#note}`);
    return lines.join("\n");
  }

  #render(): void {
    if (!this.#closed) this.#update(this.view());
  }
}
