import assert from "node:assert/strict";
import { join } from "node:path";
import { onInterrupt, runCleanups } from "../../../agent/env/mod.ts";
import { slow } from "../../_support/quick.ts";

const SLOW = slow("tests that start processes (the CLI, a helper, pytest, podman, the bundle)");

const CLEANUP_URL = new URL("../../../agent/env/cleanup.ts", import.meta.url).href;
const LOCAL_URL = new URL("../../../agent/env/local.ts", import.meta.url).href;

/** Run `source` as a Deno script, wait for it to print "ready", send SIGINT; returns the exit code. */
async function interrupt(dir: string, source: string): Promise<number> {
  const script = join(dir, "run.ts");
  await Deno.writeTextFile(script, source);
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", "--no-config", script],
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  while (!seen.includes("ready")) {
    const { value, done } = await reader.read();
    if (done) break;
    seen += value;
  }
  child.kill("SIGINT");
  const status = await child.status;
  await reader.cancel();
  await child.stderr.cancel();
  return status.code;
}

/** Whether a live process's command line contains `needle`. */
async function running(needle: string): Promise<boolean> {
  for await (const entry of Deno.readDir("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      if ((await Deno.readTextFile(`/proc/${entry.name}/cmdline`)).replaceAll("\0", " ").includes(needle)) {
        return true;
      }
    } catch {
      // exited while we looked
    }
  }
  return false;
}

Deno.test("cleanup: Ctrl-C runs the registered cleanups, then exits 130", SLOW, async () => {
  const dir = await Deno.makeTempDir({ prefix: "gp_cleanup_" });
  try {
    const marker = join(dir, "removed");
    const code = await interrupt(
      dir,
      `import { onInterrupt } from ${JSON.stringify(CLEANUP_URL)};
onInterrupt(async () => { await Deno.writeTextFile(${JSON.stringify(marker)}, "container removed"); });
setInterval(() => {}, 1000);
console.log("ready");
`,
    );
    assert.equal(code, 130);
    assert.equal(await Deno.readTextFile(marker), "container removed");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("cleanup: Ctrl-C kills the process group of a running local command", SLOW, async () => {
  const dir = await Deno.makeTempDir({ prefix: "gp_cleanup_" });
  const needle = `sleep 200.${Deno.pid}7`;
  const pattern = needle.replace(".", "[.]"); // matches the sleeps, not the pgrep command line
  try {
    const code = await interrupt(
      dir,
      `import { LocalEnvironment } from ${JSON.stringify(LOCAL_URL)};
const env = new LocalEnvironment({ cwd: ${JSON.stringify(dir)} });
const pending = env.execute("${needle} & ${needle}; wait", { timeout: 300 });
while (!(await env.execute("pgrep -f '${pattern}' >/dev/null && echo up")).output.includes("up")) {}
console.log("ready");
await pending;
`,
    );
    assert.equal(code, 130);
    for (let i = 0; i < 40 && await running(needle); i++) await new Promise((r) => setTimeout(r, 50));
    assert.equal(await running(needle), false);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("cleanup: unregistered cleanups do not run; runCleanups runs each once", async () => {
  const ran: string[] = [];
  const keep = onInterrupt(() => Promise.resolve(void ran.push("keep")));
  const drop = onInterrupt(() => Promise.resolve(void ran.push("drop")));
  drop();
  await runCleanups();
  await runCleanups();
  assert.deepEqual(ran, ["keep"]);
  keep();
});

Deno.test(
  "cleanup: a batch's takeover holds Ctrl-C; a run's graceful stop applies again once it is released",
  SLOW,
  async () => {
    const dir = await Deno.makeTempDir({ prefix: "gp_cleanup_" });
    try {
      const log = join(dir, "log");
      // A batch takes the signals over while a run inside it has a graceful
      // stop registered: the first Ctrl-C goes to the batch alone, which runs
      // the cleanups itself and exits with its own code.
      const taken = await interrupt(
        dir,
        `import { onInterrupt, onStop, runCleanups, takeOverInterrupts } from ${JSON.stringify(CLEANUP_URL)};
const note = (line) => Deno.writeTextFileSync(${JSON.stringify(log)}, line + "\\n", { append: true });
onInterrupt(() => Promise.resolve(note("container removed")), { keepOnStop: true });
onStop((signal) => note("run stopped " + signal));
takeOverInterrupts((signal) => {
  note("batch " + signal);
  runCleanups().then(() => Deno.exit(7));
});
setInterval(() => {}, 1000);
console.log("ready");
`,
      );
      assert.equal(taken, 7);
      assert.deepEqual((await Deno.readTextFile(log)).trim().split("\n"), [
        "batch SIGINT",
        "container removed",
      ]);

      // Released, the same Ctrl-C is a single run's again: the stop handler is
      // called, the kept cleanup is left to the run, and the process goes on
      // to end on its own.
      await Deno.remove(log);
      const released = await interrupt(
        dir,
        `import { onInterrupt, onStop, takeOverInterrupts } from ${JSON.stringify(CLEANUP_URL)};
const note = (line) => Deno.writeTextFileSync(${JSON.stringify(log)}, line + "\\n", { append: true });
onInterrupt(() => Promise.resolve(note("container removed")), { keepOnStop: true });
const timer = setInterval(() => {}, 1000);
onStop((signal) => { note("run stopped " + signal); clearInterval(timer); Deno.exit(0); });
takeOverInterrupts(() => note("batch"))();
console.log("ready");
`,
      );
      assert.equal(released, 0);
      assert.deepEqual((await Deno.readTextFile(log)).trim().split("\n"), ["run stopped SIGINT"]);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);
