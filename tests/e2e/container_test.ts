/**
 * `graphplan run` end to end in a real container: an image built in the
 * test from the host's glibc files (bash, coreutils, grep, sed, find, git;
 * no Node, no Python, no Deno), the helper copied in at setup (the `deno`
 * executable + `dist/graphplan.js`, mounted read-only; copied in on the fallback path), one `--serve`
 * session over `exec -i` that also runs the agent's commands (one `exec` each on the fallback path),
 * no network. Once through the `podman` CLI and once through the `docker`
 * CLI against `podman system service`. Skipped where podman is absent.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { buildMinimalImage } from "../../tools/minimal_image.ts";
import {
  bash,
  fakeServer,
  FIX,
  fixPlan,
  git,
  graphplanRun,
  podmanEnv,
  readJson,
  ROOT,
  sampleRepo,
  SUBMIT,
  TASK,
  writePlan,
} from "./_support.ts";
import { skipReason } from "../_support/skips.ts";
import { SEEDED_START } from "../../agent/common/mod.ts";

function has(name: string): boolean {
  try {
    return new Deno.Command("bash", { args: ["-c", `type -P ${name}`], stdout: "null", stderr: "null" })
      .outputSync()
      .success;
  } catch {
    return false;
  }
}

const PODMAN_SKIP = skipReason(has("podman") ? "" : "podman is not installed");
const DOCKER_SKIP = skipReason(PODMAN_SKIP || (has("docker") ? "" : "the docker CLI is not installed"));
if (PODMAN_SKIP) console.log(`container_test: skipped: ${PODMAN_SKIP}`);
else if (DOCKER_SKIP) console.log(`container_test: docker CLI test skipped: ${DOCKER_SKIP}`);

async function sh(command: string, env: Record<string, string> = {}) {
  const out = await new Deno.Command("bash", {
    args: ["-c", command],
    env: { ...podmanEnv(), ...env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

let image: Promise<string> | undefined;

/** The minimal image, built once per test file. */
function minimalImage(): Promise<string> {
  image ??= (async () => {
    const name = `localhost/graphplan-e2e-${crypto.randomUUID().slice(0, 8)}:latest`;
    const saved = Deno.env.get("CONTAINERS_CONF");
    for (const [key, value] of Object.entries(podmanEnv())) Deno.env.set(key, value);
    try {
      await buildMinimalImage(name, { cli: "podman" });
    } finally {
      if (saved === undefined && podmanEnv().CONTAINERS_CONF) Deno.env.delete("CONTAINERS_CONF");
    }
    return name;
  })();
  return image;
}

/** Run the sample task in a container of `cli` (`podman` or `docker`) with the fake model server. */
async function containerRun(
  cli: "podman" | "docker",
  env: Record<string, string> = {},
  options: string[] = [],
) {
  const name = await minimalImage();
  const ctx = await sampleRepo();
  // The plan file lives in the container, in the run's own directory: the model writes it where
  // the prompt and $GRAPHPLAN_PLAN_PATH say.
  const planPath = '"$GRAPHPLAN_PLAN_PATH"';
  const server = fakeServer([
    bash(
      "grep -n discount app/service.py && command -v python3 node deno || echo 'no python3, node or deno'",
    ),
    bash(`echo 'READY_TO_PLAN: ["app/service.py"]'`),
    bash(writePlan(planPath, fixPlan())),
    bash("git diff --stat"),
    bash(SUBMIT),
  ]);
  try {
    const result = await graphplanRun([
      "--repo",
      ctx.repo,
      "--task",
      TASK,
      "--id",
      `container-${cli}`,
      "--env",
      cli,
      "--image",
      name,
      "--model",
      "openai/fake-model",
      "-o",
      ctx.out,
      "-c",
      `model.base_url=${server.url}/v1`,
      "-c",
      "model.cost_tracking=ignore",
      "-c",
      "environment.run_args=[--network, none]",
      ...options,
    ], { env: { ...podmanEnv(), OPENAI_API_KEY: "test-key", ...env } });
    const id = `container-${cli}`;
    const trajectory = await readJson<{
      info: {
        exit_status: string;
        phases: { name: string; status: string; [key: string]: unknown }[];
        patch_check?: { ok: boolean };
        baseline?: { tree?: string; error?: string };
        submission: string;
        shell?: { session: number; exec: number; lost: number };
      };
      messages: { role: string; content: string }[];
    }>(join(ctx.out, id, `${id}.traj.json`));
    return { ...result, ctx, trajectory, requests: server.requests };
  } finally {
    await server.close();
  }
}

/** The fallback path: the helper copied in, every command one `exec`. */
const EXEC_PATH = ["-c", "environment.shell=exec", "-c", "environment.helper_mount=false"];

async function assertContainerRun(
  outcome: Awaited<ReturnType<typeof containerRun>>,
  cli: string,
  path: "session" | "exec" = "session",
) {
  assert.equal(outcome.code, 0, outcome.stderr);
  assert.ok(outcome.stdout.includes(`+        ${FIX}`), outcome.stdout);
  const { info, messages } = outcome.trajectory;
  assert.equal(info.exit_status, "Submitted");
  assert.deepEqual(info.phases.map((phase) => phase.name), [
    "setup",
    "explore",
    "graph",
    "plan",
    "verify",
    "execute",
    "submit",
  ]);
  // The plan was read from the run's own plan path inside the container, not found in the message.
  assert.equal(info.phases[3].source, "file");
  const setup = info.phases[0] as unknown as {
    environment: string;
    cwd: string;
    helper: { mode: string; argv: string[] };
  };
  assert.equal(setup.environment, cli);
  assert.equal(setup.cwd, "/repo");
  assert.equal(setup.helper.mode, "bundle");
  if (path === "session") {
    // Mounted read-only at the container's creation, nothing copied, started from the warm Deno cache made on
    // the host; the commands went through the session.
    assert.deepEqual(setup.helper.argv.slice(0, 3), ["bash", "-c", SEEDED_START]);
    assert.deepEqual(setup.helper.argv.slice(6, 8), ["/tmp/graphplan-helper-ro/deno", "run"]);
    assert.equal(info.shell?.exec, 0, JSON.stringify(info.shell));
    assert.equal(info.shell?.lost, 0);
    assert.ok(info.shell!.session >= 5, JSON.stringify(info.shell));
  } else {
    assert.deepEqual(setup.helper.argv.slice(0, 2), ["/tmp/graphplan-helper/deno", "run"]);
    assert.equal(info.shell, undefined, "no session shell: one exec per command");
  }
  assert.equal(info.phases.find((phase) => phase.name === "verify")!.status, "passed");
  assert.equal(info.patch_check?.ok, true);
  // The baseline was written in the container, from the clean copy: HEAD's tree. The patch is
  // computed from it there (the host copy never held the fix), with the index left alone.
  assert.equal(info.baseline?.tree, (await git(outcome.ctx.repo, "rev-parse", "HEAD^{tree}")).trim());
  assert.match(info.submission, /^diff --git a\/app\/service\.py b\/app\/service\.py\n/);
  // The image has no interpreter of its own.
  assert.ok(messages.some((m) => m.role === "tool" && m.content.includes("no python3, node or deno")));
  // The host copy is untouched: the edit happened inside the container.
  assert.ok(!(await Deno.readTextFile(join(outcome.ctx.repo, "app/service.py"))).includes(FIX));
}

Deno.test({
  name: "e2e container: graphplan run with --env podman in an image without Node, Python or network",
  ignore: PODMAN_SKIP !== "",
  async fn() {
    const outcome = await containerRun("podman");
    try {
      await assertContainerRun(outcome, "podman");
      const left = await sh(`podman ps -a -q --filter ancestor=${await minimalImage()}`);
      assert.equal(left.stdout.trim(), "", "the container was removed");
    } finally {
      await outcome.ctx.cleanup();
    }
  },
});

Deno.test({
  name: "e2e container: the same run through the fallback (helper copied in, one exec per command)",
  ignore: PODMAN_SKIP !== "",
  async fn() {
    const outcome = await containerRun("podman", {}, EXEC_PATH);
    try {
      await assertContainerRun(outcome, "podman", "exec");
    } finally {
      await outcome.ctx.cleanup();
    }
  },
});

Deno.test({
  name: "e2e container: graphplan run with --env docker against podman system service",
  ignore: DOCKER_SKIP !== "",
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "gp_podman_sock_" });
    const socket = join(dir, "podman.sock");
    const service = new Deno.Command("podman", {
      args: ["system", "service", "--time=0", `unix://${socket}`],
      env: podmanEnv(),
      stdout: "null",
      stderr: "null",
    }).spawn();
    try {
      for (let i = 0; i < 100; i++) {
        try {
          Deno.statSync(socket);
          break;
        } catch {
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
      const dockerHost = `unix://${socket}`;
      const ping = await sh("docker version --format '{{.Server.Version}}'", { DOCKER_HOST: dockerHost });
      assert.equal(ping.code, 0, ping.stderr);
      const outcome = await containerRun("docker", { DOCKER_HOST: dockerHost });
      try {
        await assertContainerRun(outcome, "docker");
        const left = await sh(`docker ps -a -q --filter ancestor=${await minimalImage()}`, {
          DOCKER_HOST: dockerHost,
        });
        assert.equal(left.stdout.trim(), "", "the container was removed");
      } finally {
        await outcome.ctx.cleanup();
      }
    } finally {
      service.kill("SIGTERM");
      await service.status;
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  },
});

Deno.test({
  name: "e2e container: remove the test image",
  ignore: PODMAN_SKIP !== "",
  async fn() {
    if (!image) return;
    const name = await image;
    const removed = await sh(`podman rmi -f ${name}`);
    assert.equal(removed.code, 0, removed.stderr);
    assert.ok(ROOT.length > 0);
  },
});
