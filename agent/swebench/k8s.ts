/**
 * A Kubernetes Indexed Job that runs a batch as N shards: pod K runs
 * `graphplan batch ... --shard K/N -o /out/shard-K`, K being the pod's
 * completion index (read from its annotation into `SHARD`, which the
 * container's args reference as `$(SHARD)`), with the outputs on a
 * persistent volume claim mounted at `/out`.
 *
 * The task containers need a container runtime the pod can reach:
 *
 * - `podman` (default): podman inside the pod's image, the pod privileged
 *   (`securityContext.privileged: true`); `--env podman`;
 * - `docker-socket`: the node's Docker socket mounted from the host
 *   (`/var/run/docker.sock`); `--env docker`, the docker CLI in the image.
 *
 * @module
 */

import { stringify } from "yaml";

/** How the pod runs the task containers. */
export const K8S_RUNTIMES = ["podman", "docker-socket"] as const;

/** What the manifest needs. */
export interface K8sOptions {
  shards: number;
  /** The image holding graphplan (and the runtime's CLI). */
  image: string;
  /** `graphplan batch` options, without `--shard`, `-o` and `--env`. */
  batchArgs: string[];
  /** The command in the image (default `["graphplan"]`). */
  graphplan?: string[];
  name?: string;
  /** Pods at a time (default: all shards). */
  parallelism?: number;
  /** The claim holding the outputs (default `graphplan-out`). */
  claim?: string;
  runtime?: typeof K8S_RUNTIMES[number];
  /** A Secret whose keys become environment variables (API keys). */
  secret?: string;
  cpu?: string;
  memory?: string;
  namespace?: string;
}

const INDEX_ANNOTATION = "metadata.annotations['batch.kubernetes.io/job-completion-index']";

/** The Job as an object (what the YAML says). */
export function k8sJob(options: K8sOptions): Record<string, unknown> {
  const runtime = options.runtime ?? "podman";
  const name = options.name ?? "graphplan-batch";
  const resources = options.cpu || options.memory
    ? {
      resources: {
        requests: {
          ...(options.cpu ? { cpu: options.cpu } : {}),
          ...(options.memory ? { memory: options.memory } : {}),
        },
      },
    }
    : {};
  const volumes: Record<string, unknown>[] = [
    { name: "out", persistentVolumeClaim: { claimName: options.claim ?? "graphplan-out" } },
  ];
  const mounts: Record<string, unknown>[] = [{ name: "out", mountPath: "/out" }];
  if (runtime === "docker-socket") {
    volumes.push({ name: "docker-sock", hostPath: { path: "/var/run/docker.sock", type: "Socket" } });
    mounts.push({ name: "docker-sock", mountPath: "/var/run/docker.sock" });
  } else {
    volumes.push({ name: "containers", emptyDir: {} });
    mounts.push({ name: "containers", mountPath: "/var/lib/containers" });
  }
  const [command, ...prefix] = options.graphplan ?? ["graphplan"];
  return {
    apiVersion: "batch/v1",
    kind: "Job",
    metadata: { name, ...(options.namespace ? { namespace: options.namespace } : {}) },
    spec: {
      completionMode: "Indexed",
      completions: options.shards,
      parallelism: Math.min(options.parallelism ?? options.shards, options.shards),
      backoffLimit: options.shards,
      template: {
        metadata: { labels: { app: name } },
        spec: {
          restartPolicy: "Never",
          containers: [{
            name: "graphplan",
            image: options.image,
            command: [command],
            args: [
              ...prefix,
              "batch",
              ...options.batchArgs,
              "--env",
              runtime === "docker-socket" ? "docker" : "podman",
              "--shard",
              `$(SHARD)/${options.shards}`,
              "-o",
              "/out/shard-$(SHARD)",
            ],
            env: [{ name: "SHARD", valueFrom: { fieldRef: { fieldPath: INDEX_ANNOTATION } } }],
            ...(options.secret ? { envFrom: [{ secretRef: { name: options.secret } }] } : {}),
            ...(runtime === "podman" ? { securityContext: { privileged: true } } : {}),
            volumeMounts: mounts,
            ...resources,
          }],
          volumes,
        },
      },
    },
  };
}

/** The Job as YAML, with a comment on how to run it and merge the shards. */
export function k8sManifest(options: K8sOptions): string {
  const name = options.name ?? "graphplan-batch";
  return [
    `# GraphPlan batch as a Kubernetes Indexed Job: ${options.shards} shards, outputs in /out/shard-K`,
    `# on the claim "${options.claim ?? "graphplan-out"}". Run: kubectl apply -f THIS_FILE;`,
    `# wait: kubectl wait --for=condition=complete job/${name} --timeout=24h; then, in a pod with`,
    "# the claim mounted: graphplan merge-preds /out/shard-* -o /out",
    stringify(k8sJob(options)),
  ].join("\n");
}
