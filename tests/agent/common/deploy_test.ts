import assert from "node:assert/strict";
import { join } from "node:path";
import { LocalEnvironment } from "../../../agent/env/mod.ts";
import {
  CONTAINER_HELPER_DIR,
  deployHelper,
  ensureBundle,
  HelperError,
  helperLaunch,
  isCompiled,
} from "../../../agent/common/mod.ts";
import { slow } from "../../_support/quick.ts";

const SLOW = slow("tests that start processes (the CLI, a helper, pytest, podman, the bundle)");

const ROOT = new URL("../../../", import.meta.url).pathname.replace(/\/$/, "");
const PY = "import os\n\n\nclass Box:\n    def size(self):\n        return os.sep\n";

Deno.test("deploy: under `deno test` the process is not a compiled binary", () => {
  assert.equal(isCompiled(), false);
});

Deno.test("deploy: how the helper starts, per environment and build", async () => {
  const exe = Deno.execPath();
  const source = await helperLaunch("local");
  assert.equal(source.mode, "source");
  assert.deepEqual(source.argv, [
    exe,
    "run",
    "-A",
    "--config",
    `${ROOT}/deno.json`,
    `${ROOT}/main.ts`,
    "helper",
  ]);
  assert.deepEqual(source.copies, []);

  assert.deepEqual((await helperLaunch("local", { compiled: true })).argv, [exe, "helper"]);
  assert.deepEqual((await helperLaunch("local", { bundle: "/b/graphplan.js" })).argv, [
    exe,
    "run",
    "-A",
    "/b/graphplan.js",
    "helper",
  ]);

  const compiled = await helperLaunch("podman", { compiled: true });
  assert.equal(compiled.mode, "compiled");
  assert.deepEqual(compiled.argv, [`${CONTAINER_HELPER_DIR}/graphplan`, "helper"]);
  assert.deepEqual(compiled.copies, [{ from: exe, to: `${CONTAINER_HELPER_DIR}/graphplan` }]);
  assert.equal(compiled.env.DENO_DIR, `${CONTAINER_HELPER_DIR}/deno_dir`);

  const bundled = await helperLaunch("docker", { bundle: "/b/graphplan.js", dir: "/opt/gp" });
  assert.equal(bundled.mode, "bundle");
  assert.deepEqual(bundled.argv, [
    "/opt/gp/deno",
    "run",
    "-A",
    "--no-config",
    "/opt/gp/graphplan.js",
    "helper",
  ]);
  assert.deepEqual(bundled.copies, [{ from: exe, to: "/opt/gp/deno" }, {
    from: "/b/graphplan.js",
    to: "/opt/gp/graphplan.js",
  }]);
});

Deno.test(
  "deploy: the bundle is rebuilt when older than the sources, and kept when fresh",
  SLOW,
  async () => {
    const bundle = await ensureBundle();
    assert.equal(bundle, `${ROOT}/dist/graphplan.js`);
    const built = Deno.statSync(bundle).mtime!.getTime();
    const main = Deno.statSync(`${ROOT}/main.ts`).mtime!.getTime();
    assert.ok(built >= main, "newer than main.ts");
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--no-config", bundle, "helper", "version"],
      stdin: "null",
      stdout: "piped",
    }).output();
    assert.equal(JSON.parse(new TextDecoder().decode(out.stdout)).result.languages.includes("python"), true);
  },
);

Deno.test("deploy: a local helper is checked and serves build_graph over one session", async () => {
  const repo = await Deno.makeTempDir({ prefix: "gp_deploy_" });
  const env = new LocalEnvironment({ cwd: repo });
  try {
    await Deno.writeTextFile(join(repo, "box.py"), PY);
    const { helper, info } = await deployHelper(env);
    assert.equal(info.mode, "source");
    assert.equal(info.version, "0.1.0");
    const graph = await helper.call("build_graph", { files: ["box.py"] }) as { symbols: { name: string }[] };
    assert.deepEqual(graph.symbols.map((s) => s.name), ["Box", "size"]);
    await helper.close();
  } finally {
    await env.close();
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test(
  "deploy: copied files are made executable and run; a helper that does not run is a clear error",
  SLOW,
  async () => {
    const root = await Deno.makeTempDir({ prefix: "gp_deploy_copy_" });
    const env = new LocalEnvironment({ cwd: root });
    try {
      await Deno.writeTextFile(join(root, "a.py"), PY);
      const script = join(root, "helper.sh");
      await Deno.writeTextFile(
        script,
        `#!/usr/bin/env bash\nexec ${Deno.execPath()} run -A --config ${ROOT}/deno.json ${ROOT}/main.ts helper "$@"\n`,
      );
      await Deno.chmod(script, 0o644);
      const target = join(root, "deployed", "bin", "graphplan");
      const { helper, info } = await deployHelper(env, {
        launch: { mode: "compiled", argv: [target], env: {}, copies: [{ from: script, to: target }] },
      });
      assert.equal(info.version, "0.1.0");
      assert.ok((Deno.statSync(target).mode! & 0o111) !== 0, "executable");
      assert.deepEqual(
        ((await helper.call("build_graph", { files: ["a.py"] })) as { symbols: unknown[] }).symbols.length,
        2,
      );
      await helper.close();

      await assert.rejects(
        deployHelper(env, {
          launch: {
            mode: "compiled",
            argv: ["bash", "-c", "echo broken >&2; exit 7", "x"],
            env: {},
            copies: [],
          },
        }),
        (err: Error) =>
          err instanceof HelperError &&
          /does not run in the local environment \(exit 7\): broken/.test(err.message),
      );
    } finally {
      await env.close();
      await Deno.remove(root, { recursive: true });
    }
  },
);
