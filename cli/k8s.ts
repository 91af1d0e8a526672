/**
 * `graphplan k8s --shards N --image IMAGE [batch options]`: prints a
 * Kubernetes Indexed Job manifest running the batch as N shards.
 *
 * @module
 */

import { type Command, EXIT, stringOption, UsageError, writeLine } from "./command.ts";
import {
  BATCH_OPTIONS,
  batchArgv,
  batchConfig,
  batchOptionsHelp,
  checkBatchOptions,
  countOption,
} from "./batch_options.ts";
import type { Config } from "../agent/config.ts";
import { AuthenticationError, createModel } from "../agent/model/mod.ts";

/** The batch options each pod's command gets from the manifest, refused when given. */
const SET_BY_MANIFEST = ["shard", "output", "env"];
import { K8S_RUNTIMES, k8sManifest } from "../agent/swebench/k8s.ts";
import { isOverride } from "../agent/config.ts";
import { basename } from "../engine/base/node_builtins.ts";

const command: Command = {
  name: "k8s",
  summary: "Print a Kubernetes Indexed Job manifest running a batch as shards",
  usage: "--shards N --job-image IMAGE [--claim PVC] [--runtime podman|docker-socket] [batch options]",
  help: `
Prints an Indexed Job (completionMode: Indexed, completions N): pod K runs
\`graphplan batch [batch options] --shard K/N -o /out/shard-K\`, K being the
pod's completion index, with /out a persistent volume claim. When the Job is
complete, merge the shards in a pod with the claim mounted:
\`graphplan merge-preds /out/shard-* -o /out\`.

The task containers need a runtime inside the pod (--runtime):
  podman         (default) podman in the job image, the pod privileged, --env podman
  docker-socket  the node's /var/run/docker.sock mounted (hostPath), --env docker

Kubernetes:
  --shards N           completions (required)
  --job-image IMAGE    the image holding graphplan and the runtime's CLI (required)
  --parallelism P      pods at a time (default N)
  --claim PVC          the claim for /out (default graphplan-out)
  --runtime R          podman or docker-socket
  --secret NAME        a Secret whose keys become environment variables (API keys)
  --cpu C, --memory M  each pod's resource requests
  --name NAME          the Job's name (default graphplan-batch)
  --namespace NS       the Job's namespace

Batch options (--shard, -o and --env are the manifest's: set per pod, /out/shard-K, and by --runtime):
${batchOptionsHelp(SET_BY_MANIFEST)}

Without --secret the pods get no API key: a model of a provider that needs one (openai without
a base_url that needs none, anthropic) is warned about.

Example:
  graphplan k8s --shards 16 --job-image registry.example/graphplan:0.1 --secret llm-keys \\
    --subset verified -w 2 --model openai/gpt-5-mini > job.yaml && kubectl apply -f job.yaml

Exit: 0 printed, 2 usage error.`,
  options: {
    ...BATCH_OPTIONS,
    shards: { type: "string" },
    "job-image": { type: "string" },
    parallelism: { type: "string" },
    claim: { type: "string" },
    runtime: { type: "string" },
    secret: { type: "string" },
    cpu: { type: "string" },
    memory: { type: "string" },
    name: { type: "string" },
    namespace: { type: "string" },
  },
  async run(args) {
    if (args.positionals.length > 0) {
      throw new UsageError(`Unexpected arguments: ${args.positionals.map((a) => `"${a}"`).join(" ")}`);
    }
    if (args.values.shards === undefined) throw new UsageError("Give the number of shards: --shards N");
    for (const name of SET_BY_MANIFEST) {
      if (args.values[name] !== undefined) {
        throw new UsageError(`--${name} is set by the manifest: leave it out`);
      }
    }
    const image = stringOption(args, "job-image");
    if (!image) throw new UsageError("Give the image holding graphplan: --job-image IMAGE");
    const runtime = stringOption(args, "runtime", "podman")! as typeof K8S_RUNTIMES[number];
    if (!K8S_RUNTIMES.includes(runtime)) {
      throw new UsageError(`--runtime must be one of ${K8S_RUNTIMES.join(", ")}: got "${runtime}"`);
    }
    const name = stringOption(args, "name");
    if (name !== undefined && !/^[a-z0-9]([-a-z0-9]{0,50}[a-z0-9])?$/.test(name)) {
      throw new UsageError(`--name must be a DNS label (lowercase letters, digits, "-"): got "${name}"`);
    }
    checkBatchOptions(args);
    const config = await batchConfig(args, { files: false });
    for (const warning of localFileWarnings(args)) console.error(`k8s: ${warning}`);
    const noKey = stringOption(args, "secret") === undefined ? await keyWarning(config) : undefined;
    if (noKey) console.error(`k8s: ${noKey}`);
    writeLine(k8sManifest({
      shards: countOption(args, "shards", 1),
      image,
      batchArgs: batchArgv(args, { exclude: ["shard", "output", "env"] }),
      parallelism: args.values.parallelism === undefined ? undefined : countOption(args, "parallelism", 1),
      claim: stringOption(args, "claim"),
      runtime,
      secret: stringOption(args, "secret"),
      cpu: stringOption(args, "cpu"),
      memory: stringOption(args, "memory"),
      name,
      namespace: stringOption(args, "namespace"),
    }));
    return EXIT.ok;
  },
};

/**
 * Why the pods cannot call the model without a Secret, or undefined: the model is built as a pod
 * would build it, with no environment variables, and a missing key is what the client says.
 */
async function keyWarning(config: Config): Promise<string | undefined> {
  try {
    await createModel(config.model, { env: {} });
  } catch (err) {
    if (err instanceof AuthenticationError) {
      return `the pods get no API key without --secret, and "${config.model.name}" needs one ` +
        `(${err.message.split(":")[0]} in a pod); ` +
        `put the key in a Secret (kubectl create secret generic llm-keys --from-literal=NAME=KEY) and add ` +
        `--secret llm-keys`;
    }
  }
  return undefined;
}

/**
 * Files of this machine the options name (`--subset`, `--instances`, `-c` files): the pods look
 * for them in their own filesystem, where they are only if the job image or the claim holds them.
 */
function localFileWarnings(args: Parameters<Command["run"]>[0]): string[] {
  const named: [string, string | undefined][] = [
    ["--subset", stringOption(args, "subset")],
    ["--instances", stringOption(args, "instances")],
    ...((args.values.config as string[] | undefined) ?? []).filter((spec) => !isOverride(spec))
      .map((spec): [string, string] => ["-c", spec]),
  ];
  const warnings: string[] = [];
  for (const [option, path] of named) {
    if (path === undefined || path.startsWith("/out/")) continue;
    let isFile = false;
    try {
      isFile = Deno.statSync(path).isFile;
    } catch { /* not here: a path inside the image, or a dataset name */ }
    if (isFile) {
      warnings.push(
        `${option} "${path}" is a file on this machine: the pods read their own filesystem, so put it ` +
          `in the job image or on the claim (e.g. /out/${basename(path)}) and give that path`,
      );
    }
  }
  return warnings;
}

export default command;
