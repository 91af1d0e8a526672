import assert from "node:assert/strict";
import { join } from "node:path";
import { loadConfig } from "../../../agent/config.ts";
import { LocalEnvironment } from "../../../agent/env/mod.ts";
import type { Helper } from "../../../agent/common/mod.ts";
import { Interrupted } from "../../../agent/common/mod.ts";
import type { Message, Model, ModelResponse, QueryOptions } from "../../../agent/model/mod.ts";
import { RfsnAgent } from "../../../agent/rfsn/mod.ts";
import { Trajectory } from "../../../agent/trajectory/mod.ts";
import { git } from "../../e2e/_support.ts";
import { PYTEST_SKIP, STATS_REPO, writeRepo } from "./_pyrepo.ts";
import { slow } from "../../_support/quick.ts";

const SLOW = slow("tests that start processes (the CLI, a helper, pytest, podman, the bundle)");

if (PYTEST_SKIP) console.log(`agent_stop_test: skipped: ${PYTEST_SKIP}`);

const NO_HELPER = () => Promise.reject(new Error("no helper in this test")) as Promise<Helper>;

/**
 * A model that is "thinking" until its call is aborted, and asks for the
 * stop (as a Ctrl-C would) once it has been called: the call then fails the
 * way an HTTP client's aborted request does.
 */
class ThinkingModel implements Model {
  readonly name = "test/thinking";
  readonly stats = { cost: 0, calls: 0, input_tokens: 0, output_tokens: 0 };
  constructor(readonly onCall: () => void) {}
  query(_messages: Message[], options: QueryOptions = {}): Promise<ModelResponse> {
    this.stats.calls += 1;
    return new Promise((_, reject) => {
      if (!options.signal) return reject(new Error("the call was not given the stop signal"));
      options.signal.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
      setTimeout(this.onCall, 10);
    });
  }
}

Deno.test({
  name: "rfsn: a stop during the PATCH model call ends the run Interrupted with the source untouched",
  ignore: PYTEST_SKIP !== undefined || SLOW.ignore,
  async fn() {
    const repo = await writeRepo(STATS_REPO);
    const out = await Deno.makeTempDir({ prefix: "gp_rfsn_stop_" });
    try {
      await git(repo, "init", "-q");
      await git(repo, "add", "-A");
      await git(repo, "commit", "-q", "-m", "init");
      const config = await loadConfig([
        "agent.strategy=rfsn",
        'rfsn.tests=["tests/test_stats.py::test_mean_empty"]',
      ]);
      const stop = new AbortController();
      const model = new ThinkingModel(() => stop.abort("SIGINT"));
      const agentFor = (id: string) =>
        new RfsnAgent({
          models: [model],
          env: new LocalEnvironment({ cwd: repo, timeout: 120 }),
          config,
          trajectory: new Trajectory(out, id, { config }),
          helper: NO_HELPER,
          stop: stop.signal,
        });
      await assert.rejects(agentFor("stats").run("mean([]) raises ZeroDivisionError"), (err: Error) => {
        assert.ok(err instanceof Interrupted, String(err));
        assert.equal(err.message, "interrupted by SIGINT");
        return true;
      });
      // Reproduce and localize ran (real pytest) before the model was asked, once.
      assert.equal(model.stats.calls, 1);
      assert.equal(await Deno.readTextFile(join(repo, "pkg/stats.py")), STATS_REPO["pkg/stats.py"]);
      // A stop already asked for ends the next run before it runs anything.
      await assert.rejects(agentFor("again").run("mean([]) raises ZeroDivisionError"), Interrupted);
      assert.equal(model.stats.calls, 1);
    } finally {
      await Deno.remove(repo, { recursive: true });
      await Deno.remove(out, { recursive: true });
    }
  },
});
