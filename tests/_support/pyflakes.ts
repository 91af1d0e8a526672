/**
 * CPython and pyflakes as the judges of a Python edit: for a file's text
 * before and after a change, the problems the change brought that make the
 * code broken, found by tools that share no code with GraphPlan.
 *
 * "Broken" is: `compile()` refuses the new text (CPython 3 on PATH, so
 * statement-context errors count too); `ast.parse` with `feature_version`
 * at the repository's declared minimum (3.4 or later; 3.4 stands for older
 * ones) refuses it (an f-string in a Python 2.7 project); pyflakes reports
 * an undefined name (F821), a local used before its assignment (F823), an
 * undefined name in `__all__` or a syntax error. Unused imports,
 * redefinitions and other style findings are not breakage. A finding is
 * the change's only when the text before did not have it (compared by kind
 * and message without line numbers, counted).
 *
 * pyflakes is looked for with `python3 -c "import pyflakes"`, then with the
 * system interpreter that `apt-get install python3-pyflakes` fills; tests
 * that need it skip with a reason when neither has it.
 *
 * @module
 */

import { foundOnce } from "./probe_cache.ts";
import { skipReason } from "./skips.ts";

function findPyflakesPython(): string | undefined {
  for (const candidate of ["python3", "/usr/bin/python3"]) {
    try {
      // The executable's own path: a version manager's shim is resolved once, not at every call.
      const out = new Deno.Command(candidate, {
        args: ["-c", "import pyflakes, sys; print(sys.executable)"],
        stderr: "null",
      }).outputSync();
      if (out.success) return new TextDecoder().decode(out.stdout).trim() || candidate;
    } catch { /* not installed */ }
  }
  return undefined;
}

/** A python3 that can import pyflakes, if any. */
export const PYFLAKES_PYTHON = foundOnce("PYFLAKES", findPyflakesPython);

/** Reason to skip a pyflakes-oracle test, or undefined. */
export const PYFLAKES_SKIP = skipReason(
  PYFLAKES_PYTHON ? undefined : "pyflakes not found (apt-get install -y python3-pyflakes)",
);

/** One file to judge. */
export interface OracleInput {
  path: string;
  /** Null for a file the change creates. */
  before: string | null;
  after: string;
  /** The repository's declared minimum Python, `[3, 6]`; omitted: no version check. */
  minimum?: [number, number];
}

const ORACLE_SCRIPT = `
import ast, json, sys, collections
from pyflakes import api, messages, reporter as rep

BROKEN = (messages.UndefinedName, messages.UndefinedLocal, messages.UndefinedExport)

class Collect:
    def __init__(self): self.found = []
    def unexpectedError(self, filename, msg): self.found.append("error: " + str(msg))
    def syntaxError(self, filename, msg, lineno, offset, text): self.found.append("syntax: " + str(msg))
    def flake(self, m):
        if isinstance(m, BROKEN):
            self.found.append(type(m).__name__ + ": " + (m.message % m.message_args))

def problems(src, path, minimum):
    out = []
    try:
        compile(src, path, "exec")
    except (SyntaxError, ValueError) as e:
        out.append("compile: " + str(getattr(e, "msg", e)))
        return out
    if minimum is not None:
        version = tuple(minimum) if tuple(minimum) >= (3, 4) else (3, 4)
        try:
            ast.parse(src, path, feature_version=version)
        except SyntaxError as e:
            out.append("version: " + str(e.msg))
    c = Collect()
    api.check(src, path, c)
    return out + c.found

result = []
for item in json.load(sys.stdin):
    after = problems(item["after"], item["path"], item.get("minimum"))
    before = collections.Counter(
        problems(item["before"], item["path"], item.get("minimum")) if item["before"] is not None else [])
    new = []
    for p in after:
        if before[p] > 0: before[p] -= 1
        else: new.append(p)
    result.append(new)
print(json.dumps(result))
`;

/** For each input, the problems its change brought (empty: not broken). Throws without pyflakes. */
export function brokenByChange(inputs: readonly OracleInput[]): Promise<string[][]> {
  return runOracle(ORACLE_SCRIPT, inputs);
}

const REJECTED_SCRIPT = `
import json, sys
def rejects(src, path):
    try:
        compile(src, path, "exec")
        return False
    except (SyntaxError, ValueError):
        return True
print(json.dumps([item["before"] is not None and rejects(item["before"], item["path"])
                  and rejects(item["after"], item["path"]) for item in json.load(sys.stdin)]))
`;

/**
 * For each input, whether CPython's `compile()` refuses its text both
 * before and after the change (Python 2 code, a template with
 * placeholders): the oracle has no verdict on such a file, so a checker's
 * refusal of it is neither a catch nor a false alarm. Throws without pyflakes.
 */
export function rejectedBothWays(inputs: readonly OracleInput[]): Promise<boolean[]> {
  return runOracle(REJECTED_SCRIPT, inputs);
}

/** Run one oracle script on `inputs` (JSON on stdin) and parse the JSON it prints. */
async function runOracle<T>(script: string, inputs: readonly OracleInput[]): Promise<T> {
  if (!PYFLAKES_PYTHON) throw new Error(PYFLAKES_SKIP);
  const child = new Deno.Command(PYFLAKES_PYTHON, {
    args: ["-c", script],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(JSON.stringify(inputs)));
  await writer.close();
  const out = await child.output();
  if (!out.success) throw new Error(`python failed: ${new TextDecoder().decode(out.stderr)}`);
  return JSON.parse(new TextDecoder().decode(out.stdout));
}
