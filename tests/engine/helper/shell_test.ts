import assert from "node:assert/strict";
import { commandEnvironment, shellMethod } from "../../../engine/helper/shell.ts";
import { handleRequest, Session } from "../../../engine/helper/mod.ts";
import { bigHeredoc } from "../../agent/env/_big_command.ts";
import { slow } from "../../_support/quick.ts";

const WAITS = slow(
  "tests that wait on real timers for seconds (the stall watch's 1 + 2 + 4 s, TERM then KILL 5 s later)",
);

async function withDir(body: (dir: string) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "gp_shell_" });
  try {
    await body(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("shell: runs in cwd with the given variables, interleaves output, keeps the status; $0 is bash", async () => {
  await withDir(async (dir) => {
    const result = await shellMethod({
      command: 'pwd; echo "$0 $GP_X"; echo err >&2; exit 3',
      time_limit: 10,
      cwd: dir,
      env: { GP_X: "set" },
    });
    assert.deepEqual(result, {
      output: `${await Deno.realPath(dir)}\nbash set\nerr\n`,
      returncode: 3,
      timed_out: false,
      truncated: false,
    });
  });
});

Deno.test("shell: the command reads an empty stdin; a 1 MB heredoc arrives whole", async () => {
  await withDir(async (dir) => {
    const stdin = await shellMethod({ command: "cat; echo rc=$?", time_limit: 10, cwd: dir });
    assert.equal(stdin.output, "rc=0\n");
    const { command, body } = bigHeredoc(1 << 20);
    const big = await shellMethod({ command, time_limit: 30, cwd: dir });
    assert.equal(big.returncode, 0, big.output);
    assert.equal(await Deno.readTextFile(`${dir}/plan.json`), body + "\n");
  });
});

Deno.test(
  "shell: the time limit sends TERM (124), then KILL 5 s later to a command that ignores it (137)",
  WAITS,
  async () => {
    const started = performance.now();
    const timed = await shellMethod({ command: "echo start; sleep 20", time_limit: 0.5 });
    assert.deepEqual([timed.returncode, timed.timed_out, timed.output], [124, true, "start\n"]);
    assert.ok(performance.now() - started < 15_000, "not the 20 s of the sleep");
    const stubborn = await shellMethod({ command: "trap '' TERM; echo held; sleep 20", time_limit: 0.5 });
    assert.deepEqual([stubborn.returncode, stubborn.timed_out, stubborn.output], [137, true, "held\n"]);
  },
);

Deno.test("shell: output over the limit keeps head and tail; a job left running does not hold the answer", async () => {
  const cut = await shellMethod({
    command: "for ((i = 1; i <= 20000; i++)); do echo $i; done",
    time_limit: 10,
    output_limit: 200,
  });
  assert.equal(cut.truncated, true);
  assert.match(cut.output, /^1\n2\n[\s\S]*output cut here[\s\S]*\n20000\n$/);
  const started = performance.now();
  const background = await shellMethod({ command: "sleep 30 & echo $!", time_limit: 10 });
  assert.ok(performance.now() - started < 20_000, "answered before the job ended");
  const pid = Number(background.output.trim());
  assert.ok(pid > 0, background.output);
  Deno.kill(pid, "SIGKILL"); // it was still running, as after an exec
});

Deno.test("shell: a missing working directory is status 127 naming it; bad params are params-invalid", async () => {
  const missing = await shellMethod({ command: "true", time_limit: 5, cwd: "/no/such/dir" });
  assert.equal(missing.returncode, 127);
  assert.match(missing.output, /"\/no\/such\/dir"/);
  const session = Session.open(Deno.cwd());
  for (
    const params of [{}, { command: "true" }, { command: 1, time_limit: 1 }, {
      command: "true",
      time_limit: 1,
      env: [],
    }]
  ) {
    const response = await handleRequest(session, "shell", params);
    assert.ok(
      "error" in response && response.error.issues[0].code === "params-invalid",
      JSON.stringify(params),
    );
  }
  await session.close();
});

Deno.test("shell: commands get the helper's environment less its own variables and what Deno adds", () => {
  const env = commandEnvironment({
    PATH: "/tmp/graphplan-helper-deno/node_compat_bin:/usr/local/bin:/usr/bin",
    DENO_DIR: "/tmp/graphplan-helper-deno",
    DENO_NODE_SHIM_ACTIVE: "1",
    NO_COLOR: "1",
    HOME: "/root",
  }, ["DENO_DIR", "NO_COLOR"]);
  assert.deepEqual(env, { PATH: "/usr/local/bin:/usr/bin", HOME: "/root" });
});
