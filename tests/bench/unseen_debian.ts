/**
 * Prepares gold-like patches of repositories the lift vocabulary was never
 * tuned on, from the fixes Debian carries over upstream Python projects
 * (`debian/patches/*` applied in `series` order over the pristine upstream
 * tarball). Each patch touching `.py` files becomes one instance in the
 * corpus format (`instance_id`, `repo`, `patch`, `files: [{path, before,
 * after}]`), the diff regenerated with `git diff --no-index` so it applies
 * without fuzz. Projects are split whole: `dev` (studied) and `heldout`
 * (measured only at the end). The data stays outside the repository.
 *
 * Needs a `deb-src` line for bookworm, `apt-get`, `tar`, `patch` and `git`;
 * without them it prints why and exits 0 having written nothing.
 *
 * `deno run -A tests/bench/unseen_debian.ts [--out /work/lift-unseen]`, then
 * `GRAPHPLAN_CORPUS=/work/lift-unseen/dev.jsonl.gz deno run -A tests/bench/lift.ts --list`.
 *
 * @module
 */

import { run } from "./unseen_releases.ts";

/** Whole projects per part: a project is never split between parts. */
export const UNSEEN_PARTS: Record<string, string[]> = {
  dev: ["python-django", "python-pip"],
  heldout: ["jinja2", "python-cryptography", "python-xmltodict"],
};

async function snapshot(root: string, paths: string[]): Promise<Map<string, string>> {
  const texts = new Map<string, string>();
  for (const path of paths) {
    try {
      texts.set(path, await Deno.readTextFile(`${root}/${path}`));
    } catch {
      texts.set(path, "");
    }
  }
  return texts;
}

/** The `.py` files a patch names (`+++ b/path`), relative to the tree. */
function patchedPaths(patch: string): string[] {
  return [...patch.matchAll(/^\+\+\+ (?:[^/\s]+\/)?(\S+\.py)\b/gm)].map((m) => m[1]);
}

/** Instances of one source package, in series order. */
async function packageInstances(work: string, pkg: string): Promise<Record<string, unknown>[]> {
  const src = `${work}/src`;
  await Deno.mkdir(src, { recursive: true });
  if (!(await run(["apt-get", "source", "--download-only", pkg], src)).ok) {
    console.error(`unseen: "${pkg}": apt-get source failed, skipped`);
    return [];
  }
  const orig = [...Deno.readDirSync(src)].map((e) => e.name).find((n) =>
    n.startsWith(`${pkg}_`) && /\.orig\.tar\./.test(n)
  );
  const deb = [...Deno.readDirSync(src)].map((e) => e.name).find((n) =>
    n.startsWith(`${pkg}_`) && /\.debian\.tar\./.test(n)
  );
  if (!orig || !deb) return [];
  const tree = `${work}/trees/${pkg}`;
  await Deno.remove(tree, { recursive: true }).catch(() => {});
  await Deno.mkdir(tree, { recursive: true });
  await run(["tar", "-xf", `${src}/${orig}`, "--strip-components=1", "-C", tree]);
  await run(["tar", "-xf", `${src}/${deb}`, "-C", tree]);
  const series = await Deno.readTextFile(`${tree}/debian/patches/series`).catch(() => "");
  const instances: Record<string, unknown>[] = [];
  for (const name of series.split("\n").map((l) => l.replace(/#.*/, "").trim()).filter(Boolean)) {
    const patchText = await Deno.readTextFile(`${tree}/debian/patches/${name}`);
    const paths = patchedPaths(patchText).filter((p) => !p.includes("/debian/"));
    const before = await snapshot(tree, paths);
    if (!(await run(["patch", "-p1", "-s", "-i", `debian/patches/${name}`], tree)).ok) {
      console.error(`unseen: "${pkg}/${name}": does not apply, skipped`);
      continue;
    }
    const after = await snapshot(tree, paths);
    const files = paths.filter((p) =>
      before.get(p) !== after.get(p) && before.get(p) !== "" && after.get(p) !== ""
    )
      .map((path) => ({ path, before: before.get(path)!, after: after.get(path)! }));
    if (files.length === 0) continue;
    const diffs: string[] = [];
    for (const file of files) {
      const tmp = await Deno.makeTempDir();
      await Deno.mkdir(`${tmp}/a`);
      await Deno.mkdir(`${tmp}/b`);
      await Deno.writeTextFile(`${tmp}/a/f`, file.before);
      await Deno.writeTextFile(`${tmp}/b/f`, file.after);
      const { out } = await run(["git", "diff", "--no-index", "--no-color", "a/f", "b/f"], tmp);
      diffs.push(out.replaceAll("a/a/f", `a/${file.path}`).replaceAll("b/b/f", `b/${file.path}`));
      await Deno.remove(tmp, { recursive: true });
    }
    instances.push({ instance_id: `${pkg}__${name}`, repo: pkg, patch: diffs.join(""), files });
  }
  return instances;
}

if (import.meta.main) {
  const at = Deno.args.indexOf("--out");
  const work = at >= 0 ? Deno.args[at + 1] : "/work/lift-unseen";
  const probe = await run(["apt-get", "source", "--download-only", "--print-uris", "jinja2"]).catch(() => ({
    ok: false,
    out: "",
  }));
  if (!probe.ok) {
    console.log("skipped: apt-get has no deb-src lines (add `deb-src` for bookworm and run apt-get update)");
  } else {
    for (const [part, pkgs] of Object.entries(UNSEEN_PARTS)) {
      const lines: string[] = [];
      for (const pkg of pkgs) {
        for (const instance of await packageInstances(work, pkg)) lines.push(JSON.stringify(instance));
      }
      const bytes = new TextEncoder().encode(lines.join("\n") + "\n");
      const gz = await new Response(new Blob([bytes]).stream().pipeThrough(new CompressionStream("gzip")))
        .arrayBuffer();
      await Deno.writeFile(`${work}/${part}.jsonl.gz`, new Uint8Array(gz));
      console.log(`${part}: ${lines.length} patches from ${pkgs.join(", ")} -> ${work}/${part}.jsonl.gz`);
    }
  }
}
