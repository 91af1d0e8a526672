/**
 * The journal: what a plan needs to be undone, kept outside the repository
 * and durable before any file is replaced, so `graphplan rollback` can put
 * every byte back even after the helper was killed mid-write.
 *
 * Layout (one directory per repository, see `state_dir.ts`):
 *
 * ```
 * journal-<hash>/meta.json                {repo, pid, pid_start, created, version}
 * journal-<hash>/000001.bytes             original bytes of a file
 * journal-<hash>/000001-original.json     {kind, path, mode, existed, sha256}
 * journal-<hash>/000002-write.json        {kind, path, sha256, temp}
 * ```
 *
 * The directory is also the lock of the repository: it is prepared aside
 * and renamed into place whole, so it never exists without the pid of its
 * owner. A journal whose owner still runs (same pid, same start time) is
 * `journal-busy`: another plan is running, and neither a new plan nor a
 * rollback (forced or not) touches its files.
 *
 * Order of a write: the original's bytes, then its record (both fsync'd, the
 * record renamed into place so it is never half-written), then a `write`
 * record naming the hash of the new bytes and the temporary file, then the
 * atomic replacement of the file. A record is the commit point of its step:
 * bytes without a record are ignored, and a file is only ever touched after
 * its original is on disk.
 *
 * Rollback restores each file whose current bytes are its original or one of
 * the versions GraphPlan wrote. A file whose bytes are neither was changed
 * by someone else after GraphPlan wrote it: it is left alone and reported as
 * a `rollback-conflict` (the journal is kept) unless `force` is given, which
 * restores the original anyway. Files that did not exist before
 * (`create_file`, `rename_file`) are deleted, with the directories made for
 * them while empty; deleted files are written back with their mode.
 * Leftover temporary files are removed. A plan that succeeded commits the
 * journal: its directory is renamed aside and deleted.
 *
 * @module
 */

import { error, fail, type Issue, IssueError } from "../base/issue.ts";
import type { Workspace } from "../workspace.ts";
import { VERSION } from "../../version.ts";
import { atomicWrite, syncDirectory, writeFileDurable } from "./atomic_write.ts";
import {
  type ConfinedFile,
  entryExists,
  readConfined,
  removeConfined,
  splitPath,
  sweepConfined,
} from "./confined.ts";
import { sha256Hex } from "../base/node_builtins.ts";
import { journalDirFor, stateHome } from "./state_dir.ts";

interface OriginalRecord {
  kind: "original";
  path: string;
  mode: number | null;
  /** Owner and group (absent in journals of older versions). */
  uid?: number | null;
  gid?: number | null;
  existed: boolean;
  sha256: string | null;
  bytes: string | null;
  /** Directories made for a file that did not exist (absolute, outermost first): removed again when empty. */
  created_dirs?: string[];
}

interface WriteRecord {
  kind: "write";
  path: string;
  sha256: string | null;
  temp: string | null;
}

type JournalRecord = OriginalRecord | WriteRecord;

/** What a rollback did. */
export interface RollbackReport {
  success: boolean;
  /** True when there was no journal (nothing to undo). */
  nothing_to_do: boolean;
  /** Files put back to their original bytes (or deleted, if they were created). */
  restored: string[];
  errors: Issue[];
  warnings: Issue[];
}

/** SHA-256 of `bytes`, hex. */
export function sha256(bytes: Uint8Array): string {
  return sha256Hex(bytes);
}

/** The journal of one running plan. */
export class Journal {
  readonly workspace: Workspace;
  /** The journal directory. */
  readonly dir: string;
  private seq = 0;
  private readonly originals = new Set<string>();

  private constructor(workspace: Workspace, dir: string) {
    this.workspace = workspace;
    this.dir = dir;
  }

  /**
   * Start the journal of a new plan. Refuses when a journal with recorded
   * files is pending (a crashed or unfinished plan): that one must be rolled
   * back first, never silently dropped.
   */
  static begin(workspace: Workspace): Journal {
    const dir = journalDirFor(workspace.root);
    try {
      return Journal.create(workspace, dir);
    } catch (err) {
      if (err instanceof IssueError) throw err;
      fail("journal-unavailable", `Cannot create the journal "${dir}": ${(err as Error).message}`, {
        hint: "set XDG_STATE_HOME to a writable directory outside the repository",
      });
    }
  }

  private static create(workspace: Workspace, dir: string): Journal {
    Deno.mkdirSync(stateHome(), { recursive: true });
    sweepCommitted(dir);
    // The journal directory is the lock: it appears whole, with its owner's
    // pid in meta.json, through one rename of a prepared directory (rename
    // onto a non-empty directory fails), so a second plan never sees a
    // journal without its owner.
    const fresh = `${dir}.new-${Deno.pid}-${Date.now()}`;
    Deno.mkdirSync(fresh);
    try {
      const meta: JournalMeta = {
        repo: workspace.root,
        pid: Deno.pid,
        pid_start: processStart(Deno.pid),
        created: new Date().toISOString(),
        version: VERSION,
      };
      writeJsonDurable(fresh, "meta.json", meta);
      for (let attempt = 0;; attempt++) {
        try {
          Deno.renameSync(fresh, dir);
          break;
        } catch (err) {
          if (!entryExists(dir)) throw err;
          const existing = readJournalDir(dir);
          assertNotBusy(existing.meta, dir);
          if (existing.records.some((record) => record.kind === "original")) failPending(workspace);
          if (attempt > 0) throw err;
          // An empty journal of a process that died before its first write.
          discardJournalDir(dir);
        }
      }
    } catch (err) {
      try {
        Deno.removeSync(fresh, { recursive: true });
      } catch { /* renamed into place, or never made */ }
      throw err;
    }
    syncDirectory(stateHome());
    return new Journal(workspace, dir);
  }

  /** Whether the original of `path` is already journaled. */
  has(path: string): boolean {
    return this.originals.has(path);
  }

  /**
   * Save the current bytes, mode and owner of `path` (at `abs`, or as the
   * caller just read them: `current`) as its original, durably, unless
   * already saved in this plan. Must run before the first write of the file.
   */
  recordOriginal(
    path: string,
    abs: string,
    current?: ConfinedFile | null,
    options: { createdDirs?: string[] } = {},
  ): Uint8Array | null {
    if (this.originals.has(path)) return null;
    const file = current === undefined ? readConfined(abs) : current;
    const bytes = file?.bytes ?? null;
    const id = this.next();
    let bytesName: string | null = null;
    if (bytes) {
      bytesName = `${id}.bytes`;
      writeFileDurable(`${this.dir}/${bytesName}`, bytes, 0o600);
    }
    const record: OriginalRecord = {
      kind: "original",
      path,
      mode: file?.mode ?? null,
      uid: file?.uid ?? null,
      gid: file?.gid ?? null,
      existed: bytes !== null,
      sha256: bytes ? sha256(bytes) : null,
      bytes: bytesName,
      ...(options.createdDirs?.length ? { created_dirs: options.createdDirs } : {}),
    };
    writeJsonDurable(this.dir, `${id}-original.json`, record);
    this.originals.add(path);
    return bytes;
  }

  /** Record that `path` is about to become `bytes` (through temporary file `temp`). */
  recordWrite(path: string, bytes: Uint8Array | null, temp: string | null): void {
    const record: WriteRecord = { kind: "write", path, sha256: bytes ? sha256(bytes) : null, temp };
    writeJsonDurable(this.dir, `${this.next()}-write.json`, record);
  }

  /** The plan succeeded: drop the journal. */
  commit(): void {
    discardJournalDir(this.dir);
  }

  /** Undo every journaled change (see the module notes); clears the journal unless a conflict remains. */
  rollback(options: { force?: boolean } = {}): Promise<RollbackReport> {
    return settled(() => replayJournal(this.workspace, this.dir, options));
  }

  private next(): string {
    this.seq++;
    return String(this.seq).padStart(6, "0");
  }
}

/**
 * Fail early, before a plan is even parsed, when `Journal.begin` would: the
 * state directory is inside the repository or cannot be created, or a
 * journal is pending.
 */
export function checkJournal(workspace: Workspace): void {
  const dir = journalDirFor(workspace.root);
  try {
    Deno.mkdirSync(stateHome(), { recursive: true });
  } catch (err) {
    fail("journal-unavailable", `Cannot create the journal "${dir}": ${(err as Error).message}`, {
      hint: "set XDG_STATE_HOME to a writable directory outside the repository",
    });
  }
  if (!entryExists(dir)) return;
  assertNotBusy(readJournalDir(dir).meta, dir);
  if (hasPendingJournal(workspace)) failPending(workspace);
}

function failPending(workspace: Workspace): never {
  fail("journal-pending", `An earlier plan on "${workspace.root}" did not finish: its journal is pending`, {
    hint: `run "graphplan rollback --repo ${workspace.root}" to restore its files, then retry`,
  });
}

/** The pid of the GraphPlan process applying a plan on `workspace` right now, or null. */
export function runningPlanPid(workspace: Workspace): number | null {
  try {
    return liveOwner(readJournalDir(journalDirFor(workspace.root)).meta);
  } catch {
    return null;
  }
}

/** Whether a journal is pending for `workspace` (a plan that did not finish). */
export function hasPendingJournal(workspace: Workspace): boolean {
  try {
    return readJournalDir(journalDirFor(workspace.root)).records.some((record) => record.kind === "original");
  } catch {
    return false;
  }
}

/**
 * `graphplan rollback`: restore the files of the repository's pending
 * journal, if any. With no journal the report says `nothing_to_do`.
 */
export function rollbackRepository(
  workspace: Workspace,
  options: { force?: boolean } = {},
): Promise<RollbackReport> {
  return settled(() => rollbackNow(workspace, options));
}

/** `fn`'s result as a promise, its throw as a rejection. */
function settled<T>(fn: () => T): Promise<T> {
  try {
    return Promise.resolve(fn());
  } catch (err) {
    return Promise.reject(err);
  }
}

function rollbackNow(workspace: Workspace, options: { force?: boolean }): RollbackReport {
  const dir = journalDirFor(workspace.root);
  sweepCommitted(dir);
  try {
    Deno.statSync(dir);
  } catch {
    return { success: true, nothing_to_do: true, restored: [], errors: [], warnings: [] };
  }
  // Even with --force: restoring under a running plan would clobber its writes.
  assertNotBusy(readJournalDir(dir).meta, dir);
  return replayJournal(workspace, dir, options);
}

function replayJournal(workspace: Workspace, dir: string, options: { force?: boolean }): RollbackReport {
  const { records } = readJournalDir(dir);
  const errors: Issue[] = [];
  const restored: string[] = [];
  const originals = new Map<string, OriginalRecord>();
  const written = new Map<string, Set<string | null>>();
  const temps: string[] = [];
  for (const record of records) {
    if (record.kind === "original") {
      if (!originals.has(record.path)) originals.set(record.path, record);
    } else {
      if (!written.has(record.path)) written.set(record.path, new Set());
      written.get(record.path)!.add(record.sha256);
      if (record.temp) temps.push(record.temp);
    }
  }
  for (const temp of temps) {
    try {
      // Only GraphPlan's own temporary names are ever removed.
      if (/\/\.[^/]+\.graphplan-\d+-\d+\.tmp$/.test(temp)) removeConfined(temp);
    } catch { /* never created, already renamed, or its directory is gone */ }
  }
  removeStaleTemps(workspace, [...originals.keys()]);
  for (const [path, record] of originals) {
    try {
      const original = record.bytes ? Deno.readFileSync(`${dir}/${record.bytes}`) : null;
      if (original && sha256(original) !== record.sha256) {
        errors.push(
          error("journal-corrupt", `The journal's copy of "${path}" is damaged: not restored`, {
            file: path,
          }),
        );
        continue;
      }
      const { abs } = workspace.resolve(path);
      // A file the plan was about to create in a directory not made yet: nothing there to read.
      const now = record.existed || entryExists(splitPath(abs).dir) ? readConfined(abs) : null;
      const current = now?.bytes ?? null;
      const currentSha = current ? sha256(current) : null;
      if (currentSha === record.sha256) {
        if (!original) removeEmptyDirs(record.created_dirs ?? []);
        if (original && record.mode !== null && ((now?.mode ?? 0) & 0o7777) !== (record.mode & 0o7777)) {
          // The mode is put back by replacing the file (no chmod by name: see confined.ts).
          atomicWrite(abs, original, {
            mode: record.mode,
            owner: { uid: record.uid ?? null, gid: record.gid ?? null },
          });
        }
        continue;
      }
      const ours = written.get(path)?.has(currentSha) ?? false;
      if (!ours && !options.force) {
        errors.push(
          error(
            "rollback-conflict",
            `File "${path}" changed on disk after GraphPlan wrote it: not restored`,
            {
              file: path,
              hint: "inspect the file, then run rollback again with --force to restore the original anyway",
            },
          ),
        );
        continue;
      }
      if (original) {
        atomicWrite(abs, original, {
          mode: record.mode,
          owner: { uid: record.uid ?? null, gid: record.gid ?? null },
        });
      } else {
        if (current) removeConfined(abs);
        removeEmptyDirs(record.created_dirs ?? []);
      }
      restored.push(path);
    } catch (err) {
      const issues = err instanceof IssueError ? err.issues : [
        error("rollback-failed", `Cannot restore "${path}": ${(err as Error).message}`, { file: path }),
      ];
      for (const item of issues.map((issue) => ({ ...issue, file: issue.file ?? path }))) errors.push(item);
    }
  }
  if (errors.length === 0) discardJournalDir(dir);
  return {
    success: errors.length === 0,
    nothing_to_do: originals.size === 0,
    restored,
    errors,
    warnings: [],
  };
}

/**
 * Remove the directories a plan made for a new file, innermost first, each
 * only while it is empty (another file put there since keeps it).
 */
function removeEmptyDirs(dirs: readonly string[]): void {
  for (const dir of [...dirs].reverse()) {
    try {
      Deno.removeSync(dir);
    } catch {
      return; // not empty, or already gone
    }
  }
}

/**
 * Remove temporary files that GraphPlan processes which are no longer
 * running left beside the journaled files (a kill during a rollback's own
 * atomic write leaves one that no journal record names).
 */
function removeStaleTemps(workspace: Workspace, paths: readonly string[]): void {
  const dirs = new Map<string, Set<string>>();
  for (const path of paths) {
    let abs: string;
    try {
      abs = workspace.resolve(path).abs;
    } catch {
      continue;
    }
    const { dir, base } = splitPath(abs);
    if (!dirs.has(dir)) dirs.set(dir, new Set());
    dirs.get(dir)!.add(base);
  }
  for (const [dir, bases] of dirs) {
    try {
      sweepConfined(dir, (entry) => {
        const match = /^\.(.+)\.graphplan-(\d+)-\d+\.tmp$/.exec(entry.name);
        if (!match || !entry.isFile || !bases.has(match[1])) return false;
        const pid = Number(match[2]);
        return pid !== Deno.pid && !processAlive(pid);
      });
    } catch { /* the directory is gone or changed: nothing of ours to remove there */ }
  }
}

interface JournalMeta {
  repo?: string;
  pid?: number;
  /** The owner's start time (clock ticks since boot), so a reused pid is not taken for it. */
  pid_start?: number | null;
  created?: string;
  version?: string;
}

function readJournalDir(dir: string): { meta: JournalMeta | null; records: JournalRecord[] } {
  let meta: JournalMeta | null = null;
  try {
    meta = JSON.parse(Deno.readTextFileSync(`${dir}/meta.json`));
  } catch { /* crashed before meta was written */ }
  const names: string[] = [];
  try {
    for (const entry of Deno.readDirSync(dir)) {
      if (/^\d{6}-(original|write)\.json$/.test(entry.name)) names.push(entry.name);
    }
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return { meta: null, records: [] };
    throw err;
  }
  names.sort();
  const records = names.map((name) => {
    try {
      return JSON.parse(Deno.readTextFileSync(`${dir}/${name}`)) as JournalRecord;
    } catch (err) {
      throw new IssueError(
        error("journal-corrupt", `Cannot read journal record "${dir}/${name}": ${(err as Error).message}`),
      );
    }
  });
  return { meta, records };
}

/** The pid of a journal's owner when it is another process that still runs (same start time), else null. */
function liveOwner(meta: JournalMeta | null): number | null {
  const pid = meta?.pid;
  if (typeof pid !== "number" || pid === Deno.pid || !processAlive(pid)) return null;
  const start = processStart(pid);
  if (typeof meta?.pid_start === "number" && start !== null && start !== meta.pid_start) return null;
  return pid;
}

function assertNotBusy(meta: JournalMeta | null, dir: string): void {
  const pid = liveOwner(meta);
  if (pid === null) return;
  fail(
    "journal-busy",
    `Another plan is running on this repository: GraphPlan process ${pid} is applying it`,
    {
      hint: `wait for process ${pid} to finish (its journal is "${dir}"); do not roll back under it`,
    },
  );
}

/** Whether process `pid` runs (Linux /proc; elsewhere every journal counts as stale). */
function processAlive(pid: number): boolean {
  const stat = procStat(pid);
  // A zombie (killed, not yet reaped) is not alive.
  return stat !== null && stat[0] !== "Z";
}

/** Process `pid`'s start time in clock ticks since boot (field 22 of /proc/PID/stat), or null. */
function processStart(pid: number): number | null {
  const value = Number(procStat(pid)?.[19]);
  return Number.isFinite(value) ? value : null;
}

/** The fields of /proc/PID/stat after the command name (state first), or null. */
function procStat(pid: number): string[] | null {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return null;
  }
}

function writeJsonDurable(dir: string, name: string, value: unknown): void {
  const temp = `${dir}/.${name}.tmp`;
  try {
    Deno.removeSync(temp);
  } catch { /* none */ }
  writeFileDurable(temp, new TextEncoder().encode(JSON.stringify(value, null, 2) + "\n"), 0o600);
  Deno.renameSync(temp, `${dir}/${name}`);
  syncDirectory(dir);
}

function discardJournalDir(dir: string): void {
  const aside = `${dir}.done-${Deno.pid}-${Date.now()}`;
  try {
    Deno.renameSync(dir, aside);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return;
    throw err;
  }
  syncDirectory(dir.slice(0, dir.lastIndexOf("/")));
  Deno.removeSync(aside, { recursive: true });
}

/**
 * Remove journals of `dir` that were committed but not yet deleted (a crash
 * during commit), and journals a dead process was preparing.
 */
function sweepCommitted(dir: string): void {
  const parent = dir.slice(0, dir.lastIndexOf("/"));
  const prefix = dir.slice(dir.lastIndexOf("/") + 1) + ".done-";
  try {
    for (const entry of Deno.readDirSync(parent)) {
      const fresh = new RegExp(`^${dir.slice(dir.lastIndexOf("/") + 1)}\\.new-(\\d+)-`).exec(entry.name);
      if (entry.name.startsWith(prefix) || (fresh && !processAlive(Number(fresh[1])))) {
        Deno.removeSync(`${parent}/${entry.name}`, { recursive: true });
      }
    }
  } catch { /* no state directory yet */ }
}
