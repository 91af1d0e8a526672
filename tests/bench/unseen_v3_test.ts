/**
 * The extraction of `unseen_v3.ts`: tree pairs cut into one-hunk and
 * multi-hunk instances, changes already known dropped wherever they sit,
 * and Rust sources read back from rustdoc's pages (judged by rustc's own
 * parser).
 */

import assert from "node:assert/strict";
import { loadMultilang, MULTILANG_SKIP } from "../_support/multilang.ts";
import { skipReason } from "../_support/skips.ts";
import { unifiedDiff } from "./unseen_releases.ts";
import { changeKeys, MULTI_MAX, MULTI_MIN, pairInstances, PER_PAIR_ONE, rustdocSource } from "./unseen_v3.ts";

/** Real files of corpus commits whose diff has two to six hunks. */
async function multiHunkFiles(limit: number) {
  const found: { path: string; before: string; after: string; hunks: number }[] = [];
  for (const commit of await loadMultilang()) {
    for (const file of commit.files) {
      const hunks = (await unifiedDiff(file.path, file.before, file.after)).match(/^@@ /gm)?.length ?? 0;
      if (hunks >= MULTI_MIN && hunks <= MULTI_MAX) found.push({ ...file, hunks });
      if (found.length >= limit) return found;
    }
  }
  return found;
}

async function pairOf(file: { path: string; before: string; after: string }) {
  const root = await Deno.makeTempDir();
  for (const [side, text] of [["before", file.before], ["after", file.after]]) {
    const at = `${root}/${side}/${file.path}`;
    await Deno.mkdir(at.slice(0, at.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(at, text);
  }
  const include = new RegExp(`^${file.path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`);
  return {
    root,
    pair: { repo: "t/r", language: "x", before: `${root}/before`, after: `${root}/after`, include },
  };
}

Deno.test({
  name:
    "unseen v3: a real multi-hunk file gives one instance per hunk and one whole-file instance equal to its after",
  ignore: MULTILANG_SKIP !== undefined,
  async fn() {
    const files = await multiHunkFiles(6);
    assert.ok(files.length >= 3, `${files.length} multi-hunk files`);
    for (const file of files) {
      const { root, pair } = await pairOf(file);
      try {
        const rows = await pairInstances(pair, new Set());
        const whole = rows.filter((r) => String(r.instance_id).endsWith("__all"));
        const single = rows.filter((r) => r.hunks === 1);
        assert.equal(whole.length, 1, file.path);
        const [f] = whole[0].files as { path: string; before: string; after: string }[];
        assert.equal(f.after, file.after);
        assert.equal(whole[0].patch, await unifiedDiff(file.path, file.before, file.after));
        assert.equal(whole[0].hunks, file.hunks);
        assert.equal(single.length, Math.min(file.hunks, PER_PAIR_ONE));
        for (const row of single) assert.equal((row.patch as string).match(/^@@ /gm)?.length, 1);
      } finally {
        await Deno.remove(root, { recursive: true });
      }
    }
  },
});

Deno.test({
  name: "unseen v3: a change already known is dropped, also when it sits at another line",
  ignore: MULTILANG_SKIP !== undefined,
  async fn() {
    const [file] = await multiHunkFiles(1);
    const { root, pair } = await pairOf(file);
    try {
      const all = await pairInstances(pair, new Set());
      const first = all.find((r) => r.hunks === 1)!;
      // the same edit 40 lines further down: same key, although every header and line number differs
      const pad = "\n".repeat(40);
      const moved = await unifiedDiff(
        file.path,
        pad + file.before,
        pad + (first.files as { after: string }[])[0].after,
      );
      assert.notEqual(moved, first.patch);
      assert.deepEqual(await changeKeys(moved), await changeKeys(first.patch as string));
      const known = new Set(await changeKeys(moved));
      const again = await pairInstances(pair, known);
      assert.ok(!again.some((r) => r.instance_id === first.instance_id));
      // the whole-file instance holds that hunk too, so it goes as well; the other hunks stay
      assert.ok(!again.some((r) => String(r.instance_id).endsWith("__all")));
      assert.equal(again.filter((r) => r.hunks === 1).length, all.filter((r) => r.hunks === 1).length - 1);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});

const RUSTDOC = `${
  Deno.env.get("HOME")
}/.rustup/toolchains/stable-x86_64-unknown-linux-gnu/share/doc/rust/html/src/core`;
const RUSTC = `${Deno.env.get("HOME")}/.cargo/bin/rustc`;
function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

const RUSTDOC_SKIP = skipReason(
  exists(RUSTDOC) ? undefined : `rustdoc source pages not found (looked in ${RUSTDOC})`,
);

/** Whether rustc (nightly, for `-Zunpretty`) parses `text` as a Rust file. */
async function rustcParses(text: string): Promise<boolean> {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/f.rs`, text);
    const out = await new Deno.Command(RUSTC, {
      args: ["+nightly", "-Zunpretty=normal", "--edition", "2024", `${dir}/f.rs`],
      stdout: "null",
      stderr: "null",
    }).output();
    return out.success;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const NIGHTLY = exists(RUSTC) &&
  (await new Deno.Command(RUSTC, { args: ["+nightly", "--version"], stdout: "null", stderr: "null" }).output()
    .catch(() => ({ success: false }))).success;

Deno.test({
  name: "unseen v3: rustdoc source pages read back as Rust that rustc parses, one line per numbered line",
  ignore: RUSTDOC_SKIP !== undefined,
  async fn() {
    let checked = 0;
    for (const name of ["any.rs.html", "option.rs.html", "cell.rs.html", "str/pattern.rs.html"]) {
      const html = await Deno.readTextFile(`${RUSTDOC}/${name}`);
      const text = rustdocSource(html);
      assert.ok(text !== undefined, name);
      const numbered = html.match(/<a href=#\d+ id=\d+ data-nosnippet>/g)!.length;
      assert.equal(text.split("\n").length - 1, numbered, name);
      assert.doesNotMatch(text, /<\/?(span|a)\b|&(lt|gt|amp|quot);/, name);
      assert.match(text, /\bpub (trait|enum|struct|fn)\b/);
      if (NIGHTLY) {
        assert.ok(await rustcParses(text), `${name}: rustc does not parse it`);
        // the oracle is not blind: the same text with its first `{` gone is refused
        assert.equal(await rustcParses(`${text}\nfn broken( {\n`), false);
      }
      checked++;
    }
    assert.equal(checked, 4);
  },
});
