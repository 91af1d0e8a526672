/**
 * The agent's commands through the helper's session in a real podman
 * container, against one `exec` per command in the same container: equal
 * results (output, status, timeout, cut, cwd, environment, stdin, 1 MB
 * heredocs), the fallback when the session dies mid-run, and the helper
 * found through read-only mounts or, when they are missing, copied.
 * Skipped where podman is absent.
 */

import assert from "node:assert/strict";
import { ContainerEnvironment, type ExecOptions, type ExecResult } from "../../../agent/env/mod.ts";
import {
  CODE_CACHE_HIT,
  deployHelper,
  mainSession,
  mountedLaunch,
  plannedLaunch,
  SEEDED_START,
  type SessionHelper,
  sessionShell,
  type SessionShellEnvironment,
} from "../../../agent/common/mod.ts";
import { shellQuote } from "../../../agent/env/shell_quote.ts";
import { buildMinimalImage } from "../../../tools/minimal_image.ts";
import { podmanEnv } from "../../e2e/_support.ts";
import { skipReason } from "../../_support/skips.ts";
import { slow } from "../../_support/quick.ts";
import { bigHeredoc } from "../env/_big_command.ts";

function has(name: string): boolean {
  try {
    return new Deno.Command("bash", { args: ["-c", `type -P ${name}`], stdout: "null", stderr: "null" })
      .outputSync().success;
  } catch {
    return false;
  }
}

const SKIP = skipReason(has("podman") ? "" : "podman is not installed");
const SLOW = slow("tests that start processes (the CLI, a helper, pytest, podman, the bundle)");
const test = (name: string, fn: () => Promise<void>) =>
  Deno.test({ name: `session shell: ${name}`, ignore: SKIP !== "" || SLOW.ignore, fn });

let image: Promise<string> | undefined;

function minimalImage(): Promise<string> {
  image ??= (async () => {
    for (const [key, value] of Object.entries(podmanEnv())) Deno.env.set(key, value);
    const name = `localhost/graphplan-shell-${crypto.randomUUID().slice(0, 8)}:latest`;
    await buildMinimalImage(name, { cli: "podman" });
    return name;
  })();
  return image;
}

const CONFIG = { timeout: 30, output_limit: 10_000, env: { PAGER: "cat", TQDM_DISABLE: "1" } };

/** A container with the helper mounted and its session open; `body` gets both paths. */
async function withShell(
  body: (
    ctx: { env: ContainerEnvironment; shell: SessionShellEnvironment; helper: SessionHelper },
  ) => Promise<void>,
  options: { mount?: boolean; main?: boolean } = {},
): Promise<{ mounted: boolean; main: boolean; argv: string[] }> {
  const planned = await plannedLaunch({ type: "podman", helper_mount: true });
  const main = options.main ? mainSession(planned.launch, "/tmp") : undefined;
  const env = await ContainerEnvironment.start({
    type: "podman",
    image: await minimalImage(),
    cwd: "/tmp",
    run_args: ["--network", "none", ...(options.mount === false ? [] : planned.runArgs)],
    ...CONFIG,
  }, { main });
  try {
    await env.execute("mkdir -p /tmp/sub");
    const { helper, info } = await deployHelper(env, { launch: planned.launch, main: main !== undefined });
    try {
      await body({ env, shell: sessionShell(env, helper, CONFIG), helper });
    } finally {
      await helper.close();
    }
    return { mounted: info.mounted === true, main: info.main === true, argv: info.argv };
  } finally {
    await env.close();
  }
}

/** The same command both ways; both results. */
async function both(
  ctx: { env: ContainerEnvironment; shell: SessionShellEnvironment },
  command: string,
  options: ExecOptions = {},
): Promise<{ session: ExecResult; exec: ExecResult }> {
  const before = ctx.shell.counts.session;
  const session = await ctx.shell.execute(command, options);
  assert.equal(ctx.shell.counts.session, before + 1, `"${command.slice(0, 40)}" went through the session`);
  const exec = await ctx.env.execute(command, options);
  return { session, exec };
}

for (const main of [false, true]) {
  const how = main ? "the container's main process" : "exec -i";
  test(`the session opened by ${how} runs a command exactly as one exec does`, async () => {
    const opened = await withShell(equalToExec, { main });
    assert.equal(opened.mounted, true, "the helper was found through the read-only mounts");
    assert.equal(opened.main, main, `the session was opened by ${how}`);
  });
}

/** The same commands through the session and as one exec each: equal results. */
async function equalToExec(
  ctx: { env: ContainerEnvironment; shell: SessionShellEnvironment },
): Promise<void> {
  const cases: [string, ExecOptions][] = [
    ["pwd; echo out; echo err >&2; exit 3", { cwd: "sub" }],
    ["env | sort", { env: { GIT_INDEX_FILE: "/tmp/index" } }],
    ["cat; echo stdin=$?", {}],
    ["for ((i = 1; i <= 50000; i++)); do echo $i; done", { outputLimit: 1000 }],
    ["for ((i = 0; i < 3000; i++)); do printf 'caf\\xc3\\xa9 '; done", { outputLimit: 501 }],
    ["echo started; sleep 10; echo never", { timeout: 1 }],
    ["echo $0; set -o | grep -E '^(errexit|pipefail|nounset) '", {}],
    ["sleep 30 >/dev/null 2>&1 & echo background", {}],
    ["x=1; f() { return 4; }; f; echo status=$? x=$x", { cwd: "/" }],
  ];
  for (const [command, options] of cases) {
    const { session, exec } = await both(ctx, command, options);
    assert.deepEqual(session, exec, `"${command}"`);
  }
  const timed = await ctx.shell.execute("echo started; sleep 10", { timeout: 1 });
  assert.deepEqual([timed.returncode, timed.timedOut, timed.output], [124, true, "started\n"]);
  const cut = await ctx.shell.execute("for ((i = 1; i <= 50000; i++)); do echo $i; done", {
    outputLimit: 1000,
  });
  assert.equal(cut.truncated, true);
  assert.match(cut.output, /^1\n2\n[\s\S]*output cut here[\s\S]*\n50000\n$/);
  const environment = (await ctx.shell.execute("env")).output;
  assert.match(environment, /^PAGER=cat$/m, "the config's variables");
  assert.doesNotMatch(environment, /DENO_|node_compat_bin/, "none of the helper's own");
}

test("SIGTERM ignored: SIGKILL 5 s later, status 137 both ways", async () => {
  await withShell(async (ctx) => {
    const { session, exec } = await both(ctx, "trap '' TERM; echo held; sleep 20", { timeout: 1 });
    assert.deepEqual(session, exec);
    assert.deepEqual([session.returncode, session.timedOut, session.output], [137, true, "held\n"]);
  });
});

test("a 1 MB heredoc (over Linux's 128 KiB argument limit) runs through the session and through exec", async () => {
  await withShell(async (ctx) => {
    const { command, body } = bigHeredoc(1 << 20);
    const { session, exec } = await both(ctx, command);
    assert.equal(session.returncode, 0, session.output);
    assert.deepEqual(session, exec);
    assert.equal(session.output, `${body.length + 1} plan.json\n`);
    const written = await ctx.shell.execute("git hash-object plan.json");
    const host = new Deno.Command("git", {
      args: ["hash-object", "--stdin"],
      stdin: "piped",
      stdout: "piped",
    }).spawn();
    const writer = host.stdin.getWriter();
    await writer.write(new TextEncoder().encode(body + "\n"));
    await writer.close();
    const expected = new TextDecoder().decode((await host.output()).stdout);
    assert.equal(written.output, expected, "the file holds the heredoc's bytes");
  });
});

test("the session killed mid-run: its command is reported lost, exec takes over, a helper call brings it back", async () => {
  await withShell(async (ctx) => {
    assert.equal((await ctx.shell.execute("echo one")).output, "one\n");
    // The command kills the helper that runs it (found by its --serve argument), then goes on.
    const killer = `for p in /proc/[0-9]*; do
  if tr '\\0' ' ' < $p/cmdline 2>/dev/null | grep -q -- '--serve'; then kill -9 \${p#/proc/}; fi
done; sleep 1; echo after > /tmp/after.txt`;
    const lost = await ctx.shell.execute(killer);
    assert.equal(lost.returncode, -1);
    assert.match(lost.output, /may or may not have run/);
    assert.equal(ctx.shell.counts.lost, 1);
    const next = await ctx.shell.execute("sleep 1.5; cat /tmp/after.txt; echo rc=$?");
    assert.equal(next.output, "after\nrc=0\n", "the killed command finished on its own");
    assert.deepEqual(ctx.shell.counts, { session: 1, exec: 1, lost: 1 });
    const big = bigHeredoc(300_000);
    const fallback = await ctx.shell.execute(big.command);
    assert.equal(fallback.output, `${big.body.length + 1} plan.json\n`, "big commands on the fallback too");
    assert.equal(ctx.shell.counts.exec, 2);
    // A helper request restarts the session; the commands use it again.
    await ctx.helper.call("version", {});
    assert.equal((await ctx.shell.execute("echo back")).output, "back\n");
    assert.equal(ctx.shell.counts.session, 2);
  });
});

test("without the mounts (a container made elsewhere), the helper is copied in", async () => {
  const { mounted, argv } = await withShell(async (ctx) => {
    assert.equal((await ctx.shell.execute("echo copied")).output, "copied\n");
  }, { mount: false });
  assert.equal(mounted, false);
  assert.equal(argv[0], "/tmp/graphplan-helper/deno");
});

/** A bundle launch that copies the helper in, as `helperLaunch("podman")` makes one. */
function bundleLaunch() {
  return {
    mode: "bundle" as const,
    argv: [
      "/tmp/graphplan-helper/deno",
      "run",
      "-A",
      "--no-config",
      "/tmp/graphplan-helper/graphplan.js",
      "helper",
    ],
    env: { DENO_DIR: "/tmp/graphplan-helper/deno_dir" },
    copies: [{ from: "/usr/bin/deno", to: "/tmp/graphplan-helper/deno" }, {
      from: "/opt/gp/dist/graphplan.js",
      to: "/tmp/graphplan-helper/graphplan.js",
    }],
  };
}

test("mountedLaunch maps the copies to read-only mounts and keeps the copy as its fallback", () => {
  const launch = bundleLaunch();
  const { launch: mounted, runArgs } = mountedLaunch(launch);
  assert.deepEqual(runArgs, [
    "-v",
    "/usr/bin/deno:/tmp/graphplan-helper-ro/deno:ro",
    "-v",
    "/opt/gp/dist/graphplan.js:/tmp/graphplan-helper-ro/graphplan.js:ro",
  ]);
  assert.deepEqual(mounted.argv.filter((arg) => arg.startsWith("/")), [
    "/tmp/graphplan-helper-ro/deno",
    "/tmp/graphplan-helper-ro/graphplan.js",
  ]);
  assert.deepEqual(mounted.copies, []);
  assert.equal(mounted.fallback, launch);
  return Promise.resolve();
});

test("the mounted helper starts from the warm Deno cache made on the host", async () => {
  const { launch } = await plannedLaunch({ type: "podman", helper_mount: true });
  const [bash, flag, script, name, seed, denoDir, deno, run, ...rest] = launch!.argv;
  assert.deepEqual([bash, flag, script, name, run], ["bash", "-c", SEEDED_START, "bash", "run"]);
  const bundle = rest.find((arg) => arg.endsWith(".js"))!;
  await withShell(async (ctx) => {
    const copied = await ctx.env.execute(`ls ${shellQuote(denoDir)}`);
    assert.match(
      copied.output,
      /^dep_analysis_cache_v2$/m,
      "the running helper's DENO_DIR is the seed's copy",
    );
    // The same start with Deno's debug log, into a DENO_DIR of its own: it must report the code cache hit.
    const argv = [bash, flag, script, name, seed, "/tmp/deno-check", deno, run, "--log-level=debug", ...rest];
    const check = await ctx.env.execute(`${argv.map(shellQuote).join(" ")} version 2>&1 >/dev/null`);
    assert.ok(check.output.includes(`${CODE_CACHE_HIT}file://${bundle}`), check.output.slice(-2000));
  });
});

test("mountedLaunch with a seed mounts the bundle's copy at its own path and copies the cache first", () => {
  const launch = bundleLaunch();
  const seed = {
    bundle: "/tmp/graphplan-helper-k/graphplan.js",
    denoDir: "/tmp/graphplan-helper-k/deno_dir",
  };
  const { launch: mounted, runArgs } = mountedLaunch(launch, seed);
  assert.deepEqual(runArgs, [
    "-v",
    "/usr/bin/deno:/tmp/graphplan-helper-ro/deno:ro",
    "-v",
    `${seed.bundle}:${seed.bundle}:ro`,
    "-v",
    `${seed.denoDir}:${seed.denoDir}:ro`,
  ]);
  assert.deepEqual(mounted.argv, [
    "bash",
    "-c",
    SEEDED_START,
    "bash",
    seed.denoDir,
    mounted.env.DENO_DIR,
    "/tmp/graphplan-helper-ro/deno",
    "run",
    "-A",
    "--no-config",
    seed.bundle,
    "helper",
  ]);
  assert.notEqual(mounted.env.DENO_DIR, seed.denoDir, "Deno writes to a copy, never to the mount");
  assert.equal(mounted.fallback, launch);
  return Promise.resolve();
});

test("remove the test image", async () => {
  if (!image) return;
  const out = await new Deno.Command("podman", { args: ["rmi", "-f", await image], env: podmanEnv() })
    .output();
  assert.equal(out.code, 0);
});
