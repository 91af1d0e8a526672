/**
 * The oldest Python a repository says it supports, read from its packaging
 * metadata at the root, in this order:
 *
 * 1. `requires-python` in `pyproject.toml` (PEP 621), or Poetry's
 *    `python = "^3.7"` under `[tool.poetry.dependencies]`;
 * 2. `python_requires` in `setup.cfg` or `setup.py`;
 * 3. the lowest `Programming Language :: Python :: 3.N` classifier in any
 *    of the three files;
 * 4. otherwise 3.8, the oldest version still common.
 *
 * A specifier's lower bound is read from `>=`, `>`, `~=`, `==`, `^` and
 * `~` clauses (the highest of them), then moved past the minors that `!=`
 * clauses exclude (`>=2.7, !=3.0.*, !=3.1.*` → 3.2). A bound below 3 means
 * 3.0: GraphPlan judges Python 3 syntax only.
 *
 * @module
 */

/** A Python version, major and minor. */
export interface PythonVersion {
  major: number;
  minor: number;
}

/** Where the target came from. */
export interface PythonTarget {
  version: PythonVersion;
  /** `pyproject.toml requires-python ">=3.6"`, or `default` when nothing was declared. */
  source: string;
}

/** The target assumed when a repository declares none. */
export const DEFAULT_TARGET: PythonVersion = { major: 3, minor: 8 };

/** `3.8` */
export function formatVersion(version: PythonVersion): string {
  return `${version.major}.${version.minor}`;
}

/** Negative, zero or positive as `a` is older than, equal to or newer than `b`. */
export function compareVersions(a: PythonVersion, b: PythonVersion): number {
  return a.major - b.major || a.minor - b.minor;
}

/** Reads a repository-relative file, undefined when it does not exist. */
export type FileReader = (path: string) => string | undefined;

/** The repository's declared minimum Python (see the module notes). */
export function pythonTarget(read: FileReader): PythonTarget {
  const pyproject = read("pyproject.toml");
  const cfg = read("setup.cfg");
  const setup = read("setup.py");
  const declared: [string, string | undefined, RegExp][] = [
    ["pyproject.toml requires-python", pyproject, /^\s*requires-python\s*=\s*["']([^"']+)["']/m],
    ["pyproject.toml tool.poetry python", poetrySection(pyproject), /^\s*python\s*=\s*["']([^"']+)["']/m],
    ["setup.cfg python_requires", cfg, /^\s*python_requires\s*=\s*([^\n#;]+)/m],
    ["setup.py python_requires", setup, /python_requires\s*=\s*["']([^"']+)["']/],
  ];
  for (const [where, text, pattern] of declared) {
    const spec = text && pattern.exec(text)?.[1]?.trim();
    const version = spec ? lowerBound(spec) : undefined;
    if (version) return { version, source: `${where} "${spec}"` };
  }
  let lowest: PythonVersion | undefined;
  for (const text of [pyproject, cfg, setup]) {
    for (const match of (text ?? "").matchAll(/Programming Language :: Python :: (3)\.(\d+)\b/g)) {
      const version = { major: 3, minor: Number(match[2]) };
      if (!lowest || compareVersions(version, lowest) < 0) lowest = version;
    }
  }
  if (lowest) return { version: lowest, source: `classifier "Python :: ${formatVersion(lowest)}"` };
  return { version: DEFAULT_TARGET, source: "default" };
}

/** The text of `[tool.poetry.dependencies]`, if any. */
function poetrySection(text: string | undefined): string | undefined {
  if (!text) return undefined;
  const start = text.search(/^\[tool\.poetry\.dependencies\]\s*$/m);
  if (start === -1) return undefined;
  const rest = text.slice(start).split("\n").slice(1);
  const end = rest.findIndex((line) => line.startsWith("["));
  return (end === -1 ? rest : rest.slice(0, end)).join("\n");
}

/** The lowest Python 3 version a version specifier admits, or undefined when it names none. */
export function lowerBound(spec: string): PythonVersion | undefined {
  let bound: PythonVersion | undefined;
  const excluded = new Set<number>();
  for (const raw of spec.split(/[,|]/)) {
    const clause = /^\s*(>=|>|<=|<|~=|===|==|\^|~|!=)?\s*v?(\d+)(?:\.(\d+|\*))?/.exec(raw);
    if (!clause) continue;
    const op = clause[1] ?? "==";
    const major = Number(clause[2]);
    const minor = clause[3] === undefined || clause[3] === "*" ? 0 : Number(clause[3]);
    if (op === "<" || op === "<=") continue;
    if (op === "!=") {
      if (major === 3 && clause[3] !== undefined && clause[3] !== "*") excluded.add(minor);
      continue;
    }
    let version = { major, minor };
    if (op === ">") version = { major, minor: minor + 1 };
    if (version.major < 3) version = { major: 3, minor: 0 };
    if (version.major > 3) continue;
    if (!bound || compareVersions(version, bound) > 0) bound = version;
  }
  if (!bound && excluded.size === 0) return undefined;
  bound ??= { major: 3, minor: 0 };
  while (excluded.has(bound.minor)) bound = { major: 3, minor: bound.minor + 1 };
  return bound;
}

const METADATA = ["pyproject.toml", "setup.cfg", "setup.py"];
const cache = new Map<string, { stamp: string; target: PythonTarget }>();

/**
 * The declared target of the repository at `root` (an absolute directory),
 * cached until one of its metadata files changes.
 */
export function repositoryPythonTarget(root: string): PythonTarget {
  const stamp = METADATA.map((name) => {
    try {
      const info = Deno.statSync(`${root}/${name}`);
      return `${info.size}:${info.mtime?.getTime()}`;
    } catch {
      return "-";
    }
  }).join("|");
  const hit = cache.get(root);
  if (hit && hit.stamp === stamp) return hit.target;
  const target = pythonTarget((path) => {
    try {
      return Deno.readTextFileSync(`${root}/${path}`);
    } catch {
      return undefined;
    }
  });
  cache.set(root, { stamp, target });
  return target;
}

/** The minimum Python the repository at `root` declares, undefined when it declares none (no default assumed). */
export function declaredPythonMinimum(root: string): PythonVersion | undefined {
  const target = repositoryPythonTarget(root);
  return target.source === "default" ? undefined : target.version;
}
