/**
 * Batch command lines for the CLI tests: the scripted demo model (no API
 * key) and a stand-in container CLI, so a test controls what "the container
 * runtime" answers without podman or docker.
 */

import { join } from "node:path";

/** The scripted demo model's options. */
export const SCRIPTED = ["--model", "scripted/demo", "-c", "model.script=config/demo/scripted_run.yaml"];

/** A stand-in container CLI `dir/name` running the shell `body`; its path. */
export async function fakeDocker(dir: string, body: string, name = "fake-docker"): Promise<string> {
  const path = join(dir, name);
  await Deno.writeTextFile(path, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return path;
}

/** `graphplan batch` of `dataset` through the container CLI `docker` with the scripted model, into `out`. */
export function scriptedBatch(dataset: string, docker: string, out: string, extra: string[] = []): string[] {
  return [
    "batch",
    "--subset",
    dataset,
    "--env",
    "docker",
    "-c",
    `environment.executable=${docker}`,
    ...SCRIPTED,
    ...extra,
    "-o",
    out,
  ];
}
