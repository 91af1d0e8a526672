/**
 * Finding a tool once per test run, not once per test file: `deno test
 * --parallel` runs each test file in its own isolate, which evaluates the
 * support modules again, and a support module that starts a process at
 * import time to find its tool (CPython behind pyenv's bash shim costs
 * about 0.2 s of CPU) pays that in every file that imports it. The
 * isolates are threads of one process and share its environment, so the
 * first file to look records the answer in a variable
 * (`GRAPHPLAN_TEST_FOUND_<NAME>`) that the later files read instead.
 *
 * @module
 */

const PREFIX = "GRAPHPLAN_TEST_FOUND_";
/** What the variable holds when the tool was looked for and not found. */
const ABSENT = "-";

/**
 * The result of `find` for `name` (an upper-case identifier, e.g.
 * "PYTHON"), computed once per process: a later call, in this isolate or
 * another, returns the recorded answer.
 */
export function foundOnce(name: string, find: () => string | undefined): string | undefined {
  const key = PREFIX + name;
  const recorded = Deno.env.get(key);
  if (recorded !== undefined) return recorded === ABSENT ? undefined : recorded;
  const found = find();
  Deno.env.set(key, found ?? ABSENT);
  return found;
}
