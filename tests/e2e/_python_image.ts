/**
 * A minimal image (`tools/minimal_image.ts`) with the host's system python3
 * and pytest in it, for the rfsn strategy's container test: the interpreter
 * and its standard library with the shared libraries its extension modules
 * need, and pytest with its pure-Python dependencies copied from wherever
 * the host's python3 finds them. Skipped, saying why, where podman, a system
 * `/usr/bin/python3.X` or pytest is missing.
 *
 * @module
 */

import { buildMinimalImage } from "../../tools/minimal_image.ts";
import { podmanEnv } from "./_support.ts";

export { podmanEnv };

function sh(command: string): { code: number; out: string } {
  try {
    const result = new Deno.Command("bash", { args: ["-c", command], stdout: "piped", stderr: "null" })
      .outputSync();
    return { code: result.code, out: new TextDecoder().decode(result.stdout).trim() };
  } catch {
    return { code: 127, out: "" };
  }
}

const SYSTEM_PYTHON =
  sh("ls /usr/bin/python3.[0-9]* 2>/dev/null | grep -E 'python3\\.[0-9]+$' | head -n1").out;
const PYTEST_DIR = sh(
  `python3 -c 'import os, pytest; print(os.path.dirname(os.path.dirname(pytest.__file__)))'`,
);

/** Why the container test cannot run here, or undefined. */
export const PYTHON_IMAGE_SKIP = sh("type -P podman").code !== 0
  ? "podman is not installed"
  : !SYSTEM_PYTHON
  ? "no system python3 (/usr/bin/python3.X) to put in the image"
  : PYTEST_DIR.code !== 0
  ? "pytest is not installed for python3"
  : undefined;

const EXTEND = `set -euo pipefail
ROOT="$1"; PY="$2"; SITE="$3"; VERSION="$(basename "$PY")"
mkdir -p "$ROOT/usr/lib/python3/dist-packages"
cp -a "/usr/lib/$VERSION" "$ROOT/usr/lib/$VERSION"
cp "$PY" "$ROOT/usr/bin/$VERSION"
ln -sf "$VERSION" "$ROOT/usr/bin/python3"
for f in "$PY" $(find "/usr/lib/$VERSION/lib-dynload" -name '*.so'); do ldd "$f" | grep -o '/[^ ]*' || true; done |
  sort -u | while read -r lib; do mkdir -p "$ROOT$(dirname "$lib")"; cp -L "$lib" "$ROOT$lib"; done
for p in pytest _pytest pluggy iniconfig packaging pygments py.py; do
  if [ -e "$SITE/$p" ]; then cp -a "$SITE/$p" "$ROOT/usr/lib/python3/dist-packages/"; fi
done`;

const built = new Map<string, Promise<string>>();

/**
 * The image's name, built once per process; with `testbed`, that host
 * directory is copied to `/testbed` (where SWE-bench images keep the
 * repository, for batch tests).
 */
export function pythonImage(options: { testbed?: string } = {}): Promise<string> {
  const key = options.testbed ?? "";
  let image = built.get(key);
  if (!image) {
    image = (async () => {
      const name = `localhost/graphplan-rfsn-${crypto.randomUUID().slice(0, 8)}:latest`;
      for (const [key, value] of Object.entries(podmanEnv())) Deno.env.set(key, value);
      await buildMinimalImage(name, {
        cli: "podman",
        testbed: options.testbed,
        extend: async (root) => {
          const out = await new Deno.Command("bash", {
            args: ["-c", EXTEND, "extend", root, SYSTEM_PYTHON, PYTEST_DIR.out],
            stderr: "piped",
          }).output();
          if (!out.success) {
            throw new Error(`Cannot add python3 to the image: ${new TextDecoder().decode(out.stderr)}`);
          }
        },
      });
      return name;
    })();
    built.set(key, image);
  }
  return image;
}

/** Remove the images built (after the tests). */
export async function removePythonImage(): Promise<void> {
  for (const image of built.values()) {
    const name = await image.catch(() => null);
    if (name) {
      await new Deno.Command("podman", { args: ["rmi", "-f", name], stdout: "null", stderr: "null" })
        .output();
    }
  }
  built.clear();
}
