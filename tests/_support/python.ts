/**
 * CPython as an independent oracle: `ast.parse` for syntax, `ast.walk` for
 * definitions. Tests skip, saying why, where python3 is absent.
 *
 * @module
 */

import { foundOnce } from "./probe_cache.ts";
import { skipReason } from "./skips.ts";

/**
 * The first of `python3`, `python` that is CPython 3, as the path of its
 * executable (`sys.executable`): a version manager's shim on PATH (pyenv's
 * is a bash script that forks a dozen times) is resolved once here instead
 * of at every oracle call; the interpreter is the one the shim picks.
 */
function findPython(): string | undefined {
  for (const candidate of ["python3", "python"]) {
    try {
      const out = new Deno.Command(candidate, {
        args: ["-c", "import sys; print(sys.version_info[0]); print(sys.executable)"],
      }).outputSync();
      const [major, executable] = new TextDecoder().decode(out.stdout).trim().split("\n");
      if (out.success && major === "3") return executable?.trim() || candidate;
    } catch { /* not installed */ }
  }
  return undefined;
}

/** The python3 executable (its resolved path, or the command name), if any. */
export const PYTHON = foundOnce("PYTHON", findPython);

/** Reason to skip a python-oracle test, or undefined. */
export const PYTHON_SKIP = skipReason(PYTHON ? undefined : "python3 not found on PATH");

/**
 * Run a python script (`options.python`, default python3) with `input` on
 * stdin and return its stdout as JSON. `options.stdlibOnly`: the script
 * imports only the standard library, so the interpreter starts isolated and
 * without `site` (`-I -S`), about half the start-up of a full one.
 */
export async function runPythonJson<T>(
  script: string,
  input: unknown,
  options: { python?: string; stdlibOnly?: boolean } = {},
): Promise<T> {
  const python = options.python ?? PYTHON;
  if (!python) throw new Error(PYTHON_SKIP);
  const child = new Deno.Command(python, {
    args: [...(options.stdlibOnly ? ["-I", "-S"] : []), "-c", script],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  })
    .spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(JSON.stringify(input)));
  await writer.close();
  const out = await child.output();
  if (!out.success) throw new Error(`python failed: ${new TextDecoder().decode(out.stderr)}`);
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

/** A script that runs `call` (an expression of `src`) on each source and lists the SyntaxErrors. */
const syntaxScript = (call: string) => `
import ast, json, sys
out = []
for src in json.load(sys.stdin):
    try:
        ${call}
        out.append(None)
    except SyntaxError as e:
        out.append(f"{e.msg} (line {e.lineno})")
print(json.dumps(out))
`;

const SYNTAX_SCRIPT = syntaxScript("ast.parse(src)");

/** For each source text: null when CPython parses it, else the SyntaxError message. */
export function pythonSyntaxErrors(sources: string[]): Promise<(string | null)[]> {
  return runPythonJson(SYNTAX_SCRIPT, sources, { stdlibOnly: true });
}

/** Assert that CPython parses `source` (no-op where python3 is absent). */
export async function assertPythonParses(source: string, what = "result"): Promise<void> {
  if (!PYTHON) return;
  const [err] = await pythonSyntaxErrors([source]);
  if (err) throw new Error(`CPython rejects the ${what}: ${err}\n---\n${source}`);
}

const COMPILE_SCRIPT = syntaxScript('compile(src, "x.py", "exec")');

/**
 * For each source text: null when CPython's `compile(src, "x.py", "exec")`
 * accepts it, else the SyntaxError message. Unlike `ast.parse`, this runs
 * the compiler's own checks (`'break' outside loop`, `nonlocal` bindings).
 */
export function pythonCompileErrors(sources: string[]): Promise<(string | null)[]> {
  return runPythonJson(COMPILE_SCRIPT, sources, { stdlibOnly: true });
}
