/**
 * SWE-bench instances for a batch: from a local file (`.json` list,
 * `.jsonl` or `.jsonl.gz`, `.parquet`) or a Hugging Face dataset by name,
 * downloaded once as the parquet files Hugging Face converts every dataset
 * to and kept in the user cache directory.
 *
 * ```ts
 * const rows = await loadInstances("lite");                    // princeton-nlp/SWE-bench_Lite, split test
 * const local = await loadInstances("swebench_lite.parquet");
 * ```
 *
 * The download asks `{endpoint}/api/datasets/{name}/parquet/default/{split}`
 * for the file URLs (`HF_ENDPOINT` replaces the endpoint, `HF_TOKEN` is sent
 * when set), writes each file into the cache atomically and the list of
 * files last, so an interrupted download is started again, not half used.
 *
 * @module
 */

// The package's browser entry: its Node entry adds file helpers with a static node:fs import.
import { parquetReadObjects } from "hyparquet/src/index.js";
import { join } from "../../engine/base/node_builtins.ts";
import { checkTaskRow, DatasetError, readDataset, type TaskRow } from "../dataset.ts";
import { writeTextAtomic } from "../trajectory/atomic.ts";
import { readFailure } from "../../engine/base/read_failure.ts";
import { closestNames } from "../../engine/base/suggest.ts";

export { DatasetError, type TaskRow } from "../dataset.ts";

/** Short names for the SWE-bench datasets on Hugging Face. */
export const SUBSETS: Record<string, string> = {
  lite: "princeton-nlp/SWE-bench_Lite",
  verified: "princeton-nlp/SWE-bench_Verified",
  full: "SWE-bench/SWE-bench",
};

/** Where datasets come from and are kept. */
export interface LoadOptions {
  /** Dataset split (default `test`). */
  split?: string;
  /** The cache root (default: {@linkcode cacheRoot}). */
  cacheDir?: string;
  /** The Hugging Face endpoint (default `HF_ENDPOINT` or `https://huggingface.co`). */
  endpoint?: string;
  /** The fetch to download with (tests pass one that fails, to prove the cache is used). */
  fetch?: typeof fetch;
  /** Progress lines (the download). */
  log?: (line: string) => void;
}

/** `$XDG_CACHE_HOME/graphplan` or `~/.cache/graphplan`. */
export function cacheRoot(): string {
  const xdg = Deno.env.get("XDG_CACHE_HOME");
  if (xdg) return join(xdg, "graphplan");
  const home = Deno.env.get("HOME");
  if (!home) throw new DatasetError("Cannot find a cache directory: set XDG_CACHE_HOME or HOME");
  return join(home, ".cache", "graphplan");
}

/**
 * The instances of `source`: `lite`, `verified`, `full`, a Hugging Face name
 * (`owner/name`), or a path to a `.json`, `.jsonl`(`.gz`) or `.parquet` file.
 * A path that exists wins over a name.
 */
export async function loadInstances(source: string, options: LoadOptions = {}): Promise<TaskRow[]> {
  if (await isFile(source)) return await readInstanceFile(source);
  // A file name that is not there is a mistyped path, not a Hugging Face "owner/name" to download.
  if (/\.(json|jsonl|jsonl\.gz|parquet)$/i.test(source)) {
    throw new DatasetError(`No dataset file "${source}": no such file (give the path to a local file)`);
  }
  const name = SUBSETS[source.toLowerCase()] ?? source;
  if (!/^[\w.-]+\/[\w.-]+$/.test(name)) {
    const near = closestNames(source.toLowerCase(), Object.keys(SUBSETS), 1);
    throw new DatasetError(
      `Dataset "${source}" is neither a file nor a Hugging Face name: ` +
        (near.length > 0 ? `did you mean "${near[0]}"? Else give` : "give") +
        ` a path, "owner/name", or one of ${Object.keys(SUBSETS).map((key) => `"${key}"`).join(", ")}`,
    );
  }
  const files = await huggingFaceFiles(name, options);
  const rows: TaskRow[] = [];
  for (const file of files) rows.push(...checkRows(await readParquet(file), file));
  return rows;
}

/** The instances in a local file, by its extension. */
export async function readInstanceFile(path: string): Promise<TaskRow[]> {
  if (/\.parquet$/i.test(path)) return checkRows(await readParquet(path), path);
  if (/\.json$/i.test(path)) {
    let data: unknown;
    try {
      data = JSON.parse(await Deno.readTextFile(path));
    } catch (err) {
      throw new DatasetError(`Cannot read dataset "${path}": ${readFailure(err)}`);
    }
    if (!Array.isArray(data)) throw new DatasetError(`Dataset "${path}" is not a JSON list of instances`);
    return checkRows(data, path);
  }
  return await readDataset(path);
}

/** Every row of a parquet file as a plain object. */
export async function readParquet(path: string): Promise<Record<string, unknown>[]> {
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(path);
  } catch (err) {
    throw new DatasetError(`Cannot read dataset "${path}": ${readFailure(err)}`);
  }
  try {
    const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    return await parquetReadObjects({ file }) as Record<string, unknown>[];
  } catch (err) {
    throw new DatasetError(`Cannot read parquet file "${path}": ${(err as Error).message}`);
  }
}

function checkRows(rows: unknown[], path: string): TaskRow[] {
  return rows.map((row, index) => checkTaskRow(row, `Row ${index + 1} of "${path}"`));
}

/** The cache folder of one dataset split. */
export function datasetCacheDir(name: string, split: string, cacheDir = cacheRoot()): string {
  return join(cacheDir, "datasets", name.replace("/", "__"), split);
}

const MANIFEST = "files.json";

/**
 * The parquet files of a Hugging Face dataset split in the cache, downloaded
 * first when the cache does not have them all.
 */
export async function huggingFaceFiles(name: string, options: LoadOptions = {}): Promise<string[]> {
  const split = options.split ?? "test";
  const dir = datasetCacheDir(name, split, options.cacheDir ?? cacheRoot());
  try {
    const listed = JSON.parse(await Deno.readTextFile(join(dir, MANIFEST))) as string[];
    const paths = listed.map((file) => join(dir, file));
    if (await Promise.all(paths.map(isFile)).then((found) => found.every(Boolean))) return paths;
  } catch {
    // not cached yet (or the manifest is damaged): download
  }
  const endpoint = (options.endpoint ?? Deno.env.get("HF_ENDPOINT") ?? "https://huggingface.co").replace(
    /\/+$/,
    "",
  );
  const doFetch = options.fetch ?? fetch;
  const token = Deno.env.get("HF_TOKEN");
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  const listUrl = `${endpoint}/api/datasets/${name}/parquet/default/${encodeURIComponent(split)}`;
  const urls = await download(doFetch, listUrl, headers, name).then((r) => r.json()).catch((err) => {
    throw err instanceof DatasetError
      ? err
      : new DatasetError(`Cannot list the parquet files of "${name}": ${(err as Error).message}`);
  });
  if (!Array.isArray(urls) || urls.length === 0 || urls.some((url) => typeof url !== "string")) {
    throw new DatasetError(`Hugging Face lists no parquet files for "${name}" split "${split}"`);
  }
  await Deno.mkdir(dir, { recursive: true });
  const files: string[] = [];
  for (const [index, url] of (urls as string[]).entries()) {
    const file = `${String(index).padStart(4, "0")}.parquet`;
    options.log?.(`dataset: downloading ${name} (${split}) file ${index + 1} of ${urls.length}`);
    const bytes = new Uint8Array(await (await download(doFetch, url, headers, name)).arrayBuffer());
    const tmp = join(dir, `.${file}.${crypto.randomUUID().slice(0, 8)}.tmp`);
    await Deno.writeFile(tmp, bytes);
    await Deno.rename(tmp, join(dir, file));
    files.push(file);
  }
  await writeTextAtomic(join(dir, MANIFEST), JSON.stringify(files) + "\n");
  return files.map((file) => join(dir, file));
}

async function download(
  doFetch: typeof fetch,
  url: string,
  headers: Record<string, string>,
  name: string,
): Promise<Response> {
  let response: Response;
  try {
    response = await doFetch(url, { headers });
  } catch (err) {
    throw new DatasetError(
      `Cannot download dataset "${name}" from "${url}": ${(err as Error).message}` +
        ` (no network? give a local .parquet or .jsonl file instead)`,
    );
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new DatasetError(
      `Cannot download dataset "${name}" from "${url}": HTTP ${response.status}` +
        (response.status === 401 ? " (set HF_TOKEN for gated datasets)" : ""),
    );
  }
  return response;
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isFile;
  } catch {
    return false;
  }
}
