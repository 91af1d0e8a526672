/**
 * `graphplan inspect` as a subprocess: the pages it writes for a trajectory,
 * an instance folder and a run's output directory, `--json`, `--help`, and
 * the exit codes and messages for a missing, unreadable or wrong PATH (which
 * write nothing).
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { fallbackRun } from "../agent/trajectory/inspect/_runs.ts";
import { runCli } from "../_support/cli.ts";
import { slow } from "../_support/quick.ts";

const SLOW = slow("tests that start processes (the CLI, a helper, pytest, podman, the bundle)");

const graphplan = (args: string[], env?: Record<string, string>) => runCli(["inspect", ...args], { env });

async function files(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) names.push(entry.name);
  return names.sort();
}

Deno.test(
  "inspect CLI: a trajectory, an instance folder and a run directory each give one page",
  SLOW,
  async () => {
    const run = await fallbackRun({ id: "shop-1" });
    try {
      const byFile = await graphplan([run.trajectory]);
      assert.equal(byFile.code, 0, byFile.stderr);
      const page = join(run.out, "shop-1", "shop-1.html");
      assert.equal(byFile.stdout, `Wrote the trajectory page "${page}"\n`);
      assert.match(await Deno.readTextFile(page), /<title>Trajectory shop-1<\/title>/);

      const byRunDir = await graphplan([run.out, "-o", join(run.out, "run.html"), "--json"]);
      assert.equal(byRunDir.code, 0, byRunDir.stderr);
      const report = JSON.parse(byRunDir.stdout);
      assert.deepEqual(report, {
        success: true,
        kind: "trajectory",
        page: join(run.out, "run.html"),
        pages: [join(run.out, "run.html")],
        errors: [],
        warnings: [],
      });
      const byInstanceDir = await graphplan([join(run.out, "shop-1"), "-o", join(run.out, "instance.html")]);
      assert.equal(byInstanceDir.code, 0, byInstanceDir.stderr);
      assert.equal(
        await Deno.readTextFile(join(run.out, "instance.html")).then((t) =>
          t.replace(/nonce(-|=")[A-Za-z0-9+/=]+/g, "")
        ),
        await Deno.readTextFile(join(run.out, "run.html")).then((t) =>
          t.replace(/nonce(-|=")[A-Za-z0-9+/=]+/g, "")
        ),
      );
    } finally {
      await run.cleanup();
    }
  },
);

Deno.test(
  "inspect CLI: usage errors exit 2, a missing or wrong PATH exits 1 and writes nothing",
  SLOW,
  async () => {
    const dir = await Deno.makeTempDir({ prefix: "gp_inspect_cli_" });
    try {
      const none = await graphplan([]);
      assert.equal(none.code, 2);
      assert.match(none.stderr, /Missing PATH: give a \.traj\.json file/);
      const two = await graphplan(["a", "b"]);
      assert.equal(two.code, 2);
      assert.match(two.stderr, /Expected one PATH, got 2: "a" "b"/);

      const missing = await graphplan([join(dir, "nope.traj.json")]);
      assert.equal(missing.code, 1);
      assert.match(
        missing.stderr,
        /error\[input-unreadable\] Cannot inspect ".*nope\.traj\.json": no such file or directory/,
      );

      await Deno.writeTextFile(join(dir, "broken.traj.json"), "{not json");
      const broken = await graphplan([join(dir, "broken.traj.json"), "--json"]);
      assert.equal(broken.code, 1);
      const issue = JSON.parse(broken.stdout).errors[0];
      assert.equal(issue.code, "trajectory-invalid");
      assert.match(issue.message, /broken\.traj\.json" is not a trajectory: /);

      await Deno.writeTextFile(join(dir, "other.json"), '{"name": "not a run"}');
      const other = await graphplan([join(dir, "other.json")]);
      assert.equal(other.code, 1);
      assert.match(
        other.stderr,
        /is not a trajectory: a trajectory is a JSON object with "info" and "messages"/,
      );

      await Deno.mkdir(join(dir, "empty"));
      const empty = await graphplan([join(dir, "empty")]);
      assert.equal(empty.code, 1);
      assert.match(empty.stderr, /error\[trajectory-missing\] No trajectory in ".*empty"/);
      assert.deepEqual(await files(dir), ["broken.traj.json", "empty", "other.json"], "nothing was written");
      assert.deepEqual(await files(join(dir, "empty")), []);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);

Deno.test("inspect CLI: --help describes PATH, the options and the exit codes", SLOW, async () => {
  const help = await graphplan(["--help"]);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /^graphplan inspect: Write one self-contained HTML page/);
  assert.match(help.stdout, /Usage: graphplan inspect PATH \[-o FILE\.html\] \[--open\] \[--json\]/);
  assert.match(help.stdout, /NAME_instances\//);
  assert.match(help.stdout, /Exit: 0 written, 1 PATH missing/);
});

Deno.test({
  name: "inspect CLI: --open hands the page to the desktop's opener (xdg-open)",
  ignore: Deno.build.os !== "linux" || SLOW.ignore,
  async fn() {
    const run = await fallbackRun({ id: "shop-2", task: "Fix the discount" });
    try {
      const bin = join(run.out, "bin");
      await Deno.mkdir(bin);
      const opened = join(run.out, "opened.txt");
      await Deno.writeTextFile(join(bin, "xdg-open"), `#!/bin/sh\nprintf '%s' "$1" > '${opened}'\n`, {
        mode: 0o755,
      });
      const result = await graphplan([run.trajectory, "--open"], { PATH: `${bin}:${Deno.env.get("PATH")}` });
      assert.equal(result.code, 0, result.stderr);
      const page = join(run.out, "shop-2", "shop-2.html");
      for (let i = 0; i < 50 && !(await Deno.stat(opened).catch(() => null)); i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.equal(await Deno.readTextFile(opened), page);

      const nowhere = await graphplan([run.trajectory, "--open", "--json"], {
        PATH: join(run.out, "empty-path"),
      });
      assert.equal(nowhere.code, 0, "the page is written even when it cannot be opened");
      const report = JSON.parse(nowhere.stdout);
      assert.equal(report.warnings[0].code, "open-failed");
      assert.match(report.warnings[0].message, /Cannot open the page with "xdg-open": /);
    } finally {
      await run.cleanup();
    }
  },
});
