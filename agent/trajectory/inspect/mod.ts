/**
 * `graphplan inspect`: one self-contained HTML page (style and script
 * inline, no network) for a trajectory, a run's output directory or a batch
 * output directory.
 *
 * - a `.traj.json` file, or a directory holding one trajectory (`OUT` of a
 *   run, or `OUT/ID`): the trajectory's page;
 * - a batch directory (`batch.json` or `exit_statuses.yaml`), or an output
 *   directory with several trajectories: the batch page, and each
 *   instance's page in the folder `NAME_instances/` beside it (the rows link
 *   there, the instance pages link back).
 *
 * ```ts
 * const { pages } = await inspect("runs/batch-1", { output: "report.html" });
 * ```
 *
 * @module
 */

import { IssueError } from "../../../engine/base/issue.ts";
import { basename, dirname, join, resolve } from "../../../engine/base/node_builtins.ts";
import { writeTextAtomic } from "../atomic.ts";
import { batchPage } from "./batch_page.ts";
import { isBatchDir, readBatch, trajectoryIds } from "./batch_view.ts";
import { type SectionOf, trajectoryPage } from "./trajectory_page.ts";
import { TrajectoryFormatError, trajectoryView } from "./trajectory_view.ts";

export { batchPage } from "./batch_page.ts";
export { type BatchView, type InstanceRow, readBatch } from "./batch_view.ts";
export { html, text } from "./escape.ts";
export { locatorWords, stepOperator, stepTarget } from "./locator_words.ts";
export { type OwnSection, type SectionOf, trajectoryPage } from "./trajectory_page.ts";
export { type TrajectoryView, trajectoryView } from "./trajectory_view.ts";

/** What {@linkcode inspect} wrote. */
export interface InspectResult {
  kind: "trajectory" | "batch";
  /** The main page. */
  page: string;
  /** Every file written, the main page first. */
  pages: string[];
}

/** Read and check the trajectory at `path`. */
export async function loadTrajectory(path: string) {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (err) {
    throw new IssueError({
      code: "input-unreadable",
      severity: "error",
      message: `Cannot read "${path}": ${(err as Error).message}`,
    });
  }
  try {
    return trajectoryView(JSON.parse(text));
  } catch (err) {
    if (!(err instanceof SyntaxError || err instanceof TrajectoryFormatError)) throw err;
    throw new IssueError({
      code: "trajectory-invalid",
      severity: "error",
      message: `"${path}" is not a trajectory: ${err.message}`,
      hint: "give a .traj.json file written by graphplan run or batch, or an output directory",
    });
  }
}

function defaultPage(path: string, isDir: boolean): string {
  if (isDir) return join(path, "inspect.html");
  return join(dirname(path), `${basename(path).replace(/(\.traj)?\.json$/, "")}.html`);
}

function safeName(id: string): string {
  return id.replace(/[^\w.-]+/g, "_").replace(/^\.+/, "_") || "instance";
}

/** Write the page(s) for `path` (see the module doc); `output` is the main page's path. */
export async function inspect(
  path: string,
  options: { output?: string; sectionOf?: SectionOf } = {},
): Promise<InspectResult> {
  const { sectionOf } = options;
  let stat: Deno.FileInfo;
  try {
    stat = await Deno.stat(path);
  } catch (err) {
    throw new IssueError({
      code: "input-unreadable",
      severity: "error",
      message: `Cannot inspect "${path}": ${
        err instanceof Deno.errors.NotFound ? "no such file or directory" : (err as Error).message
      }`,
      hint: "give a .traj.json file, a run's output directory or a batch output directory",
    });
  }
  if (stat.isFile) {
    const out = resolve(options.output ?? defaultPage(path, false));
    await writeTextAtomic(
      out,
      trajectoryPage(await loadTrajectory(path), { source: resolve(path), sectionOf }),
    );
    return { kind: "trajectory", page: out, pages: [out] };
  }
  const ids = await trajectoryIds(path);
  if (!(await isBatchDir(path)) && ids.length <= 1) {
    const single = ids.length === 1
      ? join(path, ids[0], `${ids[0]}.traj.json`)
      : await lonelyTrajectory(path);
    const out = resolve(options.output ?? defaultPage(single, false));
    await writeTextAtomic(
      out,
      trajectoryPage(await loadTrajectory(single), { source: resolve(single), sectionOf }),
    );
    return { kind: "trajectory", page: out, pages: [out] };
  }
  const view = await readBatch(path);
  const out = resolve(options.output ?? defaultPage(path, true));
  const folder = `${basename(out).replace(/\.html?$/, "")}_instances`;
  const links = new Map<string, string>();
  const pages = [out];
  const used = new Set<string>();
  for (const row of view.rows) {
    if (!row.trajectory) continue;
    let name = safeName(row.id);
    while (used.has(name)) name += "_";
    used.add(name);
    let instancePage: string;
    try {
      instancePage = trajectoryPage(await loadTrajectory(row.trajectory), {
        backLink: `../${basename(out)}`,
        source: resolve(row.trajectory),
        sectionOf,
      });
    } catch (err) {
      if (!(err instanceof IssueError)) throw err;
      view.notes.push(err.issues.map((issue) => issue.message).join("; "));
      continue;
    }
    const file = join(dirname(out), folder, `${name}.html`);
    await writeTextAtomic(file, instancePage);
    links.set(row.id, `${encodeURIComponent(folder)}/${encodeURIComponent(name)}.html`);
    pages.push(file);
  }
  await writeTextAtomic(out, batchPage(view, links));
  return { kind: "batch", page: out, pages };
}

/** The one `*.traj.json` directly in `dir` (an instance folder `OUT/ID`). */
async function lonelyTrajectory(dir: string): Promise<string> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isFile && entry.name.endsWith(".traj.json")) found.push(entry.name);
  }
  if (found.length !== 1) {
    throw new IssueError({
      code: "trajectory-missing",
      severity: "error",
      message: found.length === 0
        ? `No trajectory in "${dir}": expected ID/ID.traj.json, *.traj.json or batch.json`
        : `Several trajectories directly in "${dir}": ${found.map((name) => `"${name}"`).join(", ")}`,
      hint: found.length === 0
        ? "give the output directory of graphplan run or batch"
        : "give one .traj.json file",
    });
  }
  return join(dir, found[0]);
}
