import assert from "node:assert/strict";
import { join } from "node:path";
import { LocalEnvironment, ProcessLineSession, SessionError, spawnHost } from "../../../agent/env/mod.ts";

/** A tiny newline-delimited JSON server in bash: answers {"id": N} with {"id": N, "ok": true}. */
const JSON_SERVER = `while IFS= read -r line; do
  id=$(printf '%s' "$line" | sed -n 's/.*"id": *\\([0-9]*\\).*/\\1/p')
  printf '{"id": %s, "ok": true}\\n' "$id"
done`;

Deno.test("session: a line in, a line out, in order, against cat", async () => {
  const env = new LocalEnvironment({ cwd: Deno.cwd() });
  const session = env.startSession(["cat"]);
  assert.equal(await session.request("hello"), "hello");
  assert.equal(await session.request('{"id": 2, "method": "version"}'), '{"id": 2, "method": "version"}');
  // Requests made together are answered one after another.
  const answers = await Promise.all(["a", "b", "c"].map((line) => session.request(line)));
  assert.deepEqual(answers, ["a", "b", "c"]);
  assert.equal(session.alive, true);
  await env.close();
  assert.equal(session.alive, false);
});

Deno.test("session: newline-delimited JSON round trips", async () => {
  const env = new LocalEnvironment({ cwd: Deno.cwd() });
  const session = env.startSession(["bash", "-c", JSON_SERVER]);
  for (const id of [1, 2, 3]) {
    const reply = JSON.parse(await session.request(JSON.stringify({ id, method: "version", params: {} })));
    assert.deepEqual(reply, { id, ok: true });
  }
  await session.close();
});

Deno.test("session: a silent process times out, is killed, and restarts", async () => {
  const env = new LocalEnvironment({ cwd: Deno.cwd() });
  const session = env.startSession([
    "bash",
    "-c",
    "read -r first || exit 0; sleep 60",
  ]);
  await assert.rejects(
    session.request("anyone there?", { timeout: 0.3 }),
    (err: Error) =>
      err instanceof SessionError && err.reason === "timeout" && /within 0\.3 s/.test(err.message),
  );
  await assert.rejects(
    session.request("again"),
    (err: Error) => err instanceof SessionError && err.reason === "closed",
  );
  assert.equal(session.alive, false);
  await session.restart();
  assert.equal(session.alive, true);
  await session.close();
});

Deno.test("session: a process that exits reports its stderr, and restart brings it back", async () => {
  const env = new LocalEnvironment({ cwd: Deno.cwd() });
  const session = env.startSession([
    "bash",
    "-c",
    'read -r line; echo "$line"; read -r line; echo "helper crashed: bad request" >&2; exit 3',
  ]);
  assert.equal(await session.request("one"), "one");
  await assert.rejects(session.request("two"), (err: Error) => {
    assert.ok(err instanceof SessionError);
    assert.equal(err.reason, "closed");
    assert.match(err.message, /helper crashed: bad request/);
    return true;
  });
  assert.match(session.stderrTail, /helper crashed/);
  await session.restart();
  assert.equal(await session.request("one again"), "one again");
  await session.close();
});

Deno.test("session: runs in the environment's directory with its variables", async () => {
  const dir = await Deno.makeTempDir({ prefix: "gp_session_" });
  try {
    const env = new LocalEnvironment({ cwd: dir, env: { GREETING: "hi" } });
    const session = env.startSession([
      "bash",
      "-c",
      'while read -r l; do echo "$GREETING $(pwd)"; done',
    ], {
      cwd: ".",
    });
    assert.equal(await session.request("x"), `hi ${await Deno.realPath(dir)}`);
    await env.close();
  } finally {
    await Deno.remove(join(dir), { recursive: true });
  }
});

Deno.test("session: a 40 MB answer line (a command's whole output) arrives whole, read in linear time", async () => {
  // Each chunk is searched for the newline once; searching the whole line on every chunk took 38 s
  // for 30 MB on a loaded 2-core machine, past this request's limit.
  const session = new ProcessLineSession(
    spawnHost([
      "bash",
      "-c",
      "read -r _; head -c 40000000 /dev/zero | tr '\\0' a; echo; read -r _; echo second",
    ]),
    'Session "big line"',
  );
  try {
    const line = await session.request("go", { timeout: 60 });
    assert.equal(line.length, 40_000_000);
    assert.ok(/^a+$/.test(line.slice(0, 1000)) && line.endsWith("aaa"));
    assert.equal(await session.request("again", { timeout: 60 }), "second", "the next line is its own");
  } finally {
    await session.close();
  }
});
