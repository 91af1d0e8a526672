/**
 * EXPLORE: free bash steps until the model prints `READY_TO_PLAN: [files]`,
 * at most `max_explore_steps` of them.
 *
 * @module
 */

import { findReadyFiles } from "./extract.ts";
import type { StepLoop } from "./loop.ts";

/** The files to plan on, or null when the steps ran out without `READY_TO_PLAN`. */
export async function explore(loop: StepLoop): Promise<string[] | null> {
  const { max_explore_steps, ready_marker } = loop.config.agent;
  const phase = loop.trajectory.startPhase("explore");
  for (let step = 1; step <= max_explore_steps; step++) {
    const result = await loop.step("explore");
    const files = findReadyFiles(result.outputs.join("\n"), ready_marker, { cwd: loop.env.cwd }) ??
      findReadyFiles(result.content, ready_marker, { cwd: loop.env.cwd });
    if (files) {
      loop.trajectory.endPhase(phase, "done", { steps: step, files });
      return files;
    }
  }
  loop.trajectory.endPhase(phase, "exhausted", { steps: max_explore_steps });
  return null;
}
