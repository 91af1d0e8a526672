/**
 * Which Python files are test modules, as the repository's own pytest
 * configuration says: its `python_files` globs, read from the file pytest
 * itself would take as its configuration at the repository root. Pytest
 * looks, in this order, for `pytest.toml` (pytest 9, its `[pytest]` table)
 * and `pytest.ini` (each also as a dot file; these count even without a
 * `[pytest]` section), `pyproject.toml` with a
 * `[tool.pytest.ini_options]` (or pytest 9's `[tool.pytest]`) table,
 * `tox.ini` with `[pytest]`, and `setup.cfg` with `[tool:pytest]`; the first
 * one found decides, and a later file is not read even when the first sets
 * no `python_files`.
 *
 * Without a setting the names pytest and unittest discover by default are
 * test modules (`test_*.py`, `*_test.py`, and `tests.py`, as the gate always
 * took them). A glob matches the file's name when it has no `/`, else the
 * end of its path (pytest's `fnmatch_ex`); `*` and `?` cross `/` as in
 * Python's `fnmatch`. `testpaths` is not used: it only says where pytest
 * looks when given no paths, and a test module elsewhere still runs when
 * named.
 *
 * For example, with `setup.cfg` holding
 *
 * ```ini
 * [tool:pytest]
 * python_files = check_*.py
 *     *_spec.py
 * ```
 *
 * `tests/check_io.py` and `pkg/io_spec.py` are test modules and
 * `tests/test_io.py` is not.
 *
 * @module
 */

import { parse as parseToml } from "smol-toml";
import { isPythonTestFile } from "../analysis/python_tests.ts";

/** How test modules are recognised in one repository. */
export interface TestFileRule {
  /** The configuration file the globs come from, or null for the defaults. */
  source: string | null;
  /** The `python_files` globs (empty for the defaults). */
  patterns: string[];
  /** Whether `path` (repository-relative) is a test module. */
  matches(path: string): boolean;
}

/** The rule when the repository configures nothing: pytest's and unittest's default names. */
export const DEFAULT_TEST_FILES: TestFileRule = Object.freeze({
  source: null,
  patterns: [],
  matches: isPythonTestFile,
});

/** A Python `fnmatch` glob as a regular expression over a whole string. */
function globRegex(glob: string): RegExp {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === "*") out += ".*";
    else if (c === "?") out += ".";
    else if (c === "[") {
      const end = glob.indexOf("]", i + 2);
      if (end === -1) out += "\\[";
      else {
        let set = glob.slice(i + 1, end).replace(/\\/g, "\\\\");
        if (set.startsWith("!")) set = `^${set.slice(1)}`;
        out += `[${set}]`;
        i = end;
      }
    } else out += c.replace(/[.+^${}()|\\\]]/g, "\\$&");
  }
  return new RegExp(`^${out}$`);
}

/** A rule from the `python_files` globs of `source`. */
export function testFileRule(source: string, patterns: string[]): TestFileRule {
  // A glob with a "/" is matched against the path as pytest sees it (absolute), after any directory.
  const compiled = patterns.map((glob) =>
    glob.includes("/")
      ? { byName: false, regex: globRegex(glob.startsWith("/") ? glob : `*/${glob}`) }
      : { byName: true, regex: globRegex(glob) }
  );
  return {
    source,
    patterns,
    matches: (path) =>
      path.endsWith(".py") &&
      compiled.some(({ byName, regex }) =>
        regex.test(byName ? path.slice(path.lastIndexOf("/") + 1) : `/${path}`)
      ),
  };
}

/**
 * The entries of INI section `name` in `text` (iniconfig's reading, as pytest
 * does it: `key = value` or `key: value`, indented lines continue a value,
 * `#`/`;` lines are comments), or undefined when there is no such section.
 */
export function iniSection(text: string, name: string): Map<string, string> | undefined {
  let entries: Map<string, string> | undefined;
  let inSection = false;
  let last: string | undefined;
  for (const raw of text.replace(/^\uFEFF/, "").split(/\r?\n/)) {
    const line = raw.trimEnd();
    if (line.trim() === "" || /^\s*[#;]/.test(line)) continue;
    const header = /^\[([^\]]+)\]/.exec(line);
    if (header) {
      inSection = header[1].trim() === name;
      if (inSection) entries ??= new Map();
      last = undefined;
      continue;
    }
    if (!inSection) continue;
    if (/^\s/.test(line) && last !== undefined) {
      entries!.set(last, `${entries!.get(last)}\n${line.trim()}`);
      continue;
    }
    const pair = /^([^=:]+?)\s*[=:]\s*(.*)$/.exec(line);
    if (!pair) continue;
    last = pair[1].trim();
    entries!.set(last, pair[2]);
  }
  return entries;
}

function splitGlobs(value: unknown): string[] | undefined {
  if (typeof value === "string") return value.split(/\s+/).filter(Boolean);
  if (Array.isArray(value) && value.every((item) => typeof item === "string")) {
    return value.flatMap((item) => item.split(/\s+/)).filter(Boolean);
  }
  return undefined;
}

function fromIni(source: string, section: Map<string, string> | undefined): TestFileRule | undefined {
  if (!section) return undefined;
  const globs = splitGlobs(section.get("python_files"));
  return globs?.length ? testFileRule(source, globs) : DEFAULT_TEST_FILES;
}

type Table = Record<string, unknown>;

function tableAt(data: Table | undefined, key: string): Table | undefined {
  const value = data?.[key];
  return value && typeof value === "object" && !Array.isArray(value) ? value as Table : undefined;
}

/** The rule of a TOML file's pytest table (`path` into the document), undefined without one. */
function fromToml(source: string, text: string, path: string[]): TestFileRule | undefined {
  let table: Table | undefined;
  try {
    table = parseToml(text) as Table;
  } catch {
    return undefined; // pytest would stop on it; the defaults are the better guess here
  }
  for (const key of path) table = tableAt(table, key);
  if (!table) return undefined;
  const settings = tableAt(table, "ini_options") ?? table;
  const globs = splitGlobs(settings.python_files);
  return globs?.length ? testFileRule(source, globs) : DEFAULT_TEST_FILES;
}

/**
 * The test-module rule of the repository whose root files `readFile` gives
 * (null when a file is absent): its pytest configuration, or the defaults.
 */
export async function readTestFileRule(
  readFile: (path: string) => Promise<string | null>,
): Promise<TestFileRule> {
  for (const name of ["pytest.toml", ".pytest.toml"]) {
    const text = await readFile(name);
    if (text !== null) return fromToml(name, text, ["pytest"]) ?? DEFAULT_TEST_FILES;
  }
  for (const name of ["pytest.ini", ".pytest.ini"]) {
    const text = await readFile(name);
    if (text !== null) return fromIni(name, iniSection(text, "pytest") ?? new Map()) ?? DEFAULT_TEST_FILES;
  }
  const pyproject = await readFile("pyproject.toml");
  const configured = pyproject === null
    ? undefined
    : fromToml("pyproject.toml", pyproject, ["tool", "pytest"]);
  if (configured) return configured;
  for (const [name, section] of [["tox.ini", "pytest"], ["setup.cfg", "tool:pytest"]]) {
    const text = await readFile(name);
    const rule = text === null ? undefined : fromIni(name, iniSection(text, section));
    if (rule) return rule;
  }
  return DEFAULT_TEST_FILES;
}
