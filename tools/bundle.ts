/**
 * Builds the one-file bundle `dist/graphplan.js` (or `--out FILE`): the
 * portable form of GraphPlan, run by any `deno` executable with no file
 * beside it.
 *
 * Two steps: `deno bundle` of `main.ts`, then every character above U+00FF
 * that survived bundling (an arrow in a kept comment, a non-Latin script in a
 * string) is written as a `\uXXXX` escape. V8 stores a source that is all
 * Latin-1 one byte per character and any other source two bytes per
 * character, for the whole file, at every start (measured: +60 ms and +70 MB
 * on the 23 MB uncompressed-grammar bundle). The escapes mean the same in
 * strings, regular expressions, template literals, identifiers and comments.
 * The result is renamed into place, so a reader never sees half a bundle.
 *
 * Usage: `deno run -A tools/bundle.ts [--out FILE]` (the `bundle` task).
 *
 * @module
 */

const ROOT = new URL("../", import.meta.url).pathname;

/** Build the bundle of `main.ts` at `out` (absolute, or relative to the current directory). */
export async function buildBundle(out: string): Promise<string> {
  const slash = out.lastIndexOf("/");
  if (slash > 0) await Deno.mkdir(out.slice(0, slash), { recursive: true });
  const temp = `${out}.${Deno.pid}.${Date.now()}.tmp.js`;
  try {
    const result = await new Deno.Command(Deno.execPath(), {
      args: ["bundle", "--quiet", "--platform", "deno", "main.ts", "-o", temp],
      cwd: ROOT,
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (!result.success) {
      throw new Error(
        `"deno bundle" failed (exit ${result.code}): ${new TextDecoder().decode(result.stderr).trim()}`,
      );
    }
    await Deno.writeTextFile(temp, latin1Only(await Deno.readTextFile(temp)));
    await Deno.rename(temp, out);
    return out;
  } finally {
    await Deno.remove(temp).catch(() => {});
  }
}

/** `text` with every UTF-16 code unit above 0xFF written as a `\uXXXX` escape. */
export function latin1Only(text: string): string {
  return text.replace(/[\u0100-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

if (import.meta.main) {
  const at = Deno.args.indexOf("--out");
  const out = at === -1 ? `${ROOT}dist/graphplan.js` : Deno.args[at + 1];
  if (!out) {
    console.error("bundle: --out needs a file path");
    Deno.exit(2);
  }
  const started = performance.now();
  await buildBundle(out);
  const size = (await Deno.stat(out)).size;
  console.log(
    `bundle: ${out} (${(size / 1e6).toFixed(1)} MB) in ${Math.round(performance.now() - started)} ms`,
  );
}
