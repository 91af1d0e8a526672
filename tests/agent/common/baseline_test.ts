/**
 * The run's baseline and patch (agent/common/baseline.ts) on real git
 * repositories in the local environment: the patch holds the changes made
 * after the baseline and nothing the user had before; the index is never
 * written; in a clean checkout the patch is byte for byte what
 * `git add -A && git diff --cached` prints.
 */

import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { LocalEnvironment } from "../../../agent/env/mod.ts";
import { BaselineError, changesSince, snapshotTree } from "../../../agent/common/baseline.ts";
import { git } from "../graphplan/_agent_support.ts";

const SERVICE = `def total(items):
    return sum(item.price for item in items)


def count(items):
    return len(items)
`;

/** A committed repository in a fresh temp dir, with a `.gitignore` and a script and a binary file. */
async function repository() {
  const root = await Deno.makeTempDir({ prefix: "gp_baseline_" });
  const repo = join(root, "repo");
  const files: Record<string, string | Uint8Array> = {
    "app/service.py": SERVICE,
    "app/models.py": "class Order:\n    pass\n",
    "docs/old.md": "# Old\n\nGone soon.\n",
    "run.sh": "#!/bin/sh\necho run\n",
    "logo.bin": new Uint8Array([0, 1, 2, 3, 255, 0, 7]),
    ".gitignore": "*.log\nbuild/\n",
  };
  for (const [path, content] of Object.entries(files)) await write(repo, path, content);
  await git(repo, "init", "-q");
  await git(repo, "add", "-A");
  await git(repo, "commit", "-q", "-m", "init");
  const env = new LocalEnvironment({ cwd: repo, timeout: 60 });
  return { root, repo, env, cleanup: () => Deno.remove(root, { recursive: true }) };
}

async function write(repo: string, path: string, content: string | Uint8Array): Promise<void> {
  await Deno.mkdir(dirname(join(repo, path)), { recursive: true });
  if (typeof content === "string") await Deno.writeTextFile(join(repo, path), content);
  else await Deno.writeFile(join(repo, path), content);
}

/** Every kind of change `git add -A` records: edit, deletion, mode, rename, new file and folder, binary, symlink. */
async function agentChanges(repo: string, options: { binary: boolean }): Promise<void> {
  await write(repo, "app/service.py", SERVICE.replace("item.price for", "item.price * item.quantity for"));
  await Deno.remove(join(repo, "docs/old.md"));
  await Deno.chmod(join(repo, "run.sh"), 0o755);
  await Deno.rename(join(repo, "app/models.py"), join(repo, "app/order.py"));
  await write(repo, "app/util/__init__.py", "def helper():\n    return 1\n");
  await Deno.symlink("service.py", join(repo, "app/link.py"));
  await write(repo, "debug.log", "ignored by .gitignore\n");
  await write(repo, "build/out.txt", "ignored folder\n");
  if (options.binary) {
    await write(repo, "logo.bin", new Uint8Array([0, 1, 2, 4, 255, 0, 7, 9]));
    await write(repo, "icon.bin", new Uint8Array([0, 0, 42]));
  }
}

/** What today's submit command prints in a copy of `repo` (the copy's index is the one staged). */
async function stagedDiff(repo: string, extra: string[]): Promise<string> {
  const copy = `${repo}_copy`;
  const copied = await new Deno.Command("cp", { args: ["-a", repo, copy] }).output();
  assert.equal(copied.code, 0);
  try {
    await git(copy, "add", "-A");
    return await git(copy, "diff", "--cached", ...extra);
  } finally {
    await Deno.remove(copy, { recursive: true });
  }
}

/** The index as git lists it, and its bytes. */
async function indexState(repo: string) {
  return {
    entries: await git(repo, "ls-files", "-s", "--debug"),
    bytes: await Deno.readFile(join(repo, ".git", "index")),
  };
}

Deno.test("baseline: in a clean checkout the patch is byte for byte `git add -A && git diff --cached`", async (t) => {
  for (const binary of [false, true]) {
    await t.step(binary ? "with binary files (--binary)" : "text changes only", async () => {
      const ctx = await repository();
      try {
        const baseline = await snapshotTree(ctx.env);
        assert.equal(baseline, (await git(ctx.repo, "rev-parse", "HEAD^{tree}")).trim());
        await agentChanges(ctx.repo, { binary });
        const patch = await changesSince(ctx.env, baseline);
        const expected = await stagedDiff(ctx.repo, binary ? ["--binary"] : []);
        assert.equal(patch, expected);
        // Every kind of change is there, the ignored files are not.
        for (
          const header of [
            /^diff --git a\/app\/service\.py b\/app\/service\.py$/m,
            /^deleted file mode 100644$/m,
            /^old mode 100644\nnew mode 100755$/m,
            /^rename from app\/models\.py\nrename to app\/order\.py$/m,
            /^diff --git a\/app\/util\/__init__\.py b\/app\/util\/__init__\.py\nnew file mode 100644$/m,
            /^new file mode 120000$/m,
          ]
        ) assert.match(patch, header);
        assert.doesNotMatch(patch, /debug\.log|build\//);
        if (binary) assert.match(patch, /^GIT binary patch$/m);
        // The patch applies to HEAD and gives the working tree back.
        const check = await ctx.env.execute(
          `t=$(mktemp); rm -f "$t"; GIT_INDEX_FILE="$t" git read-tree HEAD && ` +
            `printf '%s' ${
              shell(patch)
            } | GIT_INDEX_FILE="$t" git apply --cached --check -; s=$?; rm -f "$t"; exit $s`,
        );
        assert.equal(check.returncode, 0, check.output);
      } finally {
        await ctx.cleanup();
      }
    });
  }
});

Deno.test("baseline: the user's untracked files and uncommitted edits stay out, the index is never written", async () => {
  const ctx = await repository();
  try {
    // The user's state before the run: an untracked note and secrets, an edit in a
    // file the agent will edit too, an edit in another file, a staged change.
    await write(ctx.repo, "notes.txt", "my own notes\n");
    await write(ctx.repo, ".env", "TOKEN=secret\n");
    await write(ctx.repo, "app/service.py", `# user's comment\n${SERVICE}`);
    await write(ctx.repo, "app/models.py", "class Order:\n    id = 0\n");
    await write(ctx.repo, "run.sh", "#!/bin/sh\necho staged\n");
    await git(ctx.repo, "add", "run.sh");
    const before = await indexState(ctx.repo);
    const status = await git(ctx.repo, "status", "--porcelain");

    const baseline = await snapshotTree(ctx.env);
    // The agent: the same file elsewhere, another file, a new file.
    const edited = (await Deno.readTextFile(join(ctx.repo, "app/service.py")))
      .replace("return len(items)", "return len(list(items))");
    await write(ctx.repo, "app/service.py", edited);
    await write(ctx.repo, "app/util.py", "def helper():\n    return 1\n");
    await write(ctx.repo, "docs/old.md", "# Old\n\nStill here.\n");
    const patch = await changesSince(ctx.env, baseline);

    const files = [...patch.matchAll(/^diff --git a\/(\S+) b\//gm)].map((m) => m[1]);
    assert.deepEqual(files, ["app/service.py", "app/util.py", "docs/old.md"]);
    assert.match(patch, /^- {4}return len\(items\)\n\+ {4}return len\(list\(items\)\)$/m);
    assert.doesNotMatch(patch, /notes|TOKEN|user's comment|id = 0|staged/);
    // The index (bytes included) and the status are as the user left them.
    assert.deepEqual(await indexState(ctx.repo), before);
    assert.equal(await git(ctx.repo, "diff", "--cached", "--name-only"), "run.sh\n");
    const now = await git(ctx.repo, "status", "--porcelain");
    assert.deepEqual(
      now.split("\n").filter((line) => !/app\/service\.py|app\/util\.py|docs\/old\.md/.test(line)),
      status.split("\n").filter((line) => !/app\/service\.py/.test(line)),
    );
    // The patch applies to the files as the run found them (not to HEAD: service.py moved on).
    const check = await ctx.env.execute(
      `t=$(mktemp); rm -f "$t"; GIT_INDEX_FILE="$t" git read-tree ${baseline} && ` +
        `printf '%s' ${
          shell(patch)
        } | GIT_INDEX_FILE="$t" git apply --cached --check -; s=$?; rm -f "$t"; exit $s`,
    );
    assert.equal(check.returncode, 0, check.output);
    // Limited to some paths: only those.
    const only = await changesSince(ctx.env, baseline, { paths: ["app/util.py"] });
    assert.deepEqual([...only.matchAll(/^diff --git a\/(\S+) b\//gm)].map((m) => m[1]), ["app/util.py"]);
    // Nothing changed since a fresh baseline: an empty patch.
    assert.equal(await changesSince(ctx.env, await snapshotTree(ctx.env)), "");
  } finally {
    await ctx.cleanup();
  }
});

Deno.test("baseline: a directory that is not a git repository is a BaselineError saying so", async () => {
  const dir = await Deno.makeTempDir({ prefix: "gp_baseline_nogit_" });
  try {
    const env = new LocalEnvironment({ cwd: dir, timeout: 60 });
    await assert.rejects(
      () => snapshotTree(env),
      (err: Error) =>
        err instanceof BaselineError &&
        /^Cannot record the working tree in git: .*not a git repository/i.test(err.message),
    );
    await assert.rejects(() => changesSince(env, "HEAD"), BaselineError);
    assert.deepEqual([...Deno.readDirSync(dir)], [], "nothing was written");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

function shell(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
