/**
 * Test configuration: the files and sections that decide which tests run
 * and how their outcomes count. A `conftest.py` (hooks, fixtures, collection
 * rules) and `pytest.ini` are test configuration as a whole; in `tox.ini`,
 * `setup.cfg` and `pyproject.toml` only the pytest sections are (`[pytest]`,
 * `[tool:pytest]`, `[tool.pytest.*]`, tox's `[testenv*]`), so a change to a
 * package's metadata in the same file is not one.
 *
 * INI and TOML files are compared by their structure: sections by name, each
 * section's entries with blank lines and comments dropped.
 *
 * @module
 */

import { isConftest } from "../../../engine/analysis/python_tests.ts";
import { error, type Issue } from "../../../engine/issue.ts";

/** How a file configures the test run: wholly, by some of its sections, or not at all. */
export function testConfigRole(path: string): "whole" | "sections" | undefined {
  if (isConftest(path) || /(^|\/)pytest\.ini$/.test(path)) return "whole";
  if (/(^|\/)(tox\.ini|setup\.cfg|pyproject\.toml)$/.test(path)) return "sections";
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

/** The `test-config-changed` issues of one file's change (`null` text: the file is absent on that side). */
export function compareTestConfig(file: string, before: string | null, after: string | null): Issue[] {
  const role = testConfigRole(file);
  if (!role || before === after) return [];
  const hint = "test configuration is not part of a fix; change the code under test";
  if (role === "whole") {
    const what = before === null ? "added" : after === null ? "deleted" : "changed";
    return [error("test-config-changed", `Test configuration ${what}: "${file}"`, { file, line: 1, hint })];
  }
  const issues: Issue[] = [];
  const old = new Map(sectionsOf(before ?? "").map((s) => [s.name, s]));
  const now = new Map(sectionsOf(after ?? "").map((s) => [s.name, s]));
  for (const name of new Set([...old.keys(), ...now.keys()])) {
    if (!isTestSection(file, name)) continue;
    const a = old.get(name);
    const b = now.get(name);
    if (a && b && a.entries.join("\n") === b.entries.join("\n")) continue;
    const what = !a ? "added" : !b ? "removed" : "changed";
    issues.push(error("test-config-changed", `Test configuration section "[${name}]" ${what} in "${file}"`, {
      file,
      line: (b ?? a)!.line,
      hint,
    }));
  }
  return issues;
}
