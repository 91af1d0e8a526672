/**
 * `graphplan k8s`'s words: its --help lists only options it accepts (the
 * manifest sets --shard, -o and --env itself), and without --secret a model
 * that needs an API key is warned about, since the pods would get none.
 */

import assert from "node:assert/strict";
import { runCli } from "../_support/cli.ts";
import { slow } from "../_support/quick.ts";

const SLOW = slow("tests that start processes (the CLI, a helper, pytest, podman, the bundle)");

const BASE = ["k8s", "--shards", "2", "--job-image", "registry.example/graphplan:0.1"];

Deno.test("k8s --help lists no option that k8s refuses, and says who sets them", SLOW, async () => {
  const help = await runCli(["k8s", "--help"]);
  assert.equal(help.code, 0);
  // Option lines: two spaces, an optional short form, the long name.
  const listed = [...help.stdout.matchAll(/^ {2}(?:-\w, )?--([\w-]+)/gm)].map((match) => match[1]);
  assert.ok(listed.length > 20, listed.join(" "));
  for (const name of ["shard", "output", "env"]) assert.ok(!listed.includes(name), `--${name} is listed`);
  assert.match(help.stdout, /--shard, -o and --env are the manifest's/);
  // Each listed option that takes no file is accepted as k8s's own (a value k8s checks is given).
  const values: Record<string, string> = { shards: "2", parallelism: "1", workers: "1", runtime: "podman" };
  for (const name of listed) {
    if (["help", "shards", "job-image", "json", "repo", "subset", "instances", "config"].includes(name)) {
      continue;
    }
    const declared = (await runCli([...BASE, `--${name}`, values[name] ?? "1"])).stderr;
    assert.doesNotMatch(declared, /set by the manifest|Unknown option/, `--${name}: ${declared}`);
  }
});

Deno.test("k8s warns when the pods get no API key: a keyed model without --secret", SLOW, async () => {
  const env = { OPENAI_API_KEY: "", ANTHROPIC_API_KEY: "" };
  const keyed = await runCli([...BASE, "--model", "openai/gpt-5-mini"], { env });
  assert.equal(keyed.code, 0, keyed.stderr);
  assert.match(keyed.stdout, /kind: Job/);
  assert.match(
    keyed.stderr,
    /^k8s: the pods get no API key without --secret, and "openai\/gpt-5-mini" needs one \(OPENAI_API_KEY is not set in a pod\); .*--secret llm-keys$/m,
  );
  // A key on this machine does not reach the pods either.
  const here = await runCli([...BASE, "--model", "anthropic/claude-sonnet-4-5"], {
    env: { ...env, ANTHROPIC_API_KEY: "sk-here" },
  });
  assert.match(here.stderr, /ANTHROPIC_API_KEY is not set in a pod/);
  for (
    const extra of [
      ["--model", "openai/gpt-5-mini", "--secret", "llm-keys"],
      ["--model", "scripted/demo", "-c", "model.script=config/demo/scripted_run.yaml"],
    ]
  ) {
    const quiet = await runCli([...BASE, ...extra], { env });
    assert.equal(quiet.code, 0, quiet.stderr);
    assert.doesNotMatch(quiet.stderr, /API key/, extra.join(" "));
  }
});
