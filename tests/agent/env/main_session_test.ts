/**
 * The main-process session's client side (agent/env/main_session.ts) over a
 * real host bash standing in for the attached `run -i` client: the start
 * ends at the marker, the session's stdout is what follows up to the end
 * marker, and a client that dies first is an error quoting its stderr.
 */

import assert from "node:assert/strict";
import {
  attachMain,
  MAIN_SCRIPT,
  MainAttachError,
  mainSessionMatches,
  markerPath,
} from "../../../agent/env/main_session.ts";
import { ProcessLineSession, spawnHost } from "../../../agent/env/line_session.ts";

const MARKER = "graphplan-main-test";
/**
 * The stall watch's schedule shortened a hundredfold (probes after 0.01, 0.02, 0.04, 0.08 s...): the
 * watch's logic is the same, and three probes cost 70 ms instead of 7 s of real time.
 */
const SCHEDULE = { first: 0.01, max: 0.08 };

/** The script run on the host as a container would run it, with `argv` as the session. */
function client(argv: string[], env: string[] = []) {
  return spawnHost(["bash", "-c", `${MAIN_SCRIPT}`, "bash", MARKER, ...env, "--", ...argv])();
}

Deno.test("main session: the session answers with the variables the script exported; closing ends at the end marker", async () => {
  // A line server that echoes each line with a variable exported by the script.
  const server = ["bash", "-c", 'while read -r line; do echo "$GREETING $line SHLVL=${SHLVL-unset}"; done'];
  const process = await attachMain(client(server, ["-UNWANTED", "GREETING=hello"]), MARKER, 30);
  let first = true;
  const session = new ProcessLineSession(() => {
    assert.ok(first, "the main process is the first generation only");
    first = false;
    return process;
  }, "main");
  assert.equal(await session.request("one", { timeout: 30 }), "hello one SHLVL=1");
  const started = performance.now();
  await session.close();
  // Not the 2 s grace of a kill: the end marker ended the stream and the client.
  assert.ok(performance.now() - started < 1900, `closed in ${performance.now() - started} ms`);
  assert.equal(session.alive, false);
  // The script left its evidence for the stall watch's probe.
  await Deno.remove(markerPath(MARKER));
});

Deno.test("main session: a client that exits before the marker is an error with its stderr", async () => {
  const failing = spawnHost(["bash", "-c", "echo 'Error: no such image' >&2; exit 125"])();
  await assert.rejects(
    attachMain(failing, MARKER, 30),
    (err: Error) =>
      err instanceof MainAttachError && err.kind === "exited" && /no such image/.test(err.message),
  );
});

// A client that never writes (`cat` with nothing on its stdin): a runtime whose `run -i` does not pass the container's output on.
Deno.test("main session: a client that never passes the marker on is given up after three probes find it printed", async () => {
  let probes = 0;
  const probe = () => Promise.resolve(++probes > 0);
  await assert.rejects(
    attachMain(spawnHost(["cat"])(), MARKER, 3600, { probe, schedule: SCHEDULE }),
    (err: Error) =>
      err instanceof MainAttachError && err.kind === "stalled" && /never came through/.test(err.message),
  );
  assert.equal(probes, 3);
});

Deno.test("main session: while the probe does not find the marker printed, only the cap ends the wait", async () => {
  let probes = 0;
  const probe = () => Promise.resolve(++probes < 0);
  await assert.rejects(
    attachMain(spawnHost(["cat"])(), MARKER, 0.5, { probe, schedule: SCHEDULE }),
    (err: Error) => err instanceof MainAttachError && err.kind === "timeout",
  );
  assert.ok(probes >= 1, "the watch probed while it waited");
});

Deno.test("main session: a marker that comes while the probes watch starts the session", async () => {
  const dir = await Deno.makeTempDir({ prefix: "gp_main_" });
  try {
    // The client prints the marker once the first probe has run, then echoes lines; the later
    // probes say "not printed", so however slow the client, no stall is seen.
    const go = `${dir}/go`;
    const client = spawnHost([
      "bash",
      "-c",
      `while [ ! -e '${go}' ]; do sleep 0.05; done; echo ${MARKER}; while read -r l; do echo "got $l"; done`,
    ])();
    let probes = 0;
    const probe = async () => {
      probes += 1;
      await Deno.writeTextFile(go, "");
      return probes === 1;
    };
    const process = await attachMain(client, MARKER, 3600, { probe, schedule: SCHEDULE });
    const session = new ProcessLineSession(() => process, "main");
    assert.equal(await session.request("x", { timeout: 30 }), "got x");
    await session.close();
    assert.ok(probes >= 1, "the marker came after the first probe");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("main session: handed out only for its own argv and variables", () => {
  const main = { argv: ["helper", "--serve"], env: { A: "1", B: "2" } };
  assert.ok(mainSessionMatches(main, ["helper", "--serve"], { env: { B: "2", A: "1" } }));
  assert.ok(!mainSessionMatches(main, ["helper", "--serve"], { env: { A: "1" } }));
  assert.ok(!mainSessionMatches(main, ["helper"], { env: main.env }));
  assert.ok(!mainSessionMatches(main, main.argv, { env: main.env, cwd: "/elsewhere" }));
});
