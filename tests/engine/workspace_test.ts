import assert from "node:assert/strict";
import { IssueError } from "../../engine/base/issue.ts";
import { decodeSource, encodeSource, Workspace } from "../../engine/workspace.ts";

async function tempRepo(): Promise<string> {
  return await Deno.makeTempDir({ prefix: "graphplan-ws-" });
}

function issueCode(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof IssueError, `expected an IssueError, got ${err}`);
    return err.issues[0].code;
  }
  assert.fail("expected an error");
}

Deno.test("resolve keeps relative paths inside the root and normalises them", async () => {
  const dir = await tempRepo();
  await Deno.mkdir(`${dir}/src`);
  await Deno.writeTextFile(`${dir}/src/a.py`, "x = 1\n");
  const ws = Workspace.open(dir);
  const { rel, abs } = ws.resolve("./src//a.py");
  assert.equal(rel, "src/a.py");
  assert.equal(abs, `${ws.root}/src/a.py`);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("resolve refuses absolute paths, '..' and symlinks that leave the root", async () => {
  const dir = await tempRepo();
  const outside = await tempRepo();
  await Deno.writeTextFile(`${outside}/secret.py`, "KEY = 1\n");
  await Deno.symlink(`${outside}/secret.py`, `${dir}/link.py`);
  await Deno.symlink(outside, `${dir}/linkdir`);
  const ws = Workspace.open(dir);
  assert.equal(issueCode(() => ws.resolve("/etc/passwd")), "path-outside-repo");
  assert.equal(issueCode(() => ws.resolve("../x.py")), "path-outside-repo");
  assert.equal(issueCode(() => ws.resolve("src/../../x.py")), "path-outside-repo");
  assert.equal(issueCode(() => ws.resolve("link.py")), "path-outside-repo");
  assert.equal(issueCode(() => ws.resolve("linkdir/new_file.py")), "path-outside-repo");
  assert.equal(issueCode(() => ws.resolve("")), "path-invalid");
  await Deno.remove(dir, { recursive: true });
  await Deno.remove(outside, { recursive: true });
});

Deno.test("a symlink that stays inside the root is followed", async () => {
  const dir = await tempRepo();
  await Deno.mkdir(`${dir}/pkg`);
  await Deno.writeTextFile(`${dir}/pkg/real.py`, "x = 1\n");
  await Deno.symlink(`${dir}/pkg/real.py`, `${dir}/alias.py`);
  const ws = Workspace.open(dir);
  assert.equal(ws.resolve("alias.py").abs, `${ws.root}/pkg/real.py`);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("read reports unknown, missing, binary and non-UTF-8 files as issues", async () => {
  const dir = await tempRepo();
  await Deno.writeTextFile(`${dir}/notes.txt`, "hello\n");
  await Deno.writeFile(`${dir}/blob.py`, new Uint8Array([0x78, 0x00, 0x01, 0x02]));
  await Deno.writeFile(
    `${dir}/latin.py`,
    new Uint8Array([...new TextEncoder().encode("a = 1\nb = '"), 0xe9, 0x27, 0x0a]),
  );
  const ws = Workspace.open(dir);
  assert.equal(issueCode(() => ws.read("notes.txt")), "unknown-language");
  assert.equal(issueCode(() => ws.read("missing.py")), "file-not-found");
  assert.equal(issueCode(() => ws.read("blob.py")), "binary-file");
  try {
    ws.read("latin.py");
    assert.fail("expected not-utf8");
  } catch (err) {
    assert.ok(err instanceof IssueError);
    assert.equal(err.issues[0].code, "not-utf8");
    assert.equal(err.issues[0].line, 2);
    assert.match(err.issues[0].message, /offset 11/);
  }
  await Deno.remove(dir, { recursive: true });
});

Deno.test("decode and encode keep a BOM, CRLF and non-ASCII text byte for byte", () => {
  const original = new TextEncoder().encode("\ufeffname = 'Zoë 😀'\r\nx = 1\r\n");
  const { text, bom, eol } = decodeSource(original, "a.py");
  assert.equal(bom, true);
  assert.equal(eol, "\r\n");
  assert.ok(!text.startsWith("\ufeff"));
  assert.deepEqual(encodeSource(text, bom), original);
});

Deno.test("Workspace.open rejects a missing directory and a file", async () => {
  const dir = await tempRepo();
  await Deno.writeTextFile(`${dir}/f.py`, "");
  assert.equal(issueCode(() => Workspace.open(`${dir}/nope`)), "repo-not-found");
  assert.equal(issueCode(() => Workspace.open(`${dir}/f.py`)), "repo-not-directory");
  await Deno.remove(dir, { recursive: true });
});
