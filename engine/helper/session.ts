/**
 * A helper session: one repository, one `DocumentStore` for the session's
 * lifetime, so parsed trees survive between requests (re-parsed
 * incrementally after the helper's own edits, re-read when a file's bytes
 * change on disk).
 *
 * @module
 */

import { DocumentStore } from "../parse/documents.ts";
import { Workspace } from "../workspace.ts";
import type { PostCheck } from "../verify/post_checks.ts";
import { parsePlanSteps, type PlanParser } from "../exec/wiring.ts";
import { Compilers } from "../verify/compile/mod.ts";

/** Options of a session (tests inject their own plan parser and operator dispatch). */
export interface SessionOptions {
  parsePlan?: PlanParser;
  checks?: PostCheck[];
  /** The interpreters plans are compiled with; default: those on PATH, started on first need. */
  compilers?: Compilers;
}

/** The state a helper keeps between requests. */
export class Session {
  readonly workspace: Workspace;
  readonly store: DocumentStore;
  readonly parsePlan: PlanParser;
  readonly checks?: PostCheck[];
  /** One CPython and one Node process at most, for the session's lifetime. */
  readonly compilers: Compilers;

  constructor(workspace: Workspace, options: SessionOptions = {}) {
    this.workspace = workspace;
    this.store = new DocumentStore(workspace);
    this.parsePlan = options.parsePlan ?? parsePlanSteps;
    this.checks = options.checks;
    this.compilers = options.compilers ?? new Compilers();
  }

  /** Stop the session's interpreters. */
  async close(): Promise<void> {
    await this.compilers.close();
  }

  /** Open a session on the repository at `dir`. */
  static open(dir: string, options: SessionOptions = {}): Session {
    return new Session(Workspace.open(dir), options);
  }
}
