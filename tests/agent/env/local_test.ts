import assert from "node:assert/strict";
import { join } from "node:path";
import { createEnvironment, LocalEnvironment, runProcess } from "../../../agent/env/mod.ts";
import { bigHeredoc } from "./_big_command.ts";

/** Pids of live (non-zombie) processes whose command line contains `needle`. */
async function livePids(needle: string): Promise<number[]> {
  const pids: number[] = [];
  for await (const entry of Deno.readDir("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const cmdline = (await Deno.readTextFile(`/proc/${entry.name}/cmdline`)).replaceAll("\0", " ");
      if (cmdline.includes(needle) && !cmdline.includes("/proc")) pids.push(Number(entry.name));
    } catch {
      // exited while we looked
    }
  }
  return pids;
}

/** Wait (bounded) until no live process matches `needle`; returns what is left. */
async function settle(needle: string): Promise<number[]> {
  for (let i = 0; i < 40; i++) {
    const left = await livePids(needle);
    if (left.length === 0) return left;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return livePids(needle);
}

async function withDir(body: (dir: string) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "gp_local_env_" });
  try {
    await body(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("local: runs bash in the directory and returns output and exit status", async () => {
  await withDir(async (dir) => {
    await Deno.writeTextFile(join(dir, "setup.py"), "from setuptools import setup\n");
    const env = new LocalEnvironment({ cwd: dir });
    const ok = await env.execute("ls && echo to-stderr >&2");
    assert.equal(ok.returncode, 0);
    assert.equal(ok.timedOut, false);
    assert.match(ok.output, /setup\.py/);
    assert.match(ok.output, /to-stderr/);
    const failed = await env.execute("grep -q nothing-like-this setup.py");
    assert.equal(failed.returncode, 1);
    const exitCode = await env.execute("exit 7");
    assert.equal(exitCode.returncode, 7);
    await env.close();
  });
});

Deno.test("local: per-command cwd (relative to the environment's) and environment variables", async () => {
  await withDir(async (dir) => {
    await Deno.mkdir(join(dir, "src", "pkg"), { recursive: true });
    const env = new LocalEnvironment({ cwd: dir, env: { PAGER: "cat", SHARED: "from-config" } });
    assert.equal(
      (await env.execute("pwd", { cwd: "src/pkg" })).output.trim(),
      await Deno.realPath(join(dir, "src", "pkg")),
    );
    assert.equal((await env.execute("pwd", { cwd: "/" })).output.trim(), "/");
    const vars = await env.execute('echo "$PAGER $SHARED $EXTRA"', {
      env: { EXTRA: "per-call", SHARED: "overridden" },
    });
    assert.equal(vars.output.trim(), "cat overridden per-call");
    await env.close();
  });
});

Deno.test("local: a timeout kills the whole process group", async () => {
  const marker = `100.${Deno.pid}1`;
  const env = new LocalEnvironment({ cwd: Deno.cwd() });
  const result = await env.execute(`echo started; sleep ${marker} & sleep ${marker}; wait`, { timeout: 0.5 });
  assert.equal(result.timedOut, true);
  assert.notEqual(result.returncode, 0);
  assert.match(result.output, /started/, "output before the timeout is kept");
  assert.deepEqual(await settle(`sleep ${marker}`), [], "no sleep survives the timeout");
});

Deno.test("local: background jobs do not outlive their command or hold its output open", async () => {
  const marker = `100.${Deno.pid}2`;
  const env = new LocalEnvironment({ cwd: Deno.cwd() });
  const result = await env.execute(`sleep ${marker} & echo left-running`, { timeout: 60 });
  assert.equal(result.timedOut, false);
  assert.equal(result.output.trim(), "left-running");
  assert.deepEqual(await settle(`sleep ${marker}`), []);
});

Deno.test("local: huge output keeps head and tail and says how much was cut", async () => {
  const env = new LocalEnvironment({ cwd: Deno.cwd(), output_limit: 2000 });
  const result = await env.execute("seq 1 200000");
  assert.equal(result.truncated, true);
  assert.ok(result.output.startsWith("1\n2\n3\n"));
  assert.ok(result.output.trimEnd().endsWith("199999\n200000"));
  const total =
    new TextEncoder().encode(Array.from({ length: 200000 }, (_, i) => `${i + 1}\n`).join("")).length;
  const cut = Number(/\[\.\.\. (\d+) of (\d+) bytes of output cut here/.exec(result.output)?.[1]);
  assert.equal(cut, total - 2000);
  assert.ok(result.output.length < 2300);
  const small = await env.execute("seq 1 10");
  assert.equal(small.truncated, undefined);
  assert.equal(small.output, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n");
});

Deno.test("local: copyIn and copyOut copy files and directories", async () => {
  await withDir(async (dir) => {
    const work = join(dir, "work");
    const host = join(dir, "host");
    await Deno.mkdir(work);
    await Deno.mkdir(join(host, "tree"), { recursive: true });
    await Deno.writeTextFile(join(host, "tree", "a.py"), "x = 1\n");
    const env = new LocalEnvironment({ cwd: work });
    await env.copyIn(join(host, "tree"), "copied");
    assert.equal((await env.execute("cat copied/a.py")).output, "x = 1\n");
    await env.execute("echo 'y = 2' > out.py");
    await env.copyOut("out.py", join(host, "out.py"));
    assert.equal(await Deno.readTextFile(join(host, "out.py")), "y = 2\n");
    await assert.rejects(env.copyOut("missing.py", join(host, "m.py")), /Cannot copy/);
  });
});

Deno.test("local: environments are registered by type", async () => {
  const env = await createEnvironment({ type: "local", cwd: "/" });
  assert.equal(env.type, "local");
  assert.equal(env.cwd, "/");
  await env.close();
  await assert.rejects(createEnvironment({ type: "kubernetes" }), /Unknown environment type "kubernetes"/);
});

Deno.test("runProcess: stdin is passed through", async () => {
  const result = await runProcess(["bash", "-c", "tr a-z A-Z"], { stdin: "hello\n", timeout: 30 });
  assert.equal(result.output, "HELLO\n");
});

Deno.test("local: a 1 MB heredoc command (over Linux's 128 KiB argument limit) runs; its stdin is empty", async () => {
  await withDir(async (dir) => {
    const env = new LocalEnvironment({ cwd: dir });
    const { command, body } = bigHeredoc(1 << 20);
    const result = await env.execute(command);
    assert.equal(result.returncode, 0, result.output);
    assert.equal(await Deno.readTextFile(join(dir, "plan.json")), body + "\n");
    assert.match(result.output, new RegExp(`^${body.length + 1} plan.json`, "m"));
    const stdin = await env.execute("cat; echo rc=$?");
    assert.equal(stdin.output, "rc=0\n", "the command reads an empty stdin, not its own text");
    await env.close();
  });
});
