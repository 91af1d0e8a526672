import assert from "node:assert/strict";
import {
  ContainerEnvironment,
  createEnvironment,
  EnvironmentError,
  type ExecResult,
  type Runner,
  spawnHost,
} from "../../../agent/env/mod.ts";
import type { RunOptions } from "../../../agent/env/process.ts";
import { slow } from "../../_support/quick.ts";

const WAITS = slow(
  "tests that wait on real timers for seconds (the stall watch's 1 + 2 + 4 s, TERM then KILL 5 s later)",
);

/** Records every argv; answers from `answer` (default: success, no output). Sessions run a real `cat`. */
function fakeRunner(answer: (argv: string[]) => Partial<ExecResult> = () => ({})) {
  const calls: { argv: string[]; options?: RunOptions }[] = [];
  const spawned: string[][] = [];
  const runner: Runner = {
    run: (argv, options) => {
      calls.push({ argv, options });
      return Promise.resolve({ output: "", returncode: 0, timedOut: false, ...answer(argv) });
    },
    spawn: (argv) => {
      spawned.push(argv);
      return spawnHost(["cat"])();
    },
  };
  return { runner, calls, spawned };
}

const CONFIG = {
  type: "docker",
  image: "swebench/sweb.eval.x86_64.astropy_1776_astropy-12907:latest",
  cwd: "/testbed",
  timeout: 30,
  env: { PAGER: "cat" },
  run_args: ["--memory", "4g"],
};

Deno.test("docker: start runs a detached container with a long-lived process", async () => {
  const fake = fakeRunner();
  const env = await ContainerEnvironment.start(CONFIG, { runner: fake.runner, name: "graphplan-test" });
  assert.deepEqual(fake.calls[0].argv, [
    "docker",
    "run",
    "-d",
    "--rm",
    "--name",
    "graphplan-test",
    "-w",
    "/testbed",
    "--memory",
    "4g",
    CONFIG.image,
    "sleep",
    "infinity",
  ]);
  assert.equal(env.cwd, "/testbed");
  await env.close();
});

Deno.test("docker: exec wraps the command in timeout, passes cwd and env, and sends the command on stdin", async () => {
  const fake = fakeRunner((argv) => argv[1] === "exec" ? { output: "README.rst\n" } : {});
  const env = await ContainerEnvironment.start(CONFIG, { runner: fake.runner, name: "c1" });
  const result = await env.execute("ls", { cwd: "astropy", env: { TQDM_DISABLE: "1" }, timeout: 10 });
  assert.equal(result.output, "README.rst\n");
  assert.equal(result.timedOut, false);
  const exec = fake.calls[1];
  assert.deepEqual(exec.argv, [
    "docker",
    "exec",
    "-i",
    "-w",
    "/testbed/astropy",
    "-e",
    "PAGER=cat",
    "-e",
    "TQDM_DISABLE=1",
    "c1",
    "timeout",
    "-k",
    "5",
    "10",
    "bash",
    "-c",
    'eval "$(</dev/stdin)" </dev/null',
    "bash",
  ]);
  assert.equal(exec.options!.stdin, "ls", "the command travels on stdin, never in argv");
  assert.ok(exec.options!.timeout! > 10, "the host-side client gets a longer backstop");
  await env.execute("pwd");
  assert.deepEqual(fake.calls[2].argv.slice(3, 5), ["-w", "/testbed"]);
  const argv = fake.calls[2].argv;
  assert.equal(argv[argv.indexOf("timeout") + 3], "30", "the config's default timeout");
  await env.close();
});

Deno.test("docker: exit status 124 from timeout means the command timed out", async () => {
  const fake = fakeRunner((argv) => argv[1] === "exec" ? { output: "partial\n", returncode: 124 } : {});
  const env = await ContainerEnvironment.start(CONFIG, { runner: fake.runner, name: "c2" });
  const result = await env.execute("sleep 100");
  assert.equal(result.timedOut, true);
  assert.equal(result.output, "partial\n");
  await env.close();
});

Deno.test("docker: cp in and out, with failures as EnvironmentError", async () => {
  const fake = fakeRunner((argv) =>
    argv[1] === "cp" && argv[2].includes("missing") ? { returncode: 1, output: "no such file" } : {}
  );
  const env = await ContainerEnvironment.start(CONFIG, { runner: fake.runner, name: "c3" });
  await env.copyIn("/opt/graphplan/graphplan.js", "/usr/local/bin/graphplan.js");
  await env.copyOut("patch.diff", "/tmp/out/patch.diff");
  assert.deepEqual(fake.calls[1].argv, [
    "docker",
    "cp",
    "/opt/graphplan/graphplan.js",
    "c3:/usr/local/bin/graphplan.js",
  ]);
  assert.deepEqual(fake.calls[2].argv, ["docker", "cp", "c3:/testbed/patch.diff", "/tmp/out/patch.diff"]);
  await assert.rejects(
    env.copyOut("/missing", "/tmp/x"),
    (err: Error) => err instanceof EnvironmentError && /no such file/.test(err.message),
  );
  await env.close();
});

Deno.test("docker: a line session is exec -i, and close removes the container once", async () => {
  const fake = fakeRunner();
  const env = await ContainerEnvironment.start(CONFIG, { runner: fake.runner, name: "c4" });
  const session = env.startSession(["graphplan", "helper", "--serve", "--repo", "."]);
  assert.deepEqual(fake.spawned[0], [
    "docker",
    "exec",
    "-i",
    "-w",
    "/testbed",
    "-e",
    "PAGER=cat",
    "c4",
    "graphplan",
    "helper",
    "--serve",
    "--repo",
    ".",
  ]);
  assert.equal(await session.request('{"id": 1, "method": "version"}'), '{"id": 1, "method": "version"}');
  await env.close();
  await env.close();
  assert.equal(session.alive, false);
  const removals = fake.calls.filter((call) => call.argv[1] === "rm");
  assert.deepEqual(removals.map((call) => call.argv), [["docker", "rm", "-f", "c4"]]);
});

Deno.test("podman: same commands with the podman CLI; executable can be overridden", async () => {
  const fake = fakeRunner();
  const env = await createEnvironment({ ...CONFIG, type: "podman" }, { runner: fake.runner });
  assert.equal(env.type, "podman");
  assert.equal(fake.calls[0].argv[0], "podman");
  assert.match(fake.calls[0].argv[5], /^graphplan-[0-9a-f]{8}$/);
  await env.close();
  // podman's rm -f waits 10 s for SIGTERM first; -t 0 kills at once.
  assert.deepEqual(fake.calls.at(-1)!.argv.slice(0, 5), ["podman", "rm", "-f", "-t", "0"]);

  const custom = fakeRunner();
  const other = await createEnvironment({ ...CONFIG, type: "docker", executable: "/usr/bin/nerdctl" }, {
    runner: custom.runner,
  });
  assert.equal(custom.calls[0].argv[0], "/usr/bin/nerdctl");
  await other.close();
});

Deno.test("docker: a container that does not start is an error naming the image, and is cleaned up", async () => {
  const fake = fakeRunner((argv) =>
    argv[1] === "run" ? { returncode: 125, output: "Error: image not known" } : {}
  );
  await assert.rejects(
    ContainerEnvironment.start(CONFIG, { runner: fake.runner, name: "c5" }),
    (err: Error) =>
      err instanceof EnvironmentError && /image not known/.test(err.message) && /astropy/.test(err.message),
  );
  assert.deepEqual(fake.calls.at(-1)!.argv, ["docker", "rm", "-f", "c5"]);
  await assert.rejects(
    ContainerEnvironment.start({ type: "docker" }, { runner: fake.runner }),
    /needs "environment.image"/,
  );
});

const MAIN = { argv: ["/opt/graphplan/helper", "--serve"], env: {} };

Deno.test(
  "docker: a run -i that never passes the output on is started again with run -d, warned about once",
  WAITS,
  async () => {
    // The attached client is `cat` (it never writes); every exec answers, so the probe finds the marker printed.
    const fake = fakeRunner();
    const config = { ...CONFIG, executable: "/opt/stalling/docker" };
    const env = await ContainerEnvironment.start(config, { runner: fake.runner, name: "c6", main: MAIN });
    try {
      assert.equal(fake.spawned.length, 1);
      assert.deepEqual(fake.spawned[0].slice(0, 3), ["/opt/stalling/docker", "run", "-i"]);
      const probes = fake.calls.filter((call) => call.argv[1] === "exec");
      assert.equal(probes.length, 3);
      assert.match(probes[0].argv.at(-1)!, /^\/tmp\/graphplan-main-/);
      // The attached container removed, then the same one detached.
      assert.deepEqual(
        fake.calls.filter((call) => call.argv[1] !== "exec").map((call) => call.argv.slice(1, 3)),
        [["rm", "-f"], ["run", "-d"]],
      );
      assert.equal(fake.calls.at(-1)!.argv[fake.calls.at(-1)!.argv.indexOf("--name") + 1], "c6");
      assert.equal(env.mainPending, false);
      assert.match(
        env.warning!,
        /"\/opt\/stalling\/docker run -i" started the container but never passed on its output/,
      );
      assert.match(env.warning!, /environment\.helper_main=false/);
      // The session opens with exec -i.
      env.startSession(MAIN.argv);
      assert.deepEqual(fake.spawned[1].slice(0, 3), ["/opt/stalling/docker", "exec", "-i"]);
    } finally {
      await env.close();
    }
    // A later container of the same runtime skips the attempt, without a second warning.
    const later = fakeRunner();
    const next = await ContainerEnvironment.start(config, { runner: later.runner, name: "c7", main: MAIN });
    assert.deepEqual(later.spawned, []);
    assert.deepEqual(later.calls[0].argv.slice(1, 3), ["run", "-d"]);
    assert.equal(next.warning, undefined);
    await next.close();
  },
);

Deno.test("docker: when run -d fails as run -i did (no such image), the error stays and no warning is given", async () => {
  const fake = fakeRunner((argv) =>
    argv[1] === "run" ? { returncode: 125, output: "Error: image not known" } : {}
  );
  fake.runner.spawn = (argv) => {
    fake.spawned.push(argv);
    return spawnHost(["bash", "-c", "echo 'Error: image not known' >&2; exit 125"])();
  };
  const config = { ...CONFIG, executable: "/opt/imageless/docker" };
  for (let i = 0; i < 2; i++) {
    await assert.rejects(
      ContainerEnvironment.start(config, { runner: fake.runner, name: "c8", main: MAIN }),
      (err: Error) => err instanceof EnvironmentError && /image not known/.test(err.message),
    );
  }
  // The runtime's run -i is not to blame: each start tried it.
  assert.equal(fake.spawned.length, 2);
});

Deno.test("docker: a run -i that fails where run -d works is warned about with the runtime's error", async () => {
  const fake = fakeRunner();
  fake.runner.spawn = (argv) => {
    fake.spawned.push(argv);
    return spawnHost(["bash", "-c", "echo 'Error: attaching is not supported here' >&2; exit 125"])();
  };
  const env = await ContainerEnvironment.start({ ...CONFIG, executable: "/opt/unattached/docker" }, {
    runner: fake.runner,
    name: "c9",
    main: MAIN,
  });
  try {
    assert.deepEqual(fake.calls.filter((call) => call.argv[1] === "exec"), [], "no probe was needed");
    assert.deepEqual(fake.calls.at(-1)!.argv.slice(1, 3), ["run", "-d"]);
    assert.equal(env.mainPending, false);
    assert.match(
      env.warning!,
      /"\/opt\/unattached\/docker run -i" ended before the helper started \(Error: attaching is not supported here\)/,
    );
  } finally {
    await env.close();
  }
});
