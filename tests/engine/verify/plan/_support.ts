/**
 * Helpers for the plan-verification tests: a temporary repository holding
 * corpus files (and small companions), `verifyPlan` over it, and a check
 * that verification left every byte on disk as it was.
 *
 * @module
 */

import assert from "node:assert/strict";
import type { Issue } from "../../../../engine/base/issue.ts";
import { DocumentStore } from "../../../../engine/parse/documents.ts";
import { Workspace } from "../../../../engine/workspace.ts";
import { type VerifyOptions, verifyPlan, type VerifyResult } from "../../../../engine/verify/mod.ts";
import { CORPUS_SKIP, loadCorpus } from "../../../_support/corpus.ts";
import { tempRepo } from "../../../_support/plans.ts";

export { CORPUS_SKIP };

/** The corpus file most tests edit: requests' auth module (195 lines, classes, strings, comments). */
export const AUTH = "requests/auth.py";

/** A module that imports from `AUTH` (for layer 6 and L5). */
export const ADAPTER = `from .auth import _basic_auth_str, HTTPDigestAuth


def proxy_headers(username, password):
    return {"Proxy-Authorization": _basic_auth_str(username, password)}
`;

/** The `before` text of a corpus file. */
export async function corpusText(instance: string, path: string): Promise<string> {
  const found = (await loadCorpus()).find((i) => i.instance_id === instance)?.files.find((f) =>
    f.path === path
  );
  if (!found) throw new Error(`corpus file ${instance}:${path} not found`);
  return found.before;
}

/** A temporary repository with requests' `auth.py` and `extra` files. */
export async function authRepo(extra: Record<string, string> = {}): Promise<string> {
  return await repoWith({ [AUTH]: await corpusText("psf__requests-1766", AUTH), ...extra });
}

/** A temporary repository holding `files`. */
export const repoWith: (files: Record<string, string>) => Promise<string> = tempRepo;

/** SHA-256 of every file under `dir`, by relative path. */
export async function hashTree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (rel: string) => {
    for await (const entry of Deno.readDir(rel ? `${dir}/${rel}` : dir)) {
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory) await walk(path);
      else {
        const digest = await crypto.subtle.digest("SHA-256", await Deno.readFile(`${dir}/${path}`));
        out[path] = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
      }
    }
  };
  await walk("");
  return out;
}

/** Verify `plan` in `dir`, asserting that no file on disk changed. */
export async function verifyIn(dir: string, plan: unknown, options?: VerifyOptions): Promise<VerifyResult> {
  const before = await hashTree(dir);
  const result = await verifyPlan(new DocumentStore(Workspace.open(dir)), plan, options);
  assert.deepEqual(await hashTree(dir), before, "verification changed files on disk");
  return result;
}

/** Every issue of a result. */
export function all(result: VerifyResult): Issue[] {
  return [...result.errors, ...result.warnings];
}

/** The issues of a layer ("0".."6") or level ("L0".."L6"). */
export function tagged(result: VerifyResult, tag: string): Issue[] {
  return all(result).filter((issue) => (tag.startsWith("L") ? issue.level === tag : issue.layer === tag));
}

/** `code@step` of every issue, for compact assertions. */
export function codes(issues: Issue[]): string[] {
  return issues.map((issue) => `${issue.code}@${issue.step}`);
}
