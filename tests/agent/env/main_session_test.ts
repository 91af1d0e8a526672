/**
 * The main-process session's client side (agent/env/main_session.ts) over a
 * real host bash standing in for the attached `run -i` client: the start
 * ends at the marker, the session's stdout is what follows up to the end
 * marker, and a client that dies first is an error quoting its stderr.
 */

import assert from "node:assert/strict";
import { attachMain, MAIN_SCRIPT, mainSessionMatches } from "../../../agent/env/main_session.ts";
import { ProcessLineSession, spawnHost } from "../../../agent/env/line_session.ts";

const MARKER = "graphplan-main-test";

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
});

Deno.test("main session: a client that exits before the marker is an error with its stderr", async () => {
  const failing = spawnHost(["bash", "-c", "echo 'Error: no such image' >&2; exit 125"])();
  await assert.rejects(attachMain(failing, MARKER, 30), /no such image/);
});

Deno.test("main session: handed out only for its own argv and variables", () => {
  const main = { argv: ["helper", "--serve"], env: { A: "1", B: "2" } };
  assert.ok(mainSessionMatches(main, ["helper", "--serve"], { env: { B: "2", A: "1" } }));
  assert.ok(!mainSessionMatches(main, ["helper", "--serve"], { env: { A: "1" } }));
  assert.ok(!mainSessionMatches(main, ["helper"], { env: main.env }));
  assert.ok(!mainSessionMatches(main, main.argv, { env: main.env, cwd: "/elsewhere" }));
});
