/**
 * Test configuration: the files and sections that decide which tests run
 * and how their outcomes count. A `conftest.py` (hooks, fixtures, collection
 * rules) is test code judged by what it does (`test_weakening.ts`:
 * `compareFunctions`); in `pytest.ini`, `tox.ini`, `setup.cfg` and
 * `pyproject.toml` the pytest sections are
 * (`[pytest]`, `[tool:pytest]`, `[tool.pytest.*]`, tox's `[testenv*]`), so a
 * change to a package's metadata in the same file is not one.
 *
 * INI and TOML files are compared by their structure: sections by name, each
 * section's entries with blank lines and comments dropped. A changed section
 * whose only change adds reporting flags (`-rA`, `-v`, `--tb=short`,
 * `--durations=N`: what the SWE-bench harness itself adds to the pytest
 * command) to `addopts` or a tox `commands` line, or registers markers, is
 * the warning `test-config-reporting`: it changes what is printed, not
 * which tests run or how they count. Anything else is `test-config-changed`.
 *
 * @module
 */

import { isConftest } from "../analysis/python_tests.ts";
import { iniSection } from "./test_files.ts";
import { error, type Issue, warning } from "../base/issue.ts";

/** How a file configures the test run: wholly, by some of its sections, or not at all. */
export function testConfigRole(path: string): "sections" | "code" | undefined {
  if (isConftest(path)) return "code";
  if (/(^|\/)(\.?pytest\.ini|tox\.ini|setup\.cfg|pyproject\.toml)$/.test(path)) return "sections";
  return undefined;
}

function isTestSection(file: string, name: string): boolean {
  if (name === "pytest" || name === "tool:pytest" || /^tool\.pytest(\.|$)/.test(name)) return true;
  return /(^|\/)tox\.ini$/.test(file) && /^testenv(:|$)/.test(name);
}

interface Section {
  name: string;
  line: number;
  entries: string[];
}

/** The sections of an INI or TOML file with their meaningful lines. */
export function sectionsOf(text: string): Section[] {
  const sections: Section[] = [{ name: "", line: 1, entries: [] }];
  text.split("\n").forEach((raw, index) => {
    const line = raw.trim();
    if (line === "" || line.startsWith("#") || line.startsWith(";")) return;
    const header = /^\[\[?\s*([^\]]+?)\s*\]\]?$/.exec(line);
    if (header) sections.push({ name: header[1].replace(/["']/g, ""), line: index + 1, entries: [] });
    else sections.at(-1)!.entries.push(line.replace(/\s*=\s*/, " = "));
  });
  return sections;
}

const REPORTING_FLAG =
  /^(-r[a-zA-Z]*|-v+|-q+|--verbose|--quiet|-l|--showlocals|--tb=\w+|--durations=\d+|--durations-min=[\d.]+|--color=\w+|--code-highlight=\w+|-s|--capture=(no|sys|fd|tee-sys)|--no-header|--no-summary|--strict-markers|--strict-config)$/;

function tokens(line: string): string[] {
  return line.split(/\s+/).filter(Boolean);
}

/** Whether a value changed only by gaining reporting flags (`addopts`, a tox `commands` line). */
function onlyFlagsAdded(old: string, now: string): boolean {
  const before = tokens(old);
  const after = tokens(now);
  return added(after, before).length === 0 &&
    added(before, after).every((token) => REPORTING_FLAG.test(token));
}

/** Whether a marker registration list only gained lines. */
function onlyMarkersAdded(old: string, now: string): boolean {
  return added(now.split("\n").map((l) => l.trim()), old.split("\n").map((l) => l.trim())).length === 0;
}

/**
 * Whether section `name` changed only by reporting flags or marker
 * registrations: INI files key by key (iniconfig's reading), TOML line by line.
 */
function onlyReporting(
  file: string,
  name: string,
  before: string,
  after: string,
  a: Section,
  b: Section,
): boolean {
  if (/\.toml$/.test(file)) {
    if (added(b.entries, a.entries).length > 0) {
      return a.entries.length === b.entries.length &&
        a.entries.every((line, i) => line === b.entries[i] || onlyFlagsAdded(line, b.entries[i]));
    }
    return added(a.entries, b.entries).every((line) => /^markers = \[?|^["'][\w-]+[:"']/.test(line));
  }
  const old = iniSection(before, name) ?? new Map<string, string>();
  const now = iniSection(after, name) ?? new Map<string, string>();
  for (const key of new Set([...old.keys(), ...now.keys()])) {
    const x = old.get(key) ?? "";
    const y = now.get(key) ?? "";
    if (x === y) continue;
    if (key === "markers" && onlyMarkersAdded(x, y)) continue;
    if ((key === "addopts" || key === "commands") && onlyFlagsAdded(x, y)) continue;
    return false;
  }
  return true;
}

function added(before: string[], after: string[]): string[] {
  const counts = new Map<string, number>();
  for (const item of before) counts.set(item, (counts.get(item) ?? 0) + 1);
  return after.filter((item) => {
    const left = counts.get(item) ?? 0;
    if (left > 0) counts.set(item, left - 1);
    return left === 0;
  });
}

/** The `test-config-changed` issues of one file's change (`null` text: the file is absent on that side). */
export function compareTestConfig(file: string, before: string | null, after: string | null): Issue[] {
  const role = testConfigRole(file);
  if (!role || role === "code" || before === after) return [];
  const hint = "test configuration is not part of a fix; change the code under test";
  const issues: Issue[] = [];
  const old = new Map(sectionsOf(before ?? "").map((s) => [s.name, s]));
  const now = new Map(sectionsOf(after ?? "").map((s) => [s.name, s]));
  for (const name of new Set([...old.keys(), ...now.keys()])) {
    if (!isTestSection(file, name)) continue;
    const a = old.get(name);
    const b = now.get(name);
    if (a && b && a.entries.join("\n") === b.entries.join("\n")) continue;
    const what = !a ? "added" : !b ? "removed" : "changed";
    if (a && b && onlyReporting(file, name, before!, after!, a, b)) {
      issues.push(
        warning(
          "test-config-reporting",
          `Test configuration section "[${name}]" in "${file}" only adds reporting or markers`,
          {
            file,
            line: b.line,
          },
        ),
      );
      continue;
    }
    issues.push(error("test-config-changed", `Test configuration section "[${name}]" ${what} in "${file}"`, {
      file,
      line: (b ?? a)!.line,
      hint,
    }));
  }
  return issues;
}
