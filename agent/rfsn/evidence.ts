/**
 * Evidence read from test output: the failing tests, the exception types
 * and the traceback frames, for pytest (`-rf` summary lines, `--tb=long`
 * and `--tb=short` frames, `E   Error: ...` lines), unittest (`FAIL:`/`ERROR:`
 * headers) and plain Python tracebacks (`File "...", line N, in f`).
 *
 * The frame that localizes a failure is the *first project frame* counted
 * from where the exception was raised: frames in the standard library,
 * `site-packages`/`dist-packages`, pytest's and unittest's own machinery,
 * `<frozen ...>` and `<string>` are skipped, and so are test files when a
 * project frame outside the tests exists. Test files are the ones the
 * repository's pytest configuration names (`engine/gate/test_files.ts`), which
 * the caller reads once and passes in; without it, the default names.
 *
 * @module
 */

import { DEFAULT_TEST_FILES, type TestFileRule } from "../../engine/gate/mod.ts";

/** One traceback frame: a file (repository-relative when it could be made so), a line and a function. */
export interface Frame {
  file: string;
  line: number;
  func: string | null;
}

/** Everything one test run's output says about its failures. */
export interface Evidence {
  failing_tests: string[];
  exception_types: string[];
  /** Frames in the order printed (outermost first), across all failures. */
  frames: Frame[];
  /** The test-narrative: the first exception line (`ZeroDivisionError: division by zero`). */
  narrative: string | null;
}

const unique = <T>(items: T[]) => [...new Set(items)];

/** Failing test ids: pytest node ids (`tests/test_x.py::TestY::test_z`) or unittest ids (`tests.test_x.TestY.test_z`). */
export function parseFailingTests(output: string): string[] {
  const ids: string[] = [];
  for (const line of output.split("\n")) {
    let match = /^(?:FAILED|ERROR) (\S+\.py::\S+)/.exec(line) ??
      /^(\S+\.py::\S+) (?:FAILED|ERROR)\b/.exec(line);
    if (match) {
      ids.push(match[1]);
      continue;
    }
    match = /^(?:FAIL|ERROR): (\w+) \(([\w.]+)\)/.exec(line);
    if (match) ids.push(match[2].endsWith(`.${match[1]}`) ? match[2] : `${match[2]}.${match[1]}`);
  }
  return unique(ids);
}

const EXCEPTION_LINE =
  /^(?:E\s+)?((?:[A-Za-z_][\w]*\.)*[A-Z][\w]*(?:Error|Exception|Exit|Interrupt|Warning|Failure|Iteration))(?::|$)/;

/** Exception class names, in the order they first appear. */
export function parseExceptionTypes(output: string): string[] {
  const types: string[] = [];
  for (const line of output.split("\n")) {
    const match = EXCEPTION_LINE.exec(line.trimEnd()) ?? / - ((?:\w+\.)*\w+(?:Error|Exception)):/.exec(line);
    if (match) types.push(match[1].slice(match[1].lastIndexOf(".") + 1));
  }
  return unique(types);
}

function relative(file: string, root?: string): string {
  if (root && file.startsWith(root.endsWith("/") ? root : `${root}/`)) {
    return file.slice(root.length).replace(/^\/+/, "");
  }
  return file.replace(/^\.\//, "");
}

/** Traceback frames (plain Python `File "f", line N, in g`; pytest `f.py:N: in g` and `f.py:N: Error`). */
export function parseFrames(output: string, root?: string): Frame[] {
  const frames: Frame[] = [];
  for (const line of output.split("\n")) {
    let match = /^\s*File "([^"]+)", line (\d+)(?:, in (\S+))?/.exec(line);
    if (match) {
      frames.push({ file: relative(match[1], root), line: Number(match[2]), func: match[3] ?? null });
      continue;
    }
    match = /^([^\s:][^:]*\.py):(\d+):(?: in (\S+)|\s|$)/.exec(line);
    if (match) {
      frames.push({ file: relative(match[1], root), line: Number(match[2]), func: match[3] ?? null });
    }
  }
  return frames;
}

const LIBRARY = [
  /(^|\/)(site|dist)-packages\//,
  /^\/usr\/(local\/)?lib\/python\d/,
  /(^|\/)lib\/python\d+\.\d+\//,
  /^<(frozen |string>)/,
  /(^|\/)_pytest\//,
  /(^|\/)pluggy\//,
];

/** Whether a frame's file belongs to the project (not the standard library, an installed package, or pytest). */
export function isProjectFile(file: string): boolean {
  return !file.startsWith("<") && !LIBRARY.some((pattern) => pattern.test(file)) && !file.startsWith("/");
}

/** Which files are test modules: the repository's rule (`readTestFileRule`); the default names when absent. */
export interface TestFilesOption {
  testFiles?: TestFileRule;
}

/**
 * The frame that localizes the failure: the innermost project frame outside
 * the tests, else the innermost project frame, else null.
 */
export function firstProjectFrame(frames: Frame[], options: TestFilesOption = {}): Frame | null {
  const tests = options.testFiles ?? DEFAULT_TEST_FILES;
  const project = frames.filter((frame) => isProjectFile(frame.file));
  return [...project].reverse().find((frame) => !tests.matches(frame.file)) ?? project.at(-1) ?? null;
}

/** The file of `firstProjectFrame` for a traceback text (seed: `extract_traceback_file`). */
export function extractTracebackFile(
  output: string,
  root?: string,
  options: TestFilesOption = {},
): string | null {
  return firstProjectFrame(parseFrames(output, root), options)?.file ?? null;
}

/** All the evidence of one run's output. */
export function extractEvidence(output: string, root?: string): Evidence {
  const narrative =
    output.split("\n").map((l) => l.replace(/^E\s+/, "").trim()).find((l) => EXCEPTION_LINE.test(l)) ??
      null;
  return {
    failing_tests: parseFailingTests(output),
    exception_types: parseExceptionTypes(output),
    frames: parseFrames(output, root),
    narrative,
  };
}
