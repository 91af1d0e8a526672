/**
 * What `graphplan run` checks before anything starts, through the real CLI:
 * a repository that is not a git work tree, a container CLI that is not
 * installed, a model without a key, a price or a known provider are each
 * refused with what to do, before any model call, edit or output; every run
 * has a plan path of its own; `--env local` says that the model's commands
 * run on this machine.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { DEMO_TASK, git, graphplanRun, readJson, ROOT, runCommand, SAMPLE, sampleRepo } from "./_support.ts";
import { PYTHON_SKIP } from "../_support/python.ts";

/**
 * `graphplan run` on the demo task in `ctx.repo` as `id`, with the demo's script changed by `edit`
 * (a variation of the demo the test needs).
 */
async function demoVariant(
  ctx: { root: string; repo: string; out: string },
  id: string,
  edit: (script: string) => string,
) {
  const script = join(ctx.root, `${id}.yaml`);
  await Deno.writeTextFile(
    script,
    edit(await Deno.readTextFile(join(ROOT, "config/demo/scripted_run.yaml"))),
  );
  return await graphplanRun([
    "--repo",
    ctx.repo,
    ...DEMO_TASK.slice(0, 4),
    "-c",
    `model.script=${script}`,
    "--id",
    id,
    "-o",
    ctx.out,
  ]);
}

/** Every file under `dir` with its bytes, for "nothing changed" checks. */
async function snapshot(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const walk = async (sub: string) => {
    for await (const entry of Deno.readDir(join(dir, sub))) {
      const rel = sub ? `${sub}/${entry.name}` : entry.name;
      if (entry.isDirectory) await walk(rel);
      else files.set(rel, await Deno.readTextFile(join(dir, rel)));
    }
  };
  await walk("");
  return files;
}

Deno.test("run checks: a directory that is not a git work tree is refused before any model call or edit", async () => {
  const root = await Deno.makeTempDir({ prefix: "gp_run_nogit_" });
  try {
    const repo = join(root, "project");
    assert.equal((await runCommand(["cp", "-a", SAMPLE, repo], root)).code, 0);
    const before = await snapshot(repo);
    const result = await graphplanRun(["--repo", repo, ...DEMO_TASK, "-o", join(root, "out")]);
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stderr, /is not a git work tree/);
    assert.match(result.stderr, /git init && git add -A && git commit -m base/);
    assert.doesNotMatch(result.stderr, /internal error|\n\s+at |step 1/);
    assert.deepEqual(await snapshot(repo), before, "the scripted model's plan was not applied");
    assert.deepEqual(
      [...Deno.readDirSync(root)].map((entry) => entry.name),
      ["project"],
      "no output written",
    );
    // The --json form: one document with the issue.
    const json = await graphplanRun(["--repo", repo, ...DEMO_TASK, "-o", join(root, "out"), "--json"]);
    assert.equal(json.code, 1);
    assert.equal(JSON.parse(json.stdout).errors[0].code, "repo-not-git");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("run checks: two local runs at once each write their plan to a path of their own, removed after", async () => {
  const [a, b] = await Promise.all([sampleRepo(), sampleRepo()]);
  try {
    const results = await Promise.all(
      [a, b].map((ctx) => graphplanRun(["--repo", ctx.repo, ...DEMO_TASK, "--id", "same", "-o", ctx.out])),
    );
    const paths: string[] = [];
    for (const [k, ctx] of [a, b].entries()) {
      assert.equal(results[k].code, 0, results[k].stderr);
      assert.match(results[k].stdout, /^\+ +discount = order\.customer\.discount or Decimal\("0"\)$/m);
      const saved = await readJson<
        { info: { config: { agent: { plan_path: string } }; phases: { name: string; source?: string }[] } }
      >(
        join(ctx.out, "same", "same.traj.json"),
      );
      // The plan came from the file the prompt named, not from the model's message.
      assert.equal(saved.info.phases.find((phase) => phase.name === "plan")?.source, "file");
      paths.push(saved.info.config.agent.plan_path);
    }
    assert.notEqual(paths[0], paths[1]);
    for (const path of paths) {
      assert.match(path, /graphplan-run-[^/]+\/edit_plan\.json$/);
      assert.notEqual(path, "/tmp/edit_plan.json");
      assert.throws(
        () => Deno.statSync(join(path, "..")),
        Deno.errors.NotFound,
        "the run's directory is removed",
      );
    }
  } finally {
    await Promise.all([a.cleanup(), b.cleanup()]);
  }
});

Deno.test("run checks: --env local says on stderr that the model's commands run on this machine", async () => {
  const ctx = await sampleRepo();
  try {
    const result = await graphplanRun(["--repo", ctx.repo, ...DEMO_TASK, "-o", ctx.out]);
    assert.equal(result.code, 0, result.stderr);
    const lines = result.stderr.split("\n");
    const notice = lines.filter((line) => /run on this machine as the current user/.test(line));
    assert.equal(notice.length, 1, result.stderr);
    assert.match(notice[0], /--env podman/);
    // Said first, before the run starts.
    assert.ok(lines.indexOf(notice[0]) < lines.findIndex((line) => /setup: starting/.test(line)));
  } finally {
    await ctx.cleanup();
  }
});

Deno.test("run checks: a container CLI, key, price or provider that cannot work is a usage error before any output", async (t) => {
  const ctx = await sampleRepo();
  // A PATH with bash and git (the checks need them) and no podman or docker.
  const bin = join(ctx.root, "bin");
  await Deno.mkdir(bin);
  for (const tool of ["bash", "git"]) {
    const found = (await runCommand(["bash", "-c", `command -v ${tool}`], ctx.root)).stdout.trim();
    await Deno.symlink(found, join(bin, tool));
  }
  const refused = async (args: string[], env: Record<string, string>, message: RegExp, code: string) => {
    const result = await graphplanRun([
      "--repo",
      ctx.repo,
      "--task",
      "Fix it",
      "-o",
      ctx.out,
      ...args,
      "--json",
    ], {
      env: { OPENAI_API_KEY: "", ANTHROPIC_API_KEY: "", ...env },
    });
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, message);
    assert.doesNotMatch(result.stderr, /Failed to spawn|internal error|\n\s+at /);
    assert.equal(JSON.parse(result.stdout).errors[0].code, code);
    assert.throws(() => Deno.statSync(ctx.out), Deno.errors.NotFound, "no trajectory or preds.json");
  };
  try {
    await t.step("podman not installed", () =>
      refused(
        ["--env", "podman", "--image", "python:3.11", ...DEMO_TASK.slice(2)],
        { PATH: bin },
        /Cannot run "podman": it is not on PATH; install it, or use --env docker/,
        "container-cli-missing",
      ));
    await t.step(
      "no API key",
      () => refused(["--model", "openai/gpt-5-mini"], {}, /OPENAI_API_KEY is not set/, "model-invalid"),
    );
    await t.step("no price", () =>
      refused(
        ["--model", "openai/unpriced-model", "-c", "model.base_url=http://127.0.0.1:9/v1"],
        { OPENAI_API_KEY: "test-key" },
        /No price for model "openai\/unpriced-model"/,
        "model-invalid",
      ));
    await t.step(
      "an openrouter/ name without its key",
      () =>
        refused(
          ["--model", "openrouter/qwen/qwen3-coder"],
          { OPENROUTER_API_KEY: "" },
          /OPENROUTER_API_KEY is not set: export it for "openrouter\/\.\.\." models/,
          "model-invalid",
        ),
    );
    assert.equal(await git(ctx.repo, "status", "--porcelain"), "", "the repository is untouched");
  } finally {
    await ctx.cleanup();
  }
});

Deno.test("run: the graph view tells the model which chosen files have no code graph (unknown language)", async () => {
  const ctx = await sampleRepo();
  try {
    const ready = `echo 'READY_TO_PLAN: ["app/service.py"]'`;
    const result = await demoVariant(ctx, "view", (demo) => {
      assert.ok(demo.includes(ready), "the demo script's READY_TO_PLAN turn");
      return demo.replace(ready, `echo 'READY_TO_PLAN: ["app/service.py", "README.md"]'`);
    });
    assert.equal(result.code, 0, result.stderr);
    const saved = await readJson<{ messages: { role: string; content: string }[] }>(
      join(ctx.out, "view", "view.traj.json"),
    );
    const view = saved.messages.find((message) =>
      message.role === "user" && message.content.includes("FILE: app/service.py")
    );
    assert.ok(view, "the graph view was sent");
    assert.match(view.content, /FILE: README\.md\n {2}ERROR: Unknown file extension: "README\.md"/);
  } finally {
    await ctx.cleanup();
  }
});

Deno.test("run: a progress line of a failed verification says its first error", async () => {
  const ctx = await sampleRepo();
  try {
    // The plan's turn twice: first with the attribute misspelt (verification fails), then as it is.
    const result = await demoVariant(ctx, "typo", (demo) => {
      const start = demo.indexOf("- content: >-\n    One expression changes");
      const end = demo.indexOf("- content: The plan was applied");
      assert.ok(start > 0 && end > start, "the demo script's plan turn");
      const misspelt = demo.slice(start, end).replace('"name": "discount"', '"name": "discont"');
      assert.ok(misspelt.includes("discont"));
      return demo.slice(0, start) + misspelt + demo.slice(start);
    });
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stderr,
      /^\[typo\] verify: failed \(verify_plan\): Step 0 \(replace_expression\): Cannot resolve locator: no attribute "discont" inside method "order_total"[^\n]*$/m,
    );
    assert.match(result.stderr, /^\[typo\] verify: passed \(verify_plan\)$/m);
  } finally {
    await ctx.cleanup();
  }
});

Deno.test({
  name: "run: an rfsn run whose scripted model ran out of turns records a sentence, not a stack trace",
  ignore: PYTHON_SKIP !== undefined,
  async fn() {
    const ctx = await sampleRepo();
    try {
      const script = join(ctx.root, "one.yaml");
      await Deno.writeTextFile(script, "- content: Let me think.\n");
      const result = await graphplanRun([
        "--strategy",
        "rfsn",
        "--repo",
        ctx.repo,
        ...DEMO_TASK.slice(0, 2),
        "-c",
        "model.name=scripted/short",
        "-c",
        `model.script=${script}`,
        "--id",
        "short",
        "-o",
        ctx.out,
      ]);
      assert.equal(result.code, 1, result.stderr);
      const saved = await readJson<{ info: { exit_status: string; error: string } }>(
        join(ctx.out, "short", "short.traj.json"),
      );
      assert.equal(saved.info.exit_status, "ModelError");
      assert.equal(saved.info.error, 'Scripted model "scripted/short" has no turn 2: the script has 1');
    } finally {
      await ctx.cleanup();
    }
  },
});
