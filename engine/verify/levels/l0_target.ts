/**
 * L0 target version: code an edit writes must run on the oldest Python the
 * repository declares (`engine/analysis/python_version.ts`; 3.8 when it
 * declares none, see below). Syntax newer than that (`engine/analysis/syntax_features.ts`)
 * in the changed region is an error, `syntax-too-new`.
 *
 * ## Nothing declared: a warning
 *
 * A repository that declares no version (CPython's own standard library, a
 * script folder, a checkout of a few files) has no minimum to violate:
 * 3.8 is only assumed. There the finding is a `syntax-too-new` warning,
 * which tells the writer and refuses nothing; CPython compiling the file is
 * the judge. Declared versions keep the error.
 *
 * ## What the file already uses is the project's choice
 *
 * Metadata lags behind code: a package may declare `>=3.6` while one of its
 * modules already uses `match`. That module cannot even be compiled on an
 * older Python, so more of the same syntax in it costs nothing; refusing it
 * would refuse the project's own style. The effective target of a file is
 * therefore the newer of the declared version and the newest syntax the
 * file used before the edit. Only new occurrences (`novelty.ts`) in the
 * changed region are judged, and only against that effective target: a
 * walrus added to a file that has one is fine, a walrus added to a file
 * that has none is refused for a 3.7 project.
 *
 * @module
 */

import { compareVersions, formatVersion, repositoryPythonTarget } from "../../analysis/python_version.ts";
import { pythonFeatures, type SyntaxFeature } from "../../analysis/syntax_features.ts";
import { error, type Issue, warning } from "../../base/issue.ts";
import type { Document } from "../../parse/documents.ts";
import { changedRange, newFindings } from "./novelty.ts";
import { clip } from "./quote.ts";

/** The `syntax-too-new` findings of a change to a Python file: errors, warnings when no version is declared. */
export function newTargetIssues(
  path: string,
  before: Document,
  after: Document,
  options: { step: number; root: string },
): Issue[] {
  if (after.file.language !== "python") return [];
  const range = changedRange(before, after);
  if (!range) return [];
  const target = repositoryPythonTarget(options.root);
  const next = { major: 3, minor: target.version.minor + 1 };
  const found = pythonFeatures(after.tree.rootNode, { range: range.after, atLeast: next });
  if (found.length === 0) return [];
  const beforeFeatures = before.file.language === "python"
    ? pythonFeatures(before.tree.rootNode, { atLeast: next })
    : [];
  const keyed = (list: SyntaxFeature[]) => list.map((f) => ({ ...f, key: f.feature }));
  const fresh = newFindings(before, after, keyed(beforeFeatures), keyed(found));
  // The newest syntax the file already used raises its own target (see the module notes).
  let effective = target.version;
  for (const feature of beforeFeatures) {
    if (compareVersions(feature.since, effective) > 0) effective = feature.since;
  }
  const declared = target.source === "default"
    ? `no Python version is declared, ${formatVersion(target.version)} is assumed`
    : `the repository supports ${formatVersion(target.version)} (${target.source})`;
  const severity = target.source === "default" ? warning : error;
  return fresh.filter((feature) => compareVersions(feature.since, effective) > 0).map((feature) =>
    severity(
      "syntax-too-new",
      `Edit uses ${feature.description} in "${path}" at line ${feature.line}, which needs Python ${
        formatVersion(feature.since)
      }: ${declared}: "${clip(feature.text)}"`,
      {
        level: "L0",
        step: options.step,
        file: path,
        line: feature.line,
        hint: hintFor(feature),
      },
    )
  );
}

function hintFor(feature: SyntaxFeature): string {
  switch (feature.feature) {
    case "fstring-quote-reuse":
      return "use the other quote character inside the braces, or compute the value in a variable first";
    case "fstring-backslash":
    case "fstring-comment":
      return "compute the value in a variable before the f-string and put only the name in the braces";
    case "parenthesized-with":
      return "write the context managers on one line, or nest the with statements";
    default:
      return `write it without ${feature.description}, or raise the declared minimum Python version`;
  }
}
