/**
 * The journal: what a plan needs to be undone, kept outside the repository
 * and durable before any file is replaced, so `graphplan rollback` can put
 * every byte back even after the helper was killed mid-write.
 *
 * Layout (one directory per repository, see `state_dir.ts`):
 *
 * ```
 * journal-<hash>/meta.json                {repo, pid, created, version}
 * journal-<hash>/000001.bytes             original bytes of a file
 * journal-<hash>/000001-original.json     {kind, path, mode, existed, sha256}
 * journal-<hash>/000002-write.json        {kind, path, sha256, temp}
 * ```
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
 * restores the original anyway. Files that did not exist before (no
 * operator creates files today, but the journal supports it) are deleted.
 * Leftover temporary files are removed. A plan that succeeded commits the
 * journal: its directory is renamed aside and deleted.
 *
 * @module
 */

import { error, fail, type Issue, IssueError } from "../issue.ts";
import type { Workspace } from "../workspace.ts";
import { VERSION } from "../../version.ts";
import { atomicWrite, syncDirectory, writeFileDurable } from "./atomic_write.ts";
import { sha256Hex } from "../node_builtins.ts";
import { journalDirFor, stateHome } from "./state_dir.ts";

interface OriginalRecord {
  kind: "original";
  path: string;
  mode: number | null;
  existed: boolean;
  sha256: string | null;
  bytes: string | null;
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
    for (let attempt = 0;; attempt++) {
      try {
        Deno.mkdirSync(dir);
        break;
      } catch (err) {
        if (!(err instanceof Deno.errors.AlreadyExists) || attempt > 0) throw err;
        const existing = readJournalDir(dir);
        if (existing.records.some((record) => record.kind === "original")) failPending(workspace);
        assertNotBusy(existing.meta, dir);
        Deno.removeSync(dir, { recursive: true });
      }
    }
    const meta = { repo: workspace.root, pid: Deno.pid, created: new Date().toISOString(), version: VERSION };
    writeJsonDurable(dir, "meta.json", meta);
    syncDirectory(stateHome());
    return new Journal(workspace, dir);
  }

  /** Whether the original of `path` is already journaled. */
  has(path: string): boolean {
    return this.originals.has(path);
  }

  /**
   * Save the current bytes and mode of `path` (at `abs`) as its original,
   * durably, unless already saved in this plan. Must run before the first
   * write of the file.
   */
  recordOriginal(path: string, abs: string): Uint8Array | null {
    if (this.originals.has(path)) return null;
    let bytes: Uint8Array | null = null;
    let mode: number | null = null;
    try {
      mode = Deno.statSync(abs).mode;
      bytes = Deno.readFileSync(abs);
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
    }
    const id = this.next();
    let bytesName: string | null = null;
    if (bytes) {
      bytesName = `${id}.bytes`;
      writeFileDurable(`${this.dir}/${bytesName}`, bytes, 0o600);
    }
    const record: OriginalRecord = {
      kind: "original",
      path,
      mode,
      existed: bytes !== null,
      sha256: bytes ? sha256(bytes) : null,
      bytes: bytesName,
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
  async rollback(options: { force?: boolean } = {}): Promise<RollbackReport> {
    return await replayJournal(this.workspace, this.dir, options);
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
  if (hasPendingJournal(workspace)) failPending(workspace);
}

function failPending(workspace: Workspace): never {
  fail("journal-pending", `An earlier plan on "${workspace.root}" did not finish: its journal is pending`, {
    hint: `run "graphplan rollback --repo ${workspace.root}" to restore its files, then retry`,
  });
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
export async function rollbackRepository(
  workspace: Workspace,
  options: { force?: boolean } = {},
): Promise<RollbackReport> {
  const dir = journalDirFor(workspace.root);
  sweepCommitted(dir);
  try {
    Deno.statSync(dir);
  } catch {
    return { success: true, nothing_to_do: true, restored: [], errors: [], warnings: [] };
  }
  const { meta } = readJournalDir(dir);
  if (!options.force) assertNotBusy(meta, dir);
  return await replayJournal(workspace, dir, options);
}

async function replayJournal(
  workspace: Workspace,
  dir: string,
  options: { force?: boolean },
): Promise<RollbackReport> {
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
      if (/\/\.[^/]+\.graphplan-\d+-\d+\.tmp$/.test(temp)) Deno.removeSync(temp);
    } catch { /* never created, or already renamed */ }
  }
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
      const current = readOrNull(abs);
      const currentSha = current ? sha256(current) : null;
      if (currentSha === record.sha256) {
        if (
          original && record.mode !== null &&
          ((Deno.statSync(abs).mode ?? 0) & 0o7777) !== (record.mode & 0o7777)
        ) {
          Deno.chmodSync(abs, record.mode & 0o7777);
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
      if (original) await atomicWrite(abs, original, { mode: record.mode });
      else if (current) Deno.removeSync(abs);
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

function readOrNull(abs: string): Uint8Array | null {
  try {
    return Deno.readFileSync(abs);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return null;
    throw err;
  }
}

interface JournalMeta {
  repo?: string;
  pid?: number;
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

function assertNotBusy(meta: JournalMeta | null, dir: string): void {
  const pid = meta?.pid;
  if (typeof pid === "number" && pid !== Deno.pid && processAlive(pid)) {
    fail("journal-busy", `Another GraphPlan process (pid ${pid}) is editing this repository`, {
      hint: `wait for it to finish; its journal is "${dir}"`,
    });
  }
}

/** Whether process `pid` runs (Linux /proc; elsewhere every journal counts as stale). */
function processAlive(pid: number): boolean {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    // A zombie (killed, not yet reaped) is not alive.
    return !/^\d+ \(.*\) Z /.test(stat);
  } catch {
    return false;
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

/** Remove journals of `dir` that were committed but not yet deleted (a crash during commit). */
function sweepCommitted(dir: string): void {
  const parent = dir.slice(0, dir.lastIndexOf("/"));
  const prefix = dir.slice(dir.lastIndexOf("/") + 1) + ".done-";
  try {
    for (const entry of Deno.readDirSync(parent)) {
      if (entry.name.startsWith(prefix)) Deno.removeSync(`${parent}/${entry.name}`, { recursive: true });
    }
  } catch { /* no state directory yet */ }
}
