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
import type { PostCheck } from "../exec/checks.ts";
import { parsePlanSteps, type PlanParser } from "../exec/wiring.ts";

/** Options of a session (tests inject their own plan parser and operator dispatch). */
export interface SessionOptions {
  parsePlan?: PlanParser;
  checks?: PostCheck[];
}

/** The state a helper keeps between requests. */
export class Session {
  readonly workspace: Workspace;
  readonly store: DocumentStore;
  readonly parsePlan: PlanParser;
  readonly checks?: PostCheck[];

  constructor(workspace: Workspace, options: SessionOptions = {}) {
    this.workspace = workspace;
    this.store = new DocumentStore(workspace);
    this.parsePlan = options.parsePlan ?? parsePlanSteps;
    this.checks = options.checks;
  }

  /** Open a session on the repository at `dir`. */
  static open(dir: string, options: SessionOptions = {}): Session {
    return new Session(Workspace.open(dir), options);
  }
}
