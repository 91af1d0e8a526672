/**
 * The scale-out files: the Kubernetes manifest checked against the Job
 * schema (kubernetes-models validates with the OpenAPI schema of the
 * Kubernetes API: required fields, types, enums), and the Slurm script run
 * by bash as an array task would run it, with a stand-in for graphplan
 * that prints its arguments. The real Slurm cluster is tests/e2e/slurm_test.ts.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { parse } from "yaml";
import { Job } from "kubernetes-models/batch/v1/Job";
import { k8sJob, slurmScript } from "../../../agent/swebench/mod.ts";
import { graphplan as cli } from "../../e2e/_support.ts";
import { slow } from "../../_support/quick.ts";

const SLOW = slow("tests that start processes (the CLI, a helper, pytest, podman, the bundle)");

type Container = {
  args: string[];
  command: string[];
  env: { name: string; valueFrom: { fieldRef: { fieldPath: string } } }[];
  securityContext?: { privileged: boolean };
  volumeMounts: { name: string; mountPath: string }[];
  envFrom?: unknown[];
};

Deno.test("k8s: graphplan k8s prints an Indexed Job the Job schema accepts", SLOW, async () => {
  const result = await cli([
    "k8s",
    "--shards",
    "4",
    "--job-image",
    "registry.example/graphplan:0.1",
    "--secret",
    "llm-keys",
    "--subset",
    "verified",
    "--filter",
    "^django__",
    "-w",
    "2",
    "--cost-limit",
    "50",
    "--model",
    "openai/gpt-5-mini",
    "--cpu",
    "4",
    "--memory",
    "16Gi",
  ]);
  assert.equal(result.code, 0, result.stderr);
  const doc = parse(result.stdout);
  new Job(doc).validate();
  assert.equal(doc.spec.completionMode, "Indexed");
  assert.equal(doc.spec.completions, 4);
  assert.equal(doc.spec.template.spec.restartPolicy, "Never");
  const container = doc.spec.template.spec.containers[0] as Container;
  assert.deepEqual(container.command, ["graphplan"]);
  assert.deepEqual(container.args, [
    "batch",
    "--subset",
    "verified",
    "--filter",
    "^django__",
    "--workers",
    "2",
    "--cost-limit",
    "50",
    "--model",
    "openai/gpt-5-mini",
    "--env",
    "podman",
    "--shard",
    "$(SHARD)/4",
    "-o",
    "/out/shard-$(SHARD)",
  ]);
  // $(SHARD) is the completion index, from the pod's annotation.
  assert.equal(container.env[0].name, "SHARD");
  assert.equal(
    container.env[0].valueFrom.fieldRef.fieldPath,
    "metadata.annotations['batch.kubernetes.io/job-completion-index']",
  );
  assert.equal(container.securityContext?.privileged, true);
  assert.ok(container.volumeMounts.some((m) => m.mountPath === "/out"));
  assert.deepEqual(doc.spec.template.spec.volumes[0], {
    name: "out",
    persistentVolumeClaim: { claimName: "graphplan-out" },
  });
  assert.match(result.stdout, /graphplan merge-preds \/out\/shard-\* -o \/out/);
});

Deno.test("k8s: the docker-socket runtime mounts the node's socket; the schema catches a broken Job", () => {
  const job = k8sJob({ shards: 2, image: "img", batchArgs: [], runtime: "docker-socket", parallelism: 5 });
  new Job(job as ConstructorParameters<typeof Job>[0]).validate();
  const spec = job.spec as {
    parallelism: number;
    template: { spec: { containers: Container[]; volumes: unknown[] } };
  };
  assert.equal(spec.parallelism, 2, "never more pods than shards");
  assert.ok(spec.template.spec.containers[0].args.includes("docker"));
  assert.equal(spec.template.spec.containers[0].securityContext, undefined);
  assert.deepEqual(spec.template.spec.volumes[1], {
    name: "docker-sock",
    hostPath: { path: "/var/run/docker.sock", type: "Socket" },
  });
  // The oracle is not a rubber stamp: a container without a name is refused.
  const broken = structuredClone(job) as typeof job;
  delete ((broken.spec as typeof spec).template.spec.containers[0] as Partial<Container> & { name?: string })
    .name;
  assert.throws(
    () => new Job(broken as ConstructorParameters<typeof Job>[0]).validate(),
    /required property 'name'|must have required property name/,
  );
});

Deno.test("k8s: options the manifest sets itself are usage errors", SLOW, async () => {
  for (const extra of [["--shard", "0/2"], ["-o", "x"], ["--env", "docker"]]) {
    const result = await cli(["k8s", "--shards", "2", "--job-image", "i", ...extra]);
    assert.equal(result.code, 2, extra.join(" "));
    assert.match(result.stderr, /is set by the manifest/);
  }
  const noImage = await cli(["k8s", "--shards", "2"]);
  assert.equal(noImage.code, 2);
  assert.match(noImage.stderr, /--job-image IMAGE/);
});

Deno.test(
  "k8s: a dataset, id list or config file of this machine is warned about (the pods cannot see it)",
  SLOW,
  async () => {
    const dir = await Deno.makeTempDir({ prefix: "gp_k8s_files_" });
    try {
      await Deno.writeTextFile(
        join(dir, "ds.jsonl"),
        '{"instance_id": "a__b-1", "problem_statement": "x"}\n',
      );
      await Deno.writeTextFile(join(dir, "ids.txt"), "a__b-1\n");
      await Deno.writeTextFile(join(dir, "mine.yaml"), "agent:\n  step_limit: 5\n");
      // With the Secret for the API key: the key warning is k8s_test's.
      const base = ["k8s", "--shards", "2", "--job-image", "i", "--secret", "llm-keys"];
      const local = await cli(
        [
          ...base,
          "--subset",
          "ds.jsonl",
          "--instances",
          "ids.txt",
          "-c",
          "mine.yaml",
          "-c",
          "agent.step_limit=3",
        ],
        { cwd: dir },
      );
      assert.equal(local.code, 0, local.stderr);
      new Job(parse(local.stdout)).validate();
      const warned = local.stderr.trim().split("\n");
      assert.deepEqual(
        warned.map((line) => /^k8s: (\S+) "([^"]+)" is a file on this machine/.exec(line)?.slice(1)),
        [
          ["--subset", "ds.jsonl"],
          ["--instances", "ids.txt"],
          ["-c", "mine.yaml"],
        ],
      );
      assert.match(warned[0], /put it in the job image or on the claim \(e\.g\. \/out\/ds\.jsonl\)/);
      // Names of datasets, paths on the claim and overrides are not files here: no warning.
      const remote = await cli([
        ...base,
        "--subset",
        "lite",
        "--instances",
        "/out/ids.txt",
        "-c",
        "agent.step_limit=3",
      ], {
        cwd: dir,
      });
      assert.equal(remote.code, 0, remote.stderr);
      assert.equal(remote.stderr.trim(), "");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);

Deno.test(
  "slurm and k8s: batch options that would fail in every task are usage errors before anything is written",
  SLOW,
  async () => {
    const dir = await Deno.makeTempDir({ prefix: "gp_launch_check_" });
    try {
      const cases: [string[], RegExp][] = [
        [["-w", "0"], /--workers must be a positive integer: got "0"/],
        [["--cost-limit", "lots"], /--cost-limit must be a number of dollars: got "lots"/],
        [["--instance-cost-limit", "many"], /--instance-cost-limit must be a number of dollars: got "many"/],
        [["--slice", "x"], /Invalid --slice "x"/],
        [["--filter", "("], /Invalid --filter "\("/],
        [["--preds-format", "csv"], /--preds-format must be one of dict, list, jsonl: got "csv"/],
        [["--seed", "x"], /--seed must be an integer: got "x"/],
        [["--seed", "3"], /--seed 3 seeds --shuffle/],
        [["--strategy", "planner"], /Unknown strategy "planner"/],
        [["--model", "gpt-5-mini"], /"model\.name": Expected "provider\/model"/],
        [
          ["-c", "agent.cost_limt=1"],
          /"agent\.cost_limt": Unknown key \(did you mean "agent\.cost_limit"\?\)/,
        ],
      ];
      for (const [extra, message] of cases) {
        const out = join(dir, "runs");
        const slurm = await cli(["slurm", "--shards", "2", "-o", out, ...extra]);
        assert.equal(slurm.code, 2, `slurm ${extra.join(" ")}: ${slurm.stderr}`);
        assert.match(slurm.stderr, message, `slurm ${extra.join(" ")}`);
        await assert.rejects(Deno.stat(out), Deno.errors.NotFound, "no script was written");
        const k8s = await cli(["k8s", "--shards", "2", "--job-image", "i", ...extra]);
        assert.equal(k8s.code, 2, `k8s ${extra.join(" ")}: ${k8s.stderr}`);
        assert.match(k8s.stderr, message, `k8s ${extra.join(" ")}`);
        assert.equal(k8s.stdout, "", "no manifest was printed");
      }
      // --env is slurm's to pass on, but a batch only runs in containers.
      const local = await cli(["slurm", "--shards", "2", "-o", join(dir, "runs"), "--env", "local"]);
      assert.equal(local.code, 2);
      assert.match(local.stderr, /use --env docker or --env podman, not "local"/);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);

Deno.test("slurm: the script runs shard K of N for array task K", async () => {
  const dir = await Deno.makeTempDir({ prefix: "gp_slurm_script_" });
  try {
    const fake = join(dir, "fake-graphplan");
    await Deno.writeTextFile(fake, '#!/bin/sh\nprintf "%s\\n" "$@"\n', { mode: 0o755 });
    const out = join(dir, "runs dir");
    const script = slurmScript({
      shards: 3,
      graphplan: [fake],
      batchArgs: ["--subset", "lite", "--filter", "^(django|sympy)__", "-w", "2"],
      outDir: out,
      partition: "debug",
      time: "01:00:00",
      maxParallel: 2,
    });
    assert.match(script, /^#SBATCH --array=0-2%2$/m);
    assert.match(script, /^#SBATCH --partition=debug$/m);
    assert.match(script, /^#SBATCH --time=01:00:00$/m);
    const path = join(dir, "job.sbatch");
    await Deno.writeTextFile(path, script);
    const run = await new Deno.Command("bash", {
      args: [path],
      env: { SLURM_ARRAY_TASK_ID: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(run.code, 0, new TextDecoder().decode(run.stderr));
    assert.deepEqual(new TextDecoder().decode(run.stdout).trim().split("\n"), [
      "batch",
      "--subset",
      "lite",
      "--filter",
      "^(django|sympy)__",
      "-w",
      "2",
      "--shard",
      "1/3",
      "-o",
      `${out}/shard-1`,
    ]);
    const outside = await new Deno.Command("bash", { args: [path], stdout: "null", stderr: "piped" })
      .output();
    assert.notEqual(outside.code, 0);
    assert.match(new TextDecoder().decode(outside.stderr), /not running as a Slurm array task/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
