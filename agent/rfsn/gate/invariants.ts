/**
 * The gate's invariant check on a patch: no test weakening.
 *
 * The patch is read and applied in memory (the engine's `lift/unified_diff.ts`
 * and `lift/apply.ts`, their issue codes mapped to the gate's) to the files
 * as `readFile` gives them; nothing is written. Each file it touches is
 * then judged by what it is: a Python test module (one the repository's
 * pytest configuration names, `test_files.ts`) is parsed before and after
 * with tree-sitter and its tests compared structurally
 * (`test_weakening.ts`); test configuration is compared by section
 * (`test_config.ts`); anything else (the code under test) is not the gate's
 * concern here. The policy then decides whether the violations refuse the
 * patch or are only reported.
 *
 * @module
 */

import { type TestFileFacts, testFileFacts } from "../../../engine/analysis/python_tests.ts";
import { error, type Issue, warning } from "../../../engine/issue.ts";
import { withTree } from "../../../engine/parse/mod.ts";
import { DEFAULT_POLICY, type GatePolicy } from "./policy.ts";
import { compareTestConfig, testConfigRole } from "./test_config.ts";
import { compareTestFiles } from "./test_weakening.ts";
import { DEFAULT_TEST_FILES, readTestFileRule, type TestFileRule } from "./test_files.ts";
import { applyHunks } from "../../../engine/lift/apply.ts";
import { parseUnifiedDiff } from "../../../engine/lift/unified_diff.ts";

/** What a touched file is to the gate. */
export type FileRole = "test" | "test-config" | "source";

/** The gate's verdict on a patch's invariants. */
export interface InvariantReport {
  /** No violation the policy does not allow, and the patch could be read and applied. */
  admissible: boolean;
  /** Whether the policy refuses the patch (not admissible, and mode `refuse` or an unreadable patch). */
  refused: boolean;
  policy: GatePolicy;
  /** The violations that refuse the patch, or the problems that kept it from being judged. */
  errors: Issue[];
  /** Violations reported but not refused (policy `report` or `allow`), and softer findings. */
  warnings: Issue[];
  /** Every file the patch touches, with its role and, for test files, the tests compared. */
  files: { file: string; role: FileRole; tests?: number }[];
}

/** Options of `checkInvariants`. */
export interface InvariantOptions {
  /** The file's current text, or null when it does not exist. */
  readFile: (path: string) => Promise<string | null>;
  policy?: GatePolicy;
}

async function factsOf(path: string, text: string | null): Promise<TestFileFacts | null> {
  if (text === null) return null;
  const source = text.startsWith("\uFEFF") ? text.slice(1) : text;
  return await withTree("python", source, (tree) =>
    testFileFacts(
      { path, absPath: path, language: "python", text: source, bom: false, eol: "\n", mode: null },
      tree,
    ));
}

function roleOf(path: string, tests: TestFileRule): FileRole {
  if (testConfigRole(path)) return "test-config";
  return tests.matches(path) ? "test" : "source";
}

/** The gate's public codes for the engine's diff problems (`graphplan gate` reports these). */
const GATE_CODES: Record<string, string> = {
  "diff-invalid": "diff-malformed",
  "hunk-not-applicable": "patch-does-not-apply",
};

function asGateIssue(issue: Issue): Issue {
  return { ...issue, code: GATE_CODES[issue.code] ?? issue.code };
}

/** Check `diff` (a unified diff) against the files `readFile` returns. */
export async function checkInvariants(diff: string, options: InvariantOptions): Promise<InvariantReport> {
  const policy = options.policy ?? DEFAULT_POLICY;
  const parsed = parseUnifiedDiff(diff);
  const problems: Issue[] = parsed.issues.map(asGateIssue);
  const violations: Issue[] = [];
  const files: InvariantReport["files"] = [];
  // Test modules as the repository's pytest configuration (before the patch) names them.
  const tests = parsed.files.length > 0 ? await readTestFileRule(options.readFile) : DEFAULT_TEST_FILES;
  for (const patch of parsed.files) {
    const file = patch.newPath ?? patch.oldPath;
    if (!file) continue;
    const before = patch.oldPath === null ? null : await options.readFile(patch.oldPath);
    if (patch.oldPath !== null && before === null) {
      problems.push(
        error("patch-does-not-apply", `The patch changes "${patch.oldPath}", which does not exist`, {
          file: patch.oldPath,
          hint: "make the patch against the repository's current files",
        }),
      );
      continue;
    }
    let after: string | null = null;
    if (patch.newPath !== null && !patch.binary) {
      const applied = applyHunks(before ?? "", patch.hunks, { file });
      if (applied.issues.length > 0) {
        problems.push(...applied.issues.map(asGateIssue));
        continue;
      }
      after = applied.after;
    }
    const roles = [roleOf(file, tests), patch.oldPath === null ? "source" : roleOf(patch.oldPath, tests)];
    const role: FileRole = roles.includes("test-config")
      ? "test-config"
      : roles.includes("test")
      ? "test"
      : "source";
    const entry: InvariantReport["files"][number] = { file, role };
    files.push(entry);
    if (role === "test-config") {
      const path = testConfigRole(file) ? file : patch.oldPath!;
      violations.push(...compareTestConfig(path, before, after));
    } else if (role === "test" && !patch.binary) {
      const old = await factsOf(patch.oldPath ?? file, before);
      const now = await factsOf(file, after);
      entry.tests = old?.tests.length ?? 0;
      violations.push(...compareTestFiles(file, old, now));
    }
  }
  const refusing = violations.filter((issue) =>
    issue.severity === "error" && !(policy.allow as string[]).includes(issue.code)
  );
  const reported = violations.filter((issue) => !refusing.includes(issue));
  const admissible = problems.length === 0 && refusing.length === 0;
  const refused = problems.length > 0 || (refusing.length > 0 && policy.mode === "refuse");
  const asWarning = (issue: Issue): Issue =>
    issue.severity === "warning" ? issue : warning(issue.code, issue.message, {
      file: issue.file,
      line: issue.line,
      hint: policy.allow.includes(issue.code as never)
        ? "allowed by the gate policy"
        : 'reported, not refused (policy mode "report")',
    });
  return {
    admissible,
    refused,
    policy,
    errors: refused ? [...problems, ...refusing] : problems,
    warnings: [...(refused ? [] : refusing.map(asWarning)), ...reported.map(asWarning)],
    files,
  };
}
