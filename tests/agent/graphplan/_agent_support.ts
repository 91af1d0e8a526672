/**
 * What the agent tests share: a committed one-file repository, a fake
 * helper with scripted verification results, the plan the model writes,
 * and a run of the agent with the local environment.
 *
 * @module
 */

import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { type Config, loadConfig } from "../../../agent/config.ts";
import { LocalEnvironment } from "../../../agent/env/mod.ts";
import { GraphPlanAgent } from "../../../agent/graphplan/mod.ts";
import { type Helper, HelperError } from "../../../agent/common/mod.ts";
import type { Model } from "../../../agent/model/mod.ts";
import { readTrajectory, Trajectory } from "../../../agent/trajectory/mod.ts";

/** The repository's one file. */
export const SOURCE = `class Order:
    def __init__(self, items):
        self.items = items

    def total(self):
        return sum(item.price for item in self.items)
`;
export const FIXED = SOURCE.replace("item.price for", "item.price * item.quantity for");
export const SUBMIT = "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git add -A && git diff --cached";

/** Run git in `dir` (asserting it succeeds); returns its stdout. */
export async function git(dir: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command("git", {
    args: ["-c", "user.email=t@example.com", "-c", "user.name=t", ...args],
    cwd: dir,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout);
}

/**
 * A repository with `files` committed (by default the one Python file
 * `shop/order.py`), and a config with the plan file inside the temp dir.
 */
export async function setup(
  overrides: string[] = [],
  files: Record<string, string> = { "shop/order.py": SOURCE },
) {
  const root = await Deno.makeTempDir({ prefix: "gp_agent_" });
  const repo = join(root, "repo");
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(dirname(join(repo, path)), { recursive: true });
    await Deno.writeTextFile(join(repo, path), text);
  }
  await git(repo, "init", "-q");
  await git(repo, "add", "-A");
  await git(repo, "commit", "-q", "-m", "init");
  const planPath = join(root, "edit_plan.json");
  const config = await loadConfig([
    `agent.plan_path=${planPath}`,
    "model.name=scripted/test",
    `environment.cwd=${repo}`,
    // Patches are checked but never sent back (tests/e2e covers the rejections).
    "agent.max_patch_rejections=0",
    ...overrides,
  ]);
  return { root, repo, planPath, config, cleanup: () => Deno.remove(root, { recursive: true }) };
}

export const GRAPH = {
  symbols: [
    { name: "Order", kind: "class", file: "shop/order.py", start_line: 1, end_line: 6 },
    { name: "total", kind: "method", file: "shop/order.py", start_line: 5, end_line: 6, parent: "Order" },
  ],
  imports: [],
  line_kinds: { "shop/order.py": { "6": "return_statement" } },
  errors: [],
};

/** An in-process helper: scripted verify results; execute_plan writes the fix to disk. */
export function fakeHelper(repo: string, verifyResults: unknown[]) {
  const calls: { method: string; params: Record<string, unknown> }[] = [];
  let verifies = 0;
  const helper: Helper & { closed: boolean } = {
    closed: false,
    async call(method, params) {
      calls.push({ method, params });
      if (method === "build_graph") return GRAPH;
      if (method === "verify_plan") {
        return verifyResults[verifies++] ?? { passed: true, errors: [], warnings: [] };
      }
      if (method === "execute_plan") {
        await Deno.writeTextFile(join(repo, "shop", "order.py"), FIXED);
        return {
          success: true,
          rolled_back: false,
          errors: [],
          warnings: [],
          files_changed: ["shop/order.py"],
        };
      }
      throw new HelperError(`Helper refused "${method}"`, [
        { code: "method-unknown", severity: "error", message: `Unknown method "${method}"` },
      ]);
    },
    close() {
      helper.closed = true;
      return Promise.resolve();
    },
  };
  return { helper, calls };
}

export function planCommand(planPath: string): string {
  const plan = [{
    op: "replace_node",
    params: {
      locator: {
        file: "shop/order.py",
        kind: "method",
        name: "total",
        parent: { kind: "class", name: "Order" },
      },
      replacement: "def total(self):\n    return sum(item.price * item.quantity for item in self.items)",
    },
  }];
  return `cat > ${planPath} << 'PLAN_EOF'\n${JSON.stringify(plan, null, 2)}\nPLAN_EOF`;
}

export async function runAgent(
  config: Config,
  model: Model,
  helper: Helper,
  root: string,
  options: { baseline?: string } = {},
) {
  const env = new LocalEnvironment({ ...config.environment });
  const trajectory = new Trajectory(join(root, "out"), "shop__shop-1", { config, stats: () => model.stats });
  const agent = new GraphPlanAgent({
    model,
    env,
    config,
    trajectory,
    helper,
    operatorCatalog: "replace_node {locator, replacement}: replace the node the locator finds",
    baseline: options.baseline,
  });
  const result = await agent.run("Order.total ignores the quantity of each item.");
  await env.close();
  return { result, trajectory, saved: await readTrajectory(trajectory.path) };
}
