/**
 * CPython 3.12 or later as the oracle for PEP 695 syntax (`type X = ...`,
 * `def f[T]`), which the default python3 (3.11) cannot parse. Tests skip,
 * saying why, where no such interpreter is found.
 *
 * @module
 */

import { foundOnce } from "./probe_cache.ts";
import { skipReason } from "./skips.ts";

/** Interpreters that know PEP 695 (`type X = ...`, `def f[T]`): on PATH, then under pyenv's versions folder. */
function findPep695Python(): string | undefined {
  const candidates = ["python3.13", "python3.12"];
  const home = Deno.env.get("HOME");
  if (home) {
    try {
      const versions = [...Deno.readDirSync(`${home}/.pyenv/versions`)].map((entry) => entry.name)
        .filter((name) => /^3\.(1[2-9]|[2-9]\d)\.\d+$/.test(name)).sort().reverse();
      for (const version of versions) {
        candidates.push(`${home}/.pyenv/versions/${version}/bin/python${version.replace(/\.\d+$/, "")}`);
      }
    } catch { /* no pyenv */ }
  }
  for (const candidate of candidates) {
    try {
      const out = new Deno.Command(candidate, {
        args: ["-c", "import sys; print(sys.version_info >= (3, 12))"],
      })
        .outputSync();
      if (out.success && new TextDecoder().decode(out.stdout).trim() === "True") return candidate;
    } catch { /* not installed */ }
  }
  return undefined;
}

/** A python 3.12 or later executable (PEP 695 syntax), if any. */
export const PYTHON_312 = foundOnce("PYTHON_312", findPep695Python);

/** Reason to skip a test that needs CPython 3.12 or later as its oracle, or undefined. */
export const PYTHON_312_SKIP = skipReason(
  PYTHON_312 ? undefined : "python3.12 or later not found (PATH: python3.13, python3.12; ~/.pyenv/versions)",
);
