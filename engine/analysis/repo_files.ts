/**
 * Other files of the repository that may use a symbol (for L5, the plan's
 * impact and the import graph): the workspace's files of one language
 * (listed once and cached briefly), narrowed by a fast text scan for the
 * symbol's name. Bounded: at most `MAX_LISTED` files listed and
 * `MAX_MATCHES` returned.
 *
 * @module
 */

import { EXTENSIONS, type LanguageId } from "../parse/mod.ts";
import type { DocumentStore } from "../parse/documents.ts";

const MAX_LISTED = 20_000;
const MAX_MATCHES = 40;
const TTL_MS = 10_000;
const SKIP_DIRS = new Set([
  "node_modules",
  "__pycache__",
  "venv",
  "env",
  "site-packages",
  "dist",
  "build",
  "target",
  "vendor",
]);

const listings = new Map<string, { at: number; files: string[] }>();

/** Repository-relative paths of the workspace's files in `language` (cached for a few seconds). */
export function repoFiles(root: string, language: LanguageId): string[] {
  const key = `${root}\u0000${language}`;
  const cached = listings.get(key);
  if (cached && Date.now() - cached.at < TTL_MS) return cached.files;
  const files: string[] = [];
  const pending = [""];
  while (pending.length > 0 && files.length < MAX_LISTED) {
    const dir = pending.pop()!;
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(dir ? `${root}/${dir}` : root)];
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (entry.name.startsWith(".")) continue;
      const rel = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory) {
        if (!SKIP_DIRS.has(entry.name)) pending.push(rel);
      } else if (entry.isFile) {
        const dot = entry.name.lastIndexOf(".");
        if (dot > 0 && EXTENSIONS[entry.name.slice(dot).toLowerCase()] === language) files.push(rel);
      }
    }
  }
  files.sort();
  listings.set(key, { at: Date.now(), files });
  return files;
}

/**
 * Files other than `exclude` whose current text (the store's overlay, or the
 * disk) contains every one of `words`.
 */
export async function filesMentioning(
  store: DocumentStore,
  language: LanguageId,
  words: string[],
  exclude: string,
): Promise<string[]> {
  const out: string[] = [];
  const changed = new Set(store.ownPaths());
  const root = store.workspace.root;
  for (const path of repoFiles(root, language)) {
    if (path === exclude) continue;
    let text: string;
    if (changed.has(path)) {
      text = (await store.get(path)).file.text;
    } else {
      try {
        text = Deno.readTextFileSync(`${root}/${path}`);
      } catch {
        continue;
      }
    }
    if (words.every((word) => text.includes(word))) {
      out.push(path);
      if (out.length >= MAX_MATCHES) break;
    }
  }
  return out;
}
