/**
 * `graphplan gate PATCH`: the gate's no-test-weakening check on any unified
 * diff, against the repository's files, in memory.
 *
 * @module
 */

import {
  type Command,
  EXIT,
  printIssues,
  printJson,
  readInput,
  stringOption,
  UsageError,
} from "./command.ts";
import { Workspace } from "../engine/workspace.ts";
import { checkInvariants, DEFAULT_POLICY, parsePolicy } from "../engine/gate/mod.ts";

const command: Command = {
  name: "gate",
  summary: "Check a patch for test weakening (skips, removed or loosened assertions, test config)",
  usage: "PATCH [--repo DIR] [--policy FILE] [--json]",
  help: `
PATCH is a unified diff (git diff output) or - for stdin. It is applied in
memory to the files of the repository (nothing is written) and the test code
it touches is judged by what runs: names through aliases and imports,
unreachable code as removed, each test's checks (assertions, raises, assert*
calls, the helpers it calls, its parametrize cases) counted before and after.
Test code is the test modules the repository's pytest configuration names
(python_files in pytest.ini, pyproject.toml, tox.ini or setup.cfg, else
test_*.py, *_test.py, tests.py), conftest.py, modules and data under tests/,
test/ or testing/, and the pytest sections of the configuration files.

Refused (each an issue with its code, file and line, naming the test and check):
  test-skipped         a skip marker, pytest.skip(), skipTest(), an early return
  test-xfailed         xfail / expectedFailure marker (also on a parametrize case)
  assertion-removed    a check of an existing test or helper no longer runs
  assertion-loosened   == -> in, assertEqual -> assertTrue, a tolerance widened,
                       a tautology such as assert "x" is not None
  test-deleted         an existing test or parametrize case is gone or no longer
                       collected (deleted, renamed out of python_files, del'd)
  failure-swallowed    try/except (or suppress) catching the failure in a test
  test-config-changed  a conftest.py hook or import-time statement, a pytest
                       section of pytest.ini, tox.ini, setup.cfg, pyproject.toml,
                       a per-test .rc/.cfg file
  test-data-changed    a line of expected output or test data removed
  collection-changed   sys.exit(), os._exit() at import: pytest runs nothing
  marker-dynamic       a marker whose name is computed (getattr(pytest.mark, x))
Admitted with a warning: assertion-changed (same strength), test-config-reporting
(reporting flags such as -rA, -v, or marker registrations). Markers in test
files the patch creates, or on tests it adds, are admitted.

Options:
  --repo DIR     repository root (default: .)
  --policy FILE  YAML/JSON {mode: refuse|report, allow: [CODE...]}: "report"
                 lets violations through as warnings; "allow" codes never refuse
  --json         print {admissible, refused, policy, errors, warnings, files}

Exit codes: 0 admissible (or only reported), 1 refused (or the patch does not
apply), 2 usage error, 3 internal error.

Examples:
  git diff | graphplan gate - --repo .
  graphplan gate model.patch --repo /src/astropy --policy gate.yaml --json`,
  options: { policy: { type: "string" } },
  async run(args) {
    const [patchArg, ...extra] = args.positionals;
    if (!patchArg) throw new UsageError("Missing the PATCH argument (a file, or - for stdin)");
    if (extra.length > 0) {
      throw new UsageError(`Unexpected arguments: ${extra.map((a) => `"${a}"`).join(" ")}`);
    }
    const policyFile = stringOption(args, "policy");
    const policy = policyFile ? parsePolicy(await readInput(policyFile), policyFile) : DEFAULT_POLICY;
    const workspace = Workspace.open(stringOption(args, "repo", "."));
    const diff = await readInput(patchArg);
    const report = await checkInvariants(diff, {
      policy,
      readFile: async (path) => {
        const { abs } = workspace.resolve(path);
        try {
          return await Deno.readTextFile(abs);
        } catch (err) {
          if (err instanceof Deno.errors.NotFound) return null;
          throw err;
        }
      },
    });
    if (args.values.json === true) printJson(report);
    else {
      printIssues([...report.errors, ...report.warnings]);
      const tests = report.files.reduce((sum, f) => sum + (f.tests ?? 0), 0);
      const summary = `${
        report.refused ? "Patch refused" : "Patch admissible"
      }: ${report.files.length} file(s), ${tests} existing test(s) compared, ${report.errors.length} error(s), ${report.warnings.length} warning(s)`;
      if (report.refused) console.error(summary);
      else console.log(summary);
    }
    return report.refused ? EXIT.rejected : EXIT.ok;
  },
};

export default command;
