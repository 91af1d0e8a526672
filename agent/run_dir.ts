/**
 * Where one run's model writes its plan. `agent.plan_path` may hold
 * `{{run_dir}}` (the default is `{{run_dir}}/edit_plan.json`): a directory
 * made for this run alone, so two runs at once never read each other's plan
 * (with one shared `/tmp/edit_plan.json`, one run applied the other's).
 *
 * - `local`: a fresh directory made on the host with mode 0700
 *   (`Deno.makeTempDir`, under `$TMPDIR` or `/tmp`), removed when the run
 *   ends; its name is random, so no other user can guess it in advance.
 * - containers: `/tmp/graphplan-run-RANDOM` inside the run's own container,
 *   made with `mkdir -m 700` once the container runs; it goes with the
 *   container.
 *
 * A `plan_path` without `{{run_dir}}` is used as it is (the user chose it).
 * The commands the model runs see the path as `$GRAPHPLAN_PLAN_PATH`, the
 * prompts as `{{plan_path}}`.
 *
 * @module
 */

import type { Config } from "./config.ts";
import type { Environment } from "./env/mod.ts";
import { shellQuote } from "./env/shell_quote.ts";
import { join } from "../engine/base/node_builtins.ts";

/** The placeholder of `agent.plan_path` for the run's own directory. */
export const RUN_DIR = "{{run_dir}}";

/** The variable the model's commands see the plan path in. */
export const PLAN_PATH_ENV = "GRAPHPLAN_PLAN_PATH";

/** One run's plan path and the directory made for it. */
export interface RunPlanPath {
  /** The config with `agent.plan_path` resolved. */
  config: Config;
  /** Make the directory inside a started environment (containers; nothing to do locally). */
  prepare(env: Environment): Promise<void>;
  /** Remove what was made on the host. */
  remove(): Promise<void>;
}

/** Resolve `{{run_dir}}` in `config.agent.plan_path` for one run (see the module doc). */
export async function runPlanPath(config: Config): Promise<RunPlanPath> {
  const template = config.agent.plan_path;
  const nothing = () => Promise.resolve();
  if (!template.includes(RUN_DIR)) {
    return { config: withPlanPath(config, template), prepare: nothing, remove: nothing };
  }
  if (config.environment.type === "local") {
    const dir = await Deno.makeTempDir({ prefix: "graphplan-run-" });
    return {
      config: withPlanPath(config, template.replaceAll(RUN_DIR, dir)),
      prepare: nothing,
      remove: () => Deno.remove(dir, { recursive: true }).catch(() => {}),
    };
  }
  const random = crypto.getRandomValues(new Uint8Array(8));
  const dir = join(
    "/tmp",
    `graphplan-run-${[...random].map((b) => b.toString(16).padStart(2, "0")).join("")}`,
  );
  return {
    config: withPlanPath(config, template.replaceAll(RUN_DIR, dir)),
    async prepare(env) {
      const made = await env.execute(`mkdir -m 700 ${shellQuote(dir)}`, { timeout: 60 });
      if (made.returncode !== 0) throw new Error(`Cannot create "${dir}": ${made.output.trim()}`);
    },
    remove: nothing,
  };
}

function withPlanPath(config: Config, planPath: string): Config {
  return {
    ...config,
    agent: { ...config.agent, plan_path: planPath },
    environment: { ...config.environment, env: { ...config.environment.env, [PLAN_PATH_ENV]: planPath } },
  };
}
