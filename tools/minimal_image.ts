/**
 * Build a minimal container image from the host's own files, offline: the
 * glibc loader and the libraries the listed programs need (per `ldd`),
 * bash, a few coreutils, grep, sed, find and git. No Node, no Python, no
 * Deno: the GraphPlan helper is copied in by the agent at setup. Used by
 * the container end-to-end tests and the helper-overhead benchmark.
 *
 *     deno run -A tools/minimal_image.ts [--cli podman] [NAME]
 *
 * The root filesystem is packed with tar and loaded with `CLI import`.
 *
 * @module
 */

import { dirname, join } from "node:path";

/** Programs copied into the image (looked up on the host's PATH). */
export const PROGRAMS = [
  "bash",
  "sh",
  "cat",
  "cp",
  "chmod",
  "env",
  "echo",
  "head",
  "tail",
  "ls",
  "mkdir",
  "mktemp",
  "mv",
  "nl",
  "rm",
  "sleep",
  "sort",
  "timeout",
  "true",
  "false",
  "wc",
  "tr",
  "grep",
  "sed",
  "find",
  "git",
] as const;

async function output(argv: string[]): Promise<{ code: number; text: string }> {
  const out = await new Deno.Command(argv[0], { args: argv.slice(1), stdout: "piped", stderr: "piped" })
    .output();
  return {
    code: out.code,
    text: new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr),
  };
}

/** The shared libraries `binary` loads, with the loader, as absolute host paths. */
async function libraries(binary: string): Promise<string[]> {
  const { code, text } = await output(["ldd", binary]);
  if (code !== 0) return [];
  const paths: string[] = [];
  for (const line of text.split("\n")) {
    const match = /=>\s*(\/\S+)/.exec(line) ?? /^\s*(\/\S+)\s*\(/.exec(line);
    if (match) paths.push(match[1]);
  }
  return paths;
}

async function copyInto(root: string, hostPath: string, as = hostPath): Promise<void> {
  const target = join(root, as);
  await Deno.mkdir(dirname(target), { recursive: true });
  const real = await Deno.realPath(hostPath);
  await Deno.copyFile(real, target);
  await Deno.chmod(target, (await Deno.stat(real)).mode! & 0o7777);
}

/** Write the root filesystem of the image into `root` (an empty directory). */
export async function buildRootfs(
  root: string,
  options: { programs?: readonly string[] } = {},
): Promise<void> {
  const libs = new Set<string>(["/lib64/ld-linux-x86-64.so.2"]);
  for (const name of options.programs ?? PROGRAMS) {
    const found = await output(["bash", "-c", `type -P ${name}`]);
    const path = found.text.trim().split("\n")[0];
    if (found.code !== 0 || !path.startsWith("/")) throw new Error(`Cannot find "${name}" on the host`);
    // Installed under /usr/bin and /bin both (merged-/usr hosts have them in one place).
    await copyInto(root, path, `/usr/bin/${name}`);
    for (const lib of await libraries(path)) libs.add(lib);
  }
  // Deno's own libraries, so the copied-in deno runs.
  for (const lib of await libraries(Deno.execPath())) libs.add(lib);
  for (const lib of libs) {
    await copyInto(root, lib);
    // The loader and libc are also looked up under /lib64 and /lib/x86_64-linux-gnu.
    if (lib.startsWith("/usr/lib/")) await copyInto(root, lib, lib.slice(4));
  }
  await Deno.symlink("usr/bin", join(root, "bin")).catch(() => {});
  for (const dir of ["tmp", "proc", "dev", "sys", "root", "etc", "var/tmp", "repo"]) {
    await Deno.mkdir(join(root, dir), { recursive: true });
  }
  await Deno.chmod(join(root, "tmp"), 0o1777);
  await Deno.chmod(join(root, "var/tmp"), 0o1777);
  await Deno.writeTextFile(join(root, "etc/passwd"), "root:x:0:0:root:/root:/usr/bin/bash\n");
  await Deno.writeTextFile(join(root, "etc/group"), "root:x:0:\n");
  await Deno.writeTextFile(
    join(root, "etc/gitconfig"),
    "[safe]\n\tdirectory = *\n[user]\n\temail = agent@graphplan.invalid\n\tname = GraphPlan\n",
  );
}

/**
 * Build the rootfs in a temp dir (plus what `extend` adds to it) and import
 * it as image `name` with `cli` (podman or docker); `testbed` is a host
 * directory copied to `/testbed` (where SWE-bench images keep the repository).
 */
export async function buildMinimalImage(
  name: string,
  options: { cli?: string; testbed?: string; extend?: (root: string) => Promise<void> } = {},
): Promise<void> {
  const cli = options.cli ?? "podman";
  const root = await Deno.makeTempDir({ prefix: "graphplan_rootfs_" });
  try {
    await buildRootfs(root);
    if (options.testbed) {
      const copied = await output(["cp", "-a", options.testbed, join(root, "testbed")]);
      if (copied.code !== 0) {
        throw new Error(`Cannot copy "${options.testbed}" into the image: ${copied.text}`);
      }
    }
    // More files for a test's needs (an interpreter, a test runner) before the image is made.
    await options.extend?.(root);
    const result = await output(["bash", "-c", `tar -C '${root}' -c . | ${cli} import - '${name}'`]);
    if (result.code !== 0) throw new Error(`${cli} import failed: ${result.text.trim()}`);
  } finally {
    await Deno.remove(root, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) {
  const args = [...Deno.args];
  const at = args.indexOf("--cli");
  const cli = at >= 0 ? args.splice(at, 2)[1] : "podman";
  const name = args[0] ?? "localhost/graphplan-minimal:latest";
  await buildMinimalImage(name, { cli });
  console.log(name);
}
