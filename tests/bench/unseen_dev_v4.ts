/**
 * A fourth dev set of gold-like Python patches, from version pairs no earlier
 * set used: CPython's standard library across a feature release as pyenv
 * installs it (3.9.18 → 3.10.13 by default, `--pair 3.8` for 3.8.18 →
 * 3.9.18). Feature releases rewrite comments, docstrings, import blocks and
 * module headers far more than bug-fix releases do (`unseen_releases.ts`), so
 * this set exercises the vocabulary on text and layout as well as on code.
 *
 * Each hunk of `git diff -U3` is one instance (`hunkInstances`, corpus format).
 * The split is fixed before anything is measured: a file belongs to `dev` when
 * the first hex digit of sha1(repo + "/" + path) is 0–7, else to `heldout`.
 * Tests, `idlelib`, `site-packages` and files over 200 kB are left out; each
 * part keeps at most `--cap` instances (default 400), taken round-robin over
 * files so no one file dominates.
 *
 * `deno run -A tests/bench/unseen_dev_v4.ts [--pair 3.9|3.8] [--cap N] [--out DIR]`
 * (default `/work/lift-unseen/dev-v4`), then
 * `deno run -A tests/bench/lift_patches.ts --corpus DIR/stdlib-3.9-3.10-dev.jsonl.gz --list`.
 *
 * @module
 */

import { filesUnder, hunkInstances, roundRobin, sha1Hex, writeJsonlGz } from "./unseen_releases.ts";

const PYENV = `${Deno.env.get("HOME") ?? "/root"}/.pyenv/versions`;
const PAIRS: Record<string, { before: string; after: string; repo: string }> = {
  "3.9": {
    before: `${PYENV}/3.9.18/lib/python3.9`,
    after: `${PYENV}/3.10.13/lib/python3.10`,
    repo: "cpython-stdlib-3.9-3.10",
  },
  "3.8": {
    before: `${PYENV}/3.8.18/lib/python3.8`,
    after: `${PYENV}/3.9.18/lib/python3.9`,
    repo: "cpython-stdlib-3.8-3.9",
  },
};
const SKIP_DIRS = new Set(["__pycache__", "site-packages", "test", "tests", "idlelib", "lib2to3"]);
const MAX_BYTES = 200_000;

function flag(name: string, fallback: string): string {
  const at = Deno.args.indexOf(name);
  return at >= 0 ? Deno.args[at + 1] : fallback;
}

if (import.meta.main) {
  const pair = PAIRS[flag("--pair", "3.9")];
  if (!pair) {
    console.error(`Unknown pair "${flag("--pair", "")}": use "3.9" or "3.8"`);
    Deno.exit(2);
  }
  const cap = Number(flag("--cap", "400"));
  const out = flag("--out", "/work/lift-unseen/dev-v4");
  if (!(await Deno.stat(pair.before).catch(() => null)) || !(await Deno.stat(pair.after).catch(() => null))) {
    console.log(`skipped ${pair.repo}: "${pair.before}" or "${pair.after}" is absent`);
    Deno.exit(0);
  }
  const skip = (name: string) => SKIP_DIRS.has(name) || name.startsWith(".") || name.startsWith("config-");
  const files = (await filesUnder(pair.before, "", skip)).filter((rel) => rel.endsWith(".py")).sort();
  const parts = { dev: [] as Record<string, unknown>[][], heldout: [] as Record<string, unknown>[][] };
  for (const rel of files) {
    let before: string, after: string;
    try {
      before = await Deno.readTextFile(`${pair.before}/${rel}`);
      after = await Deno.readTextFile(`${pair.after}/${rel}`);
    } catch {
      continue;
    }
    if (before === after || before.length > MAX_BYTES || after.length > MAX_BYTES) continue;
    const part = parseInt((await sha1Hex(`${pair.repo}/${rel}`))[0], 16) < 8 ? "dev" : "heldout";
    const rows = (await hunkInstances(rel, before, after)).map((hunk, i) => ({
      instance_id: `${pair.repo}__${rel}__h${i + 1}`,
      repo: pair.repo,
      patch: hunk.patch,
      files: [{ path: rel, before, after: hunk.after }],
    }));
    parts[part].push(rows);
  }
  await Deno.mkdir(out, { recursive: true });
  for (const [part, lists] of Object.entries(parts)) {
    const rows = roundRobin(lists, cap);
    const path = `${out}/${pair.repo.replace("cpython-", "")}-${part}.jsonl.gz`;
    await writeJsonlGz(path, rows);
    console.log(`${part}: ${rows.length} of ${lists.flat().length} instances -> ${path}`);
  }
}
