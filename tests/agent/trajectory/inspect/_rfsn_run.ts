/**
 * A real rfsn run to inspect: `graphplan run --strategy rfsn` (in process,
 * the real helper, real pytest) on the stats package of the rfsn tests with
 * two scripted candidate models, one with hostile strings in its
 * hypothesis, one that does not answer with JSON; or, with `testCommand`,
 * a run whose test command cannot run (STUCK).
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { stringify } from "yaml";
import { main } from "../../../../main.ts";
import { git } from "../../../e2e/_support.ts";
import { GUARD_PLAN } from "../../rfsn/_fixtures.ts";
import { writeRepo } from "../../rfsn/_pyrepo.ts";

export { PYTEST_SKIP } from "../../rfsn/_pyrepo.ts";

/** A package whose mean([]) divides by zero, with two tests: the guard of GUARD_PLAN fixes it. */
const REPO = {
  "pkg/__init__.py": "",
  "pkg/stats.py": "def mean(values):\n    return sum(values) / len(values)\n",
  "tests/__init__.py": "",
  "tests/test_stats.py":
    "from pkg.stats import mean\n\n\ndef test_mean_empty():\n    assert mean([]) == 0\n\n\n" +
    "def test_mean():\n    assert mean([1, 2, 3]) == 2\n",
};

/** The hostile hypothesis of candidate `a`. */
export const RFSN_HOSTILE = `mean() divides by len(values) <img src=x onerror="alert('rfsn')"> & "0"`;

/** The run's trajectory (`info.rfsn` filled) and how to remove everything. */
export async function rfsnRun(
  options: { testCommand?: string } = {},
): Promise<{ trajectory: string; cleanup: () => Promise<void> }> {
  const root = await Deno.makeTempDir({ prefix: "gp_rfsn_inspect_" });
  const repo = await writeRepo(REPO);
  await git(repo, "init", "-q");
  await git(repo, "add", "-A");
  await git(repo, "commit", "-q", "-m", "init");
  const turns = {
    a: [{
      content: "```json\n" + JSON.stringify({
        hypothesis: RFSN_HOSTILE,
        target: { path: "pkg/stats.py", symbol: "mean" },
        change_summary: "return 0 when values is empty",
        plan: GUARD_PLAN,
      }) + "\n```",
    }],
    b: [{ content: "I would rather <b>not</b> answer with JSON" }],
  };
  const models = [];
  for (const [name, script] of Object.entries(turns)) {
    const path = join(root, `${name}.yaml`);
    await Deno.writeTextFile(path, stringify(script));
    models.push({ name: `scripted/${name}`, script: path });
  }
  const out = join(root, "out");
  const code = await main([
    "run",
    "--strategy",
    "rfsn",
    "--repo",
    repo,
    "--task",
    "mean([]) raises ZeroDivisionError; it should return 0",
    "--id",
    "stats",
    "-o",
    out,
    "-c",
    `model.name=${models[0].name}`,
    "-c",
    `model.script=${JSON.stringify(models[0].script)}`,
    "-c",
    `rfsn.candidate_models=${JSON.stringify(models)}`,
    "-c",
    `rfsn.tests=["tests/test_stats.py::test_mean_empty"]`,
    ...(options.testCommand ? ["-c", `rfsn.test_command=${JSON.stringify(options.testCommand)}`] : []),
  ]);
  assert.equal(code, options.testCommand ? 1 : 0, "the rfsn run ends as planned");
  return {
    trajectory: join(out, "stats", "stats.traj.json"),
    cleanup: async () => {
      await Deno.remove(root, { recursive: true });
      await Deno.remove(repo, { recursive: true });
    },
  };
}
