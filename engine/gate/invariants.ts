/**
 * The gate's invariant check on a patch: no test weakening.
 *
 * The patch is read and applied in memory (the engine's `lift/unified_diff.ts`
 * and `lift/apply.ts`, their issue codes mapped to the gate's) to the files
 * as `readFile` gives them; nothing is written. Each file it touches is
 * then judged by what it is (`FileRole`): a Python test module (one the
 * repository's pytest configuration names, `test_files.ts`) by the meaning
 * of its tests before and after (`test_meaning.ts`, `test_weakening.ts`; a
 * module renamed out of the collected names has lost its tests); a support
 * module (`conftest.py`, helpers under `tests/`, `testing/`) by its
 * functions' checks, hooks and import-time statements, test data by its
 * lines (`test_code.ts`); test configuration by section (`test_config.ts`);
 * the code under test only for exits at import. The policy then decides
 * whether the violations refuse the patch or are only reported.
 *
 * @module
 */

import { error, type Issue, warning } from "../base/issue.ts";
import type { IssueCode } from "../base/issue_codes.ts";
import { DEFAULT_POLICY, type GatePolicy } from "./policy.ts";
import { compareTestConfig, testConfigRole } from "./test_config.ts";
import { compareFunctions, compareTestFiles, importIssues } from "./test_weakening.ts";
import { type FileMeaning, fileMeaning } from "./test_meaning.ts";
import { lastSegment } from "./names.ts";
import { compareTestData, configuredModule, testCodeRole } from "./test_code.ts";
import { DEFAULT_TEST_FILES, readTestFileRule, type TestFileRule } from "./test_files.ts";
import { applyHunks } from "../lift/apply.ts";
import { parseUnifiedDiff } from "../lift/unified_diff.ts";

/**
 * What a touched file is to the gate: a collected test module, test
 * configuration, a support module (`conftest.py`, helpers), test data, or
 * the code under test.
 */
export type FileRole = "test" | "test-config" | "test-support" | "test-data" | "source";

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

function roleOf(path: string, tests: TestFileRule): FileRole {
  const config = testConfigRole(path);
  if (config === "sections") return "test-config";
  if (config === "code") return "test-support";
  if (tests.matches(path)) return "test";
  return testCodeRole(path) ?? "source";
}

const ROLE_ORDER: FileRole[] = ["test-config", "test", "test-support", "test-data", "source"];

/** The gate's public codes for the engine's diff problems (`graphplan gate` reports these). */
const GATE_CODES: Partial<Record<IssueCode, IssueCode>> = {
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
    const role = ROLE_ORDER.find((r) => roles.includes(r))!;
    const entry: InvariantReport["files"][number] = { file, role };
    files.push(entry);
    const judged = await judgeFile({ file, oldPath: patch.oldPath, newPath: patch.newPath, role, tests }, {
      before,
      after: patch.binary && patch.newPath !== null ? before : after,
      readFile: options.readFile,
    });
    if (judged.tests !== undefined) entry.tests = judged.tests;
    violations.push(...judged.issues);
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

interface Touched {
  file: string;
  oldPath: string | null;
  newPath: string | null;
  role: FileRole;
  tests: TestFileRule;
}

/**
 * The issues of one touched file, by its role (`before`/`after` null: absent
 * on that side). A test module renamed to a name pytest does not collect has
 * lost its tests; a Python source file is only checked for exits at import.
 */
async function judgeFile(
  touched: Touched,
  texts: { before: string | null; after: string | null; readFile: InvariantOptions["readFile"] },
): Promise<{ issues: Issue[]; tests?: number }> {
  const { file, oldPath, newPath, role, tests } = touched;
  const { before, after } = texts;
  if (role === "test-config") {
    const path = testConfigRole(file) ? file : oldPath!;
    return { issues: compareTestConfig(path, before, after) };
  }
  if (role === "test-data") {
    const module = configuredModule(file);
    const configures = module !== undefined && before === null && (await texts.readFile(module)) !== null;
    return { issues: compareTestData(file, before, after, configures) };
  }
  if (!file.endsWith(".py") && !(oldPath ?? "").endsWith(".py")) return { issues: [] };
  if (role === "source") {
    // The code under test: only what stops the test run at import.
    if (after === null || !/exit|abort|kill|SystemExit|KeyboardInterrupt/.test(after)) return { issues: [] };
    const old = await fileMeaning(oldPath ?? file, before, true);
    const now = (await fileMeaning(file, after, true))!;
    return { issues: importIssues(file, old, now, false) };
  }
  const old = await fileMeaning(oldPath ?? file, before);
  const now = await fileMeaning(file, after);
  if (role === "test") {
    const collected = newPath !== null && tests.matches(newPath);
    const issues = compareTestFiles(file, old, collected ? now : null, { collected });
    issues.push(...compareFunctions(file, old, now, { removedCounts: false, conftest: false }));
    return { issues, tests: old?.tests.length ?? 0 };
  }
  if (role === "test-support") {
    const conftest = testConfigRole(file) === "code" ||
      (oldPath !== null && testConfigRole(oldPath) === "code");
    const issues = compareFunctions(file, old, now, { removedCounts: true, conftest });
    if (now) {
      // Tests in a module pytest does not collect are not run: their markers do not matter.
      const ran = (m: FileMeaning | null) =>
        m && { ...m, markers: m.markers.filter((marker) => !lastSegment(marker.scope).startsWith("test")) };
      issues.push(...importIssues(file, ran(old), ran(now)!, old === null && !conftest));
    }
    return { issues };
  }
  return { issues: [] };
}
