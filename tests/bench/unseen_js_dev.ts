/**
 * A tuning set for JavaScript and TypeScript verification (false refusals of
 * correct plans, issue 27): one-hunk and multi-hunk changes between two npm
 * releases of packages that no other set uses (not `unseen_multilang.ts`'s
 * nor `unseen_v3.ts`'s: commander, express, ws, semver, qs, rxjs, effect,
 * type-fest). The packages were picked for what a verifier of a dynamic
 * language must get right: CommonJS modules with prototype-assigned methods
 * (connect, koa, body-parser, router, send, eventemitter3), ES modules of
 * many small functions (moment's `src/`), ES classes with private fields
 * (lru-cache, undici, pg), declaration files (`@types/node`,
 * `@types/lodash`, TypeScript's own `lib/*.d.ts`, utility-types,
 * ts-essentials, tslib) and TypeScript sources (immer, ajv).
 *
 * Instances come from `unseen_v3.ts`'s `pairInstances` (same caps, same
 * sha1 order, changes already in the corpus or an earlier set dropped).
 * Files are split before anything is looked at: a file whose sha1 of
 * `repo/path` starts with `c`–`f` goes to `heldout.jsonl.gz`, the others to
 * `dev.jsonl.gz`.
 *
 * Besides, `dev-whole.jsonl.gz` and `heldout-whole.jsonl.gz` hold every
 * changed file's whole change (up to {@link WHOLE_MAX_HUNKS} hunks, no
 * other cap): a released file is correct code, so a refusal of its lifted
 * plan is a false alarm unless another file is involved.
 *
 * `deno run -A tests/bench/unseen_js_dev.ts [--out /work/lift-unseen/dev-js]`
 * (`npm pack` fetches each release once into `OUT/work`).
 *
 * @module
 */

import { filesUnder, run, sha1Hex, unifiedDiff, writeJsonlGz } from "./unseen_releases.ts";
import { knownChanges, knownSetFiles, pairInstances, type TreePair } from "./unseen_v3.ts";

/** Package, language, release before and after, paths diffed inside the package. */
export const JS_DEV_PAIRS: [string, string, string, string, RegExp][] = [
  ["connect", "javascript", "3.6.6", "3.7.0", /^index\.js$/],
  ["koa", "javascript", "2.13.4", "2.15.3", /^lib\/.*\.js$/],
  ["body-parser", "javascript", "1.19.0", "1.20.3", /^(index|lib\/.*)\.js$/],
  ["moment", "javascript", "2.29.1", "2.30.1", /^src\/lib\/.*\.js$/],
  ["lru-cache", "javascript", "7.14.1", "7.18.3", /^index\.js$/],
  ["undici", "javascript", "6.19.0", "6.21.0", /^lib\/.*\.js$/],
  ["@types/node", "typescript", "20.10.0", "20.17.0", /^[^/]*\.d\.ts$/],
  ["typescript", "typescript", "5.4.5", "5.6.3", /^lib\/lib\.[^/]*\.d\.ts$/],
  ["utility-types", "typescript", "3.10.0", "3.11.0", /^dist\/.*\.d\.ts$/],
  ["immer", "typescript", "9.0.21", "10.1.1", /^src\/.*\.ts$/],
  ["router", "javascript", "1.3.8", "2.2.0", /^(index|lib\/.*)\.js$/],
  ["send", "javascript", "0.18.0", "1.2.0", /^index\.js$/],
  ["eventemitter3", "javascript", "4.0.7", "5.0.1", /^index\.(js|d\.ts)$/],
  ["pg", "javascript", "8.7.1", "8.13.0", /^lib\/.*\.js$/],
  ["tslib", "typescript", "2.4.0", "2.8.1", /^tslib\.(d\.ts|js|es6\.js)$/],
  ["@types/lodash", "typescript", "4.14.191", "4.17.13", /^(index|common\/.*)\.d\.ts$/],
  ["ts-essentials", "typescript", "9.3.0", "10.0.4", /\.d\.ts$/],
  ["ajv", "typescript", "8.12.0", "8.17.1", /^lib\/.*\.ts$/],
];

/** Whether `repo/path` is held out (sha1 starting with c-f: about a quarter of the files). */
export async function heldOutFile(repo: string, path: string): Promise<boolean> {
  return /^[c-f]/.test(await sha1Hex(`${repo}/${path}`));
}

/** Hunks of a whole-file instance at most (lifting is slow beyond). */
export const WHOLE_MAX_HUNKS = 40;

/** Every changed file of a pair as one instance with all its hunks. */
async function wholeFiles(pair: TreePair): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = [];
  for (
    const path of (await filesUnder(pair.before, "", () => false)).filter((p) => pair.include.test(p)).sort()
  ) {
    const before = await Deno.readTextFile(`${pair.before}/${path}`);
    const after = await Deno.readTextFile(`${pair.after}/${path}`).catch(() => undefined);
    if (after === undefined || before === after || before.length > 300_000 || after.length > 300_000) {
      continue;
    }
    const patch = await unifiedDiff(path, before, after);
    const hunks = patch.match(/^@@ /gm)?.length ?? 0;
    if (hunks === 0 || hunks > WHOLE_MAX_HUNKS) continue;
    rows.push({
      instance_id: `${pair.repo.replaceAll("/", "__")}__${path}__whole`,
      repo: pair.repo,
      language: pair.language,
      hunks,
      patch,
      files: [{ path, before, after }],
    });
  }
  return rows;
}

async function unpack(work: string, pkg: string, version: string): Promise<string> {
  const dir = `${work}/${pkg.replace("/", "__")}/${version}`;
  if (await Deno.stat(`${dir}/package`).catch(() => null)) return `${dir}/package`;
  await Deno.mkdir(dir, { recursive: true });
  const packed = await run(["npm", "pack", `${pkg}@${version}`, "--silent"], dir);
  const tgz = packed.out.trim().split("\n").at(-1)!;
  // the top folder is usually `package/`, but not always (`@types/*` use the package's name)
  await Deno.mkdir(`${dir}/package`, { recursive: true });
  if (!packed.ok || !(await run(["tar", "xzf", tgz, "--strip-components=1", "-C", "package"], dir)).ok) {
    throw new Error(`Cannot fetch "${pkg}@${version}"`);
  }
  return `${dir}/package`;
}

if (import.meta.main) {
  const at = Deno.args.indexOf("--out");
  const out = at >= 0 ? Deno.args[at + 1] : "/work/lift-unseen/dev-js";
  await Deno.mkdir(`${out}/work`, { recursive: true });
  const known = await knownChanges(knownSetFiles());
  const dev: Record<string, unknown>[] = [], held: Record<string, unknown>[] = [];
  const devWhole: Record<string, unknown>[] = [], heldWhole: Record<string, unknown>[] = [];
  for (const [pkg, language, from, to, include] of JS_DEV_PAIRS) {
    const pair: TreePair = {
      repo: `npm/${pkg}@${from}..${to}`,
      language,
      before: await unpack(`${out}/work`, pkg, from),
      after: await unpack(`${out}/work`, pkg, to),
      include,
    };
    const rows = await pairInstances(pair, known);
    for (const row of rows) {
      const path = (row.files as { path: string }[])[0].path;
      (await heldOutFile(pair.repo.replace(/@[^@/]*$/, ""), path) ? held : dev).push(row);
    }
    const whole = await wholeFiles(pair);
    for (const row of whole) {
      const path = (row.files as { path: string }[])[0].path;
      (await heldOutFile(pair.repo.replace(/@[^@/]*$/, ""), path) ? heldWhole : devWhole).push(row);
    }
    console.log(`${language} ${pair.repo}: ${rows.length}, ${whole.length} whole files`);
  }
  await writeJsonlGz(`${out}/dev.jsonl.gz`, dev);
  await writeJsonlGz(`${out}/heldout.jsonl.gz`, held);
  await writeJsonlGz(`${out}/dev-whole.jsonl.gz`, devWhole);
  await writeJsonlGz(`${out}/heldout-whole.jsonl.gz`, heldWhole);
  console.log(
    `dev ${dev.length} (${devWhole.length} whole), heldout ${held.length} (${heldWhole.length} whole) -> ${out}`,
  );
}
