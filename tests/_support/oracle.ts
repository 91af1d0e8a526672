/**
 * Compilers and interpreters as independent oracles of a test: lay files out
 * in a fresh directory, run one command on them, answer whether it succeeded.
 * The directory is removed whatever happens; the command's output is dropped
 * (the tests that need a compiler's message run it themselves).
 *
 * @module
 */

/**
 * Whether `command` with `args(dir)` exits 0 once `files` (paths relative to
 * `dir`, parents made as needed) are written into a new temporary `dir`.
 *
 * ```ts
 * await oracleAccepts({ "a.c": text }, "gcc", (dir) => ["-fsyntax-only", `${dir}/a.c`]);
 * ```
 */
export async function oracleAccepts(
  files: Readonly<Record<string, string>>,
  command: string,
  args: (dir: string) => string[],
): Promise<boolean> {
  const dir = await Deno.makeTempDir({ prefix: `graphplan-oracle-${command.replace(/\W/g, "")}-` });
  try {
    for (const [path, text] of Object.entries(files)) {
      const slash = path.lastIndexOf("/");
      if (slash > 0) await Deno.mkdir(`${dir}/${path.slice(0, slash)}`, { recursive: true });
      await Deno.writeTextFile(`${dir}/${path}`, text);
    }
    const run = await new Deno.Command(command, { args: args(dir), stdout: "null", stderr: "null" }).output();
    return run.success;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
