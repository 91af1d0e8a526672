/**
 * Prepares gold-like patches of Python code the lift vocabulary was never
 * tuned on, from two releases of the same project that are already installed
 * on this machine: CPython's standard library as Debian ships it (3.11.2)
 * against pyenv's 3.11.7 (bug-fix releases only, so every change is a fix or
 * a backport), and setuptools and pip as two pyenv interpreters carry them.
 *
 * A release diff is many fixes at once, so each hunk of `git diff -U3`
 * becomes one instance: the file before, the file with that hunk alone
 * applied, and the one-hunk diff (corpus format: `instance_id`, `repo`,
 * `patch`, `files: [{path, before, after}]`). Hunks that only add or remove
 * whole files are left out: they measure nothing about the vocabulary.
 *
 * The split is fixed before anything is measured: a file belongs to `dev`
 * when the first hex digit of sha1(repo + "/" + path) is 0–7, else to
 * `heldout`; setuptools is held out whole (a project never studied), pip is
 * dev whole (Debian's pip patches were already studied).
 *
 * `deno run -A tests/bench/unseen_releases.ts [--out /work/lift-unseen/releases]`,
 * then `GRAPHPLAN_CORPUS=/work/lift-unseen/releases/dev.jsonl.gz deno task bench lift`.
 * Missing trees are skipped with a line saying which.
 *
 * @module
 */

/** One pair of installed releases: `before` and `after` roots, and how to split it. */
interface ReleasePair {
  repo: string;
  before: string;
  after: string;
  /** Relative directories to read under both roots; empty means the root. */
  under: string[];
  split: "by-file" | "dev" | "heldout";
}

const PYENV = `${Deno.env.get("HOME") ?? "/root"}/.pyenv/versions`;

/** The release pairs this machine has (each skipped when a root is absent). */
export const RELEASE_PAIRS: ReleasePair[] = [
  {
    repo: "cpython-stdlib-3.11",
    before: "/usr/lib/python3.11",
    after: `${PYENV}/3.11.7/lib/python3.11`,
    under: [""],
    split: "by-file",
  },
  {
    repo: "pip",
    before: `${PYENV}/3.10.13/lib/python3.10/site-packages`,
    after: `${PYENV}/3.11.7/lib/python3.11/site-packages`,
    under: ["pip/_internal"],
    split: "dev",
  },
  {
    repo: "setuptools",
    before: `${PYENV}/3.9.18/lib/python3.9/site-packages`,
    after: `${PYENV}/3.11.7/lib/python3.11/site-packages`,
    under: ["setuptools", "pkg_resources"],
    split: "heldout",
  },
];

const SKIP_DIRS = new Set([
  "__pycache__",
  "site-packages",
  "test",
  "tests",
  "idlelib",
  "_vendor",
  "config-3.11-x86_64-linux-gnu",
]);

/** Run a command; its success and standard output (stderr is read and dropped). */
export async function run(cmd: string[], cwd?: string): Promise<{ ok: boolean; out: string }> {
  const output = await new Deno.Command(cmd[0], { args: cmd.slice(1), cwd, stdout: "piped", stderr: "piped" })
    .output();
  return { ok: output.success, out: new TextDecoder().decode(output.stdout) };
}

/**
 * Every file under `root/dir`, relative to `root`; directories `skipDir` names
 * are not entered. An unreadable directory gives nothing.
 */
export async function filesUnder(
  root: string,
  dir = "",
  skipDir: (name: string) => boolean = () => false,
): Promise<string[]> {
  const found: string[] = [];
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(dir ? `${root}/${dir}` : root)];
  } catch {
    return found;
  }
  for (const entry of entries) {
    const rel = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory && !skipDir(entry.name)) found.push(...await filesUnder(root, rel, skipDir));
    else if (entry.isFile) found.push(rel);
  }
  return found;
}

async function pythonFiles(root: string, dir: string): Promise<string[]> {
  const skip = (name: string) => SKIP_DIRS.has(name) || name.startsWith(".");
  return (await filesUnder(root, dir, skip)).filter((rel) => rel.endsWith(".py"));
}

/** Lowercase hex sha1 of a text. */
export async function sha1Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-1", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** `git diff --no-index -U3` of two texts, with `path` in the headers. */
export async function unifiedDiff(path: string, before: string, after: string): Promise<string> {
  const tmp = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${tmp}/a`);
    await Deno.mkdir(`${tmp}/b`);
    await Deno.writeTextFile(`${tmp}/a/f`, before);
    await Deno.writeTextFile(`${tmp}/b/f`, after);
    const out = await new Deno.Command("git", {
      args: ["diff", "--no-index", "--no-color", "-U3", "a/f", "b/f"],
      cwd: tmp,
      stdout: "piped",
      stderr: "null",
    }).output();
    return new TextDecoder().decode(out.stdout).replaceAll("a/a/f", `a/${path}`).replaceAll(
      "b/b/f",
      `b/${path}`,
    );
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
}

/** One hunk applied alone to `before`, with its own diff regenerated. */
export async function hunkInstances(
  path: string,
  before: string,
  after: string,
): Promise<{ after: string; patch: string }[]> {
  const diff = await unifiedDiff(path, before, after);
  const lines = before.split("\n");
  const hunks = diff.split(/^(?=@@ )/m).slice(1);
  const out: { after: string; patch: string }[] = [];
  for (const hunk of hunks) {
    const header = /^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@/.exec(hunk);
    if (!header) continue;
    const start = Number(header[1]) - (header[2] === "0" ? 0 : 1);
    const oldLength = header[2] === undefined ? 1 : Number(header[2]);
    const body = hunk.split("\n").slice(1);
    const added: string[] = [];
    for (const line of body) {
      if (line.startsWith("\\")) continue;
      if (line.startsWith("+") || line.startsWith(" ")) added.push(line.slice(1));
    }
    const next = [...lines.slice(0, start), ...added, ...lines.slice(start + oldLength)].join("\n");
    if (next === before) continue;
    out.push({ after: next, patch: await unifiedDiff(path, before, next) });
  }
  return out;
}

async function pairInstances(pair: ReleasePair): Promise<Map<"dev" | "heldout", Record<string, unknown>[]>> {
  const parts = new Map<"dev" | "heldout", Record<string, unknown>[]>([["dev", []], ["heldout", []]]);
  for (const under of pair.under) {
    for (const rel of (await pythonFiles(pair.before, under)).sort()) {
      let before: string, after: string;
      try {
        before = await Deno.readTextFile(`${pair.before}/${rel}`);
        after = await Deno.readTextFile(`${pair.after}/${rel}`);
      } catch {
        continue;
      }
      if (before === after) continue;
      const part = pair.split !== "by-file"
        ? pair.split
        : parseInt((await sha1Hex(`${pair.repo}/${rel}`))[0], 16) < 8
        ? "dev"
        : "heldout";
      let n = 0;
      for (const hunk of await hunkInstances(rel, before, after)) {
        parts.get(part)!.push({
          instance_id: `${pair.repo}__${rel}__h${++n}`,
          repo: pair.repo,
          patch: hunk.patch,
          files: [{ path: rel, before, after: hunk.after }],
        });
      }
    }
  }
  return parts;
}

/** Write `rows` as gzip-compressed JSON lines. */
export async function writeJsonlGz(path: string, rows: Record<string, unknown>[]): Promise<void> {
  const bytes = new TextEncoder().encode(rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
  const gz = await new Response(new Blob([bytes]).stream().pipeThrough(new CompressionStream("gzip")))
    .arrayBuffer();
  await Deno.writeFile(path, new Uint8Array(gz));
}

/** At most `cap` rows, taken round-robin over the lists (one per source). */
export function roundRobin(lists: Record<string, unknown>[][], cap: number): Record<string, unknown>[] {
  const kept: Record<string, unknown>[] = [];
  for (let i = 0; kept.length < cap && lists.some((rows) => i < rows.length); i++) {
    for (const rows of lists) if (i < rows.length && kept.length < cap) kept.push(rows[i]);
  }
  return kept;
}

if (import.meta.main) {
  const at = Deno.args.indexOf("--out");
  const out = at >= 0 ? Deno.args[at + 1] : "/work/lift-unseen/releases";
  await Deno.mkdir(out, { recursive: true });
  const all = { dev: [] as Record<string, unknown>[], heldout: [] as Record<string, unknown>[] };
  for (const pair of RELEASE_PAIRS) {
    if (
      !(await Deno.stat(pair.before).catch(() => null)) || !(await Deno.stat(pair.after).catch(() => null))
    ) {
      console.log(`skipped ${pair.repo}: "${pair.before}" or "${pair.after}" is absent`);
      continue;
    }
    const parts = await pairInstances(pair);
    console.log(
      `${pair.repo}: dev ${parts.get("dev")!.length}, heldout ${parts.get("heldout")!.length} hunks`,
    );
    all.dev.push(...parts.get("dev")!);
    all.heldout.push(...parts.get("heldout")!);
  }
  for (const [part, rows] of Object.entries(all)) {
    await writeJsonlGz(`${out}/${part}.jsonl.gz`, rows);
    console.log(`${part}: ${rows.length} instances -> ${out}/${part}.jsonl.gz`);
  }
}
