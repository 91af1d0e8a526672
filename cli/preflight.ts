/**
 * What `run` and `batch` check before anything starts, so a wrong model
 * name, a missing key, an unknown price or a container CLI that is not
 * installed is one usage error (exit 2) with what to do, not a run that
 * starts, writes a trajectory and ends in an exit status (or, in a batch,
 * one failure per instance).
 *
 * @module
 */

import type { Config } from "../agent/config.ts";
import { createModel, ModelError } from "../agent/model/mod.ts";
import { strategyNamed } from "../agent/strategies.ts";
import type { Issue } from "../engine/base/issue.ts";
import { join } from "../engine/base/node_builtins.ts";

/**
 * The first problem that would stop a run of `config` at its start: every model it would ask
 * (the run's own, and the strategy's candidates) must be buildable (known provider, key,
 * price), and a container environment's CLI must be on PATH. Undefined when none.
 */
export async function preflightIssue(config: Config): Promise<Issue | undefined> {
  const models = [config.model, ...(strategyNamed(config.agent.strategy).candidateModels?.(config) ?? [])];
  for (const model of models) {
    try {
      await createModel(model);
    } catch (err) {
      if (!(err instanceof ModelError)) throw err;
      return { code: "model-invalid", severity: "error", message: err.message };
    }
  }
  if (config.environment.type !== "local") {
    const missing = await missingContainerCli(config);
    if (missing) return { code: "container-cli-missing", severity: "error", message: missing };
  }
  return undefined;
}

/**
 * Why the container CLI cannot run (not on PATH), or undefined. Looked up, not run: a CLI whose
 * daemon hangs must not hang the start before the environment's own timeouts apply.
 */
async function missingContainerCli(config: Config): Promise<string | undefined> {
  const executable = config.environment.executable || config.environment.type;
  const candidates = executable.includes("/")
    ? [executable]
    : (Deno.env.get("PATH") ?? "").split(":").filter(Boolean).map((dir) => join(dir, executable));
  for (const path of candidates) {
    const info = await Deno.stat(path).catch(() => null);
    if (info?.isFile && (info.mode === null || (info.mode & 0o111) !== 0)) return undefined;
  }
  const other = config.environment.type === "podman" ? "docker" : "podman";
  return `Cannot run "${executable}": it is not on PATH; install it, or use --env ${other} ` +
    `(or -c environment.executable=PATH)`;
}
