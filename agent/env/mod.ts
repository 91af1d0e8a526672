/**
 * Environments, registered by short name: `local` (a host directory),
 * `docker` and `podman` (a container from `environment.image`).
 *
 * @module
 */

import { ContainerEnvironment, type Runner } from "./container.ts";
import { LocalEnvironment } from "./local.ts";
import type { MainSession } from "./main_session.ts";
import { type Environment, type EnvironmentConfig, EnvironmentError } from "./types.ts";

export * from "./types.ts";
export {
  CONTAINER_DEFAULTS,
  ContainerEnvironment,
  HOST_RUNNER,
  removeArgv,
  type Runner,
} from "./container.ts";
export { LocalEnvironment } from "./local.ts";
export { attachMain, MAIN_SCRIPT, type MainSession } from "./main_session.ts";
export { ProcessLineSession, type SpawnedProcess, spawnHost, startLineSession } from "./line_session.ts";
export { killGroup, runProcess } from "./process.ts";
export { OutputCollector, truncateOutput } from "../../engine/helper/output.ts";
export { type InterruptOptions, onInterrupt, onStop, runCleanups, takeOverInterrupts } from "./cleanup.ts";

/** Builds an environment from its config. */
export type EnvironmentFactory = (
  config: EnvironmentConfig,
  options?: { runner?: Runner; name?: string; main?: MainSession },
) => Promise<Environment>;

/** Environments by `environment.type`. */
export const ENVIRONMENTS: Record<string, EnvironmentFactory> = {
  local: (config) => Promise.resolve(new LocalEnvironment(config)),
  docker: (config, options) => ContainerEnvironment.start(config, options),
  podman: (config, options) => ContainerEnvironment.start(config, options),
};

/** The environment `config.type` names. */
export function createEnvironment(
  config: EnvironmentConfig,
  options: { runner?: Runner; name?: string; main?: MainSession } = {},
): Promise<Environment> {
  const factory = ENVIRONMENTS[config.type];
  if (!factory) {
    return Promise.reject(
      new EnvironmentError(
        `Unknown environment type "${config.type}": use one of ${
          Object.keys(ENVIRONMENTS).map((name) => `"${name}"`).join(", ")
        }`,
      ),
    );
  }
  return factory(config, options);
}
