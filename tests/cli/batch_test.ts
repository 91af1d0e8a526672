/**
 * The batch-family commands' command lines: usage errors that change
 * nothing on disk, `merge-preds` reporting duplicates (text and --json),
 * and `slurm` writing its script without submitting.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { PredsStore } from "../../agent/swebench/mod.ts";
import { fakeDocker, SCRIPTED, scriptedBatch } from "./_batch_support.ts";
import { graphplan } from "../e2e/_support.ts";
import { slow } from "../_support/quick.ts";

const SLOW = slow("tests that start processes (the CLI, a helper, pytest, podman, the bundle)");

async function scratch(): Promise<string> {
  return await Deno.makeTempDir({ prefix: "gp_batch_cli_" });
}

/** The scripted model's options (no key, no network). */

Deno.test("batch: bad options are usage errors (exit 2) and write nothing", SLOW, async () => {
  const dir = await scratch();
  try {
    const dataset = join(dir, "d.jsonl");
    await Deno.writeTextFile(dataset, '{"instance_id": "a__b-1", "problem_statement": "x"}\n');
    const out = join(dir, "out");
    const cases: [string[], RegExp][] = [
      [["--subset", join(dir, "missing.jsonl")], /No dataset file ".*missing\.jsonl": no such file/],
      [["--subset", "liet"], /neither a file nor a Hugging Face name: did you mean "lite"\?/],
      [["--subset", dataset, "--shard", "3/2"], /Invalid --shard "3\/2"/],
      [["--subset", dataset, "--slice", "a:b"], /Invalid --slice "a:b"/],
      [
        ["--subset", dataset, "--instances", join(dir, "none.txt")],
        /Cannot read the --instances file ".*none\.txt": no such file$/m,
      ],
      [
        ["--subset", dataset, "--instances", dir],
        /Cannot read the --instances file ".*": it is a directory$/m,
      ],
      [
        ["--subset", dataset, "--preds-format", "csv"],
        /--preds-format must be one of dict, list, jsonl: got "csv"/,
      ],
      [["--subset", dataset, "-w", "0"], /--workers must be a positive integer: got "0"/],
      [["--subset", dataset, "--seed", "7"], /--seed 7 seeds --shuffle: add --shuffle, or leave --seed out/],
      [["--subset", dataset, "--cost-limit", "lots"], /--cost-limit must be a number of dollars: got "lots"/],
      [["--subset", dataset, "--strategy", "planner"], /Unknown strategy "planner": use graphplan or rfsn/],
      [
        // Checked once before any instance starts (every one would fail in its setup).
        [
          "--subset",
          dataset,
          "--model",
          "scripted/demo",
          "-c",
          "model.script=config/demo/scripted_run.yaml",
          "--env",
          "docker",
          "-c",
          `environment.executable=${join(dir, "no-such-docker")}`,
        ],
        /Cannot run ".*no-such-docker": it is not on PATH; install it, or use --env podman/,
      ],
      [
        ["--subset", dataset, "--env", "local"],
        /A batch runs in containers: use --env docker or --env podman, not "local"/,
      ],
    ];
    for (const [args, message] of cases) {
      const result = await graphplan(["batch", ...args, "-o", out, "--json"], {
        env: { OPENAI_API_KEY: "" },
      });
      assert.equal(result.code, 2, `${args.join(" ")}: ${result.stderr}`);
      assert.match(result.stderr, message, args.join(" "));
      // With --json the refusal is also the one JSON document on stdout.
      const doc = JSON.parse(result.stdout || "null");
      assert.equal(doc?.success, false, `${args.join(" ")}: stdout ${JSON.stringify(result.stdout)}`);
      assert.match(doc.errors[0].message, message, args.join(" "));
    }
    await assert.rejects(Deno.stat(out), Deno.errors.NotFound);
    const help = await graphplan(["batch", "--help"]);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /--shard K\/N/);
    assert.match(help.stdout, /--strategy NAME +graphplan \(default\) or rfsn/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test(
  "run, batch and merge-preds: an -o that is a file (or under one) is a usage error, nothing started",
  SLOW,
  async () => {
    const dir = await scratch();
    try {
      const dataset = join(dir, "d.jsonl");
      await Deno.writeTextFile(dataset, '{"instance_id": "a__b-1", "problem_statement": "x"}\n');
      const file = join(dir, "notes.txt");
      await Deno.writeTextFile(file, "mine\n");
      await Deno.mkdir(join(dir, "shard-0"));
      const commands: string[][] = [
        ["batch", "--subset", dataset, "--env", "podman", ...SCRIPTED],
        ["run", "--repo", "tests/fixtures/sample_project", "--task", "Fix it", ...SCRIPTED],
        ["merge-preds", join(dir, "shard-0")],
      ];
      for (const command of commands) {
        for (
          const [out, message] of [[file, /it is a file/], [
            join(file, "a", "b"),
            /notes\.txt" is a file/,
          ]] as const
        ) {
          const result = await graphplan([...command, "-o", out, "--json"]);
          assert.equal(result.code, 2, `${command[0]} -o ${out}: ${result.stderr}`);
          assert.match(result.stderr, /Cannot write to -o ".*": /);
          assert.match(result.stderr, message);
          assert.ok(!result.stderr.includes("internal error"), result.stderr);
          assert.equal(JSON.parse(result.stdout).errors[0].code, "usage-error");
          // No step of the run began (the helper was not deployed) and the file is as it was.
          assert.ok(!result.stderr.includes("setup:"), result.stderr);
          assert.equal(await Deno.readTextFile(file), "mine\n");
        }
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);

Deno.test(
  "merge-preds: merges shards, reports duplicates, prints one JSON document with --json",
  SLOW,
  async () => {
    const dir = await scratch();
    try {
      const pred = (id: string, patch: string) => ({
        instance_id: id,
        model_name_or_path: "m",
        model_patch: patch,
      });
      const a = new PredsStore(join(dir, "a"), "dict");
      await a.put(pred("x-1", "patch x from a"));
      await a.put(pred("y-1", "patch y"));
      const b = new PredsStore(join(dir, "b"), "jsonl");
      await b.put(pred("x-1", "patch x from b"));
      const text = await graphplan(["merge-preds", "a", "b", "-o", "merged"], { cwd: dir });
      assert.equal(text.code, 0, text.stderr);
      assert.match(text.stderr, /"x-1" is in "a", "b": kept "b"/);
      assert.match(text.stderr, /2 prediction\(s\) from 2 directories/);
      const merged = JSON.parse(await Deno.readTextFile(join(dir, "merged", "preds.json")));
      assert.deepEqual(merged, { "x-1": pred("x-1", "patch x from b"), "y-1": pred("y-1", "patch y") });
      const json = await graphplan([
        "merge-preds",
        "a",
        "b",
        "-o",
        "merged2",
        "--preds-format",
        "list",
        "--json",
      ], {
        cwd: dir,
      });
      assert.equal(json.code, 0, json.stderr);
      const doc = JSON.parse(json.stdout);
      assert.equal(doc.instances, 2);
      assert.deepEqual(doc.duplicates, [{ instance_id: "x-1", sources: ["a", "b"], kept: "b" }]);
      assert.ok(Array.isArray(JSON.parse(await Deno.readTextFile(join(dir, "merged2", "preds.json")))));
      const missing = await graphplan(["merge-preds", "a", "nope", "-o", "m"], { cwd: dir });
      assert.equal(missing.code, 2);
      assert.match(missing.stderr, /No directory "nope"/);
      await Deno.writeTextFile(join(dir, "a", "preds.json"), "{broken");
      const broken = await graphplan(["merge-preds", "a", "b", "-o", "m3"], { cwd: dir });
      assert.equal(broken.code, 1);
      assert.match(broken.stderr, /Cannot parse ".*preds\.json"/);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);

Deno.test("slurm: without --submit the script is written and its path printed", SLOW, async () => {
  const dir = await scratch();
  try {
    const result = await graphplan([
      "slurm",
      "--shards",
      "3",
      "--partition",
      "gpu",
      "--mem",
      "16G",
      "--sbatch=--account=lab",
      "--subset",
      "lite",
      "-o",
      join(dir, "runs"),
    ]);
    assert.equal(result.code, 0, result.stderr);
    const path = result.stdout.trim();
    assert.equal(path, join(dir, "runs", "graphplan-batch.sbatch"));
    const script = await Deno.readTextFile(path);
    for (const line of ["--array=0-2", "--partition=gpu", "--mem=16G", "--account=lab"]) {
      assert.ok(script.includes(`#SBATCH ${line}\n`), line);
    }
    assert.match(script, /batch --subset lite --shard "\$shard\/3" -o .*\/runs\/shard-"\$shard"/);
    const bash = await new Deno.Command("bash", { args: ["-n", path] }).output();
    assert.ok(bash.success, "bash accepts the script");
    // Relative paths in the options are read where `graphplan slurm` ran, wherever sbatch is run from.
    await Deno.writeTextFile(join(dir, "ids.txt"), "a__b-1\n");
    const relative = await graphplan(["slurm", "--shards", "2", "--instances", "ids.txt", "-o", "rel"], {
      cwd: dir,
    });
    assert.equal(relative.code, 0, relative.stderr);
    const elsewhere = await new Deno.Command("bash", {
      args: ["-c", `sed 's/^exec .*/pwd; cat ids.txt/' ${join(dir, "rel", "graphplan-batch.sbatch")} | bash`],
      cwd: "/",
      env: { SLURM_ARRAY_TASK_ID: "0" },
      stdout: "piped",
    }).output();
    assert.equal(new TextDecoder().decode(elsewhere.stdout), `${await Deno.realPath(dir)}\na__b-1\n`);
    const noShards = await graphplan(["slurm", "--subset", "lite"]);
    assert.equal(noShards.code, 2);
    assert.match(noShards.stderr, /--shards N/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test(
  "batch: an instance whose container cannot start is not predicted, so a resume retries it (exit 1)",
  SLOW,
  async () => {
    const dir = await scratch();
    try {
      const dataset = join(dir, "d.jsonl");
      await Deno.writeTextFile(dataset, '{"instance_id": "a__b-1", "problem_statement": "Fix it"}\n');
      const out = join(dir, "out");
      // A docker CLI that is there but cannot start anything (no daemon).
      const docker = await fakeDocker(dir, "echo 'Cannot connect to the Docker daemon' >&2\nexit 125");
      const args = scriptedBatch(dataset, docker, out);
      for (const round of [1, 2]) {
        const result = await graphplan(args);
        assert.equal(result.code, 1, result.stderr);
        assert.match(
          result.stderr,
          /^batch: 1 selected, 0 already in preds, 1 to run with 1 worker$/m,
          `round ${round}`,
        );
        // The log line says why, not only that it failed.
        assert.match(
          result.stderr,
          /^batch: a__b-1: EnvironmentError, \$0\.0000, 0 steps, .*Cannot connect to the Docker daemon/m,
        );
      }
      await assert.rejects(Deno.stat(join(out, "preds.json")), Deno.errors.NotFound);
      const record = JSON.parse(await Deno.readTextFile(join(out, "batch.json"))).instances["a__b-1"];
      assert.equal(record.status, "EnvironmentError");
      assert.match(record.error, /Cannot connect to the Docker daemon/);
      // The trajectory of a run that never got past setup still holds its task (inspect shows it).
      const trajectory = JSON.parse(await Deno.readTextFile(join(out, "a__b-1", "a__b-1.traj.json")));
      assert.equal(trajectory.info.task, "Fix it");
      assert.equal(trajectory.info.exit_status, "EnvironmentError");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);

Deno.test(
  "batch: a selection of no instance says so, naming the options that select (exit 0)",
  SLOW,
  async () => {
    const dir = await scratch();
    try {
      const dataset = join(dir, "d.jsonl");
      await Deno.writeTextFile(
        dataset,
        '{"instance_id": "a__b-1", "problem_statement": "x"}\n{"instance_id": "a__b-2", "problem_statement": "y"}\n',
      );
      // A container CLI that is there (nothing is started: there is nothing to run).
      const docker = await fakeDocker(dir, "exit 1");
      const none = await graphplan(
        scriptedBatch(dataset, docker, join(dir, "out"), ["--filter", "^django__"]),
      );
      assert.equal(none.code, 0, none.stderr);
      assert.match(
        none.stderr,
        /^batch: no instance selected from the 2 in ".*d\.jsonl": check --filter, --slice, --instances and --shard$/m,
      );
      assert.match(none.stderr, /^batch: 0 selected/m);
      // With --json: one document, snake_case as the other commands', naming where the outputs are.
      const json = await graphplan(
        scriptedBatch(dataset, docker, join(dir, "out"), [
          "--slice",
          "5:",
          "--preds-format",
          "jsonl",
          "--json",
        ]),
      );
      assert.equal(json.code, 0, json.stderr);
      assert.deepEqual(JSON.parse(json.stdout), {
        success: true,
        out: join(await Deno.realPath(dir), "out"),
        preds: join(await Deno.realPath(dir), "out", "preds.jsonl"),
        selected: 0,
        skipped: 0,
        ended: 0,
        not_started: 0,
        interrupted: null,
        cost: 0,
        exit_statuses: {},
        exit_code: 0,
        errors: [],
        warnings: [],
      });
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);
