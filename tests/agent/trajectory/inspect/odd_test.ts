/**
 * `inspect` on trajectories that are odd but JSON: a message without
 * `content`, a 50 MB message, fields missing or of another type, an error
 * recorded with a stack trace. Each renders (exit 0) with what is missing
 * shown as missing, each text is cut at SHOWN_CHARS with a note naming the
 * raw file, the page stays small, and in Chromium it loads without an error.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { SHOWN_CHARS } from "../../../../agent/trajectory/inspect/cap.ts";
import { trajectoryPage, trajectoryView } from "../../../../agent/trajectory/inspect/mod.ts";
import { runCli } from "../../../_support/cli.ts";
import { Browser, CHROMIUM_SKIP } from "../../../_support/chromium.ts";
import { demoRun, fallbackRun } from "./_runs.ts";
import { slow } from "../../../_support/quick.ts";

const SLOW = slow("tests that start processes (the CLI, a helper, pytest, podman, the bundle)");

const BIG = 50 * 1024 * 1024;

/** A trajectory as an old or crashed run may leave it. */
function oddTrajectory(): Record<string, unknown> {
  return {
    instance_id: "odd-1",
    info: {
      exit_status: "ModelError",
      task: "Fix the crash",
      // As earlier versions recorded any error that ended an rfsn run: the message, then the stack.
      error: 'ModelError: Scripted model "scripted/a" has no turn 2: the script has 1\n' +
        "    at ScriptedModel.query (file:///src/agent/model/scripted.ts:75:11)\n" +
        "    at async RfsnAgent.run (file:///src/agent/rfsn/agent.ts:120:5)",
      phases: [{ name: "setup", status: "done" }],
    },
    messages: [
      { role: "system" },
      { role: "user", content: "<task>\nFix the crash\n</task>" },
      { role: "assistant", content: "x".repeat(BIG) },
      { content: "a message without a role" },
      { role: "assistant", content: null, tool_calls: [{ id: "c1", command: "ls" }] },
      { role: "tool", tool_call_id: "c1", content: "y".repeat(SHOWN_CHARS + 5) },
      "not even an object",
    ],
  };
}

Deno.test(
  "inspect CLI: a message without content, a 50 MB message and a stack trace render in a small page",
  SLOW,
  async () => {
    const dir = await Deno.makeTempDir({ prefix: "gp_inspect_odd_" });
    const browser = CHROMIUM_SKIP ? undefined : await Browser.launch();
    try {
      const path = join(dir, "odd-1.traj.json");
      await Deno.writeTextFile(path, JSON.stringify(oddTrajectory()));
      const result = await runCli(["inspect", path, "--json"]);
      assert.equal(result.code, 0, result.stderr);
      const pagePath = result.json.page;
      const page = await Deno.readTextFile(pagePath);
      assert.ok(page.length < 2 * SHOWN_CHARS + 200_000, `the page has ${page.length} characters`);
      assert.match(page, /content missing/);
      assert.match(page, /role missing/);
      // The 50 MB message: its first SHOWN_CHARS characters, then where the rest is.
      const cut = (BIG - SHOWN_CHARS).toLocaleString("en-US");
      assert.ok(page.includes(`${cut} more characters not shown`), "the note on the big message");
      const flat = page.replace(/\s+/g, " ");
      assert.ok(
        flat.includes(`<code>messages[2].content</code> in <code>${path}</code>`),
        "the note names the raw file",
      );
      assert.ok(
        page.includes("<code>messages[5].content</code>"),
        "the tool output's note names its message",
      );
      if (!browser) return;
      await browser.open(pagePath);
      assert.deepEqual(browser.errors, []);
      // The error is a sentence; its stack is folded away.
      const error = await browser.evaluate<string>("document.querySelector('#error').innerText");
      assert.match(error, /^Error: ModelError: Scripted model "scripted\/a" has no turn 2: the script has 1/);
      assert.doesNotMatch(error, /\bat ScriptedModel\.query/);
      const notes = await browser.evaluate<string[]>(
        "[...document.querySelectorAll('.cut')].map((note) => note.innerText)",
      );
      assert.equal(notes.length, 2, JSON.stringify(notes));
      assert.match(
        notes[0],
        new RegExp(`^${cut} more characters not shown: the whole text is messages\\[2\\]\\.content in `),
      );
    } finally {
      await browser?.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
);

/** Every JSON path of `value` to an object member or array item, at most `limit` of them, breadth first. */
function paths(value: unknown, limit: number): (string | number)[][] {
  const found: (string | number)[][] = [];
  const queue: [unknown, (string | number)[]][] = [[value, []]];
  while (queue.length > 0 && found.length < limit) {
    const [node, at] = queue.shift()!;
    if (!node || typeof node !== "object") continue;
    const entries: [string | number, unknown][] = Array.isArray(node)
      ? node.map((item, i) => [i, item])
      : Object.entries(node);
    for (const [key, child] of entries) {
      found.push([...at, key]);
      queue.push([child, [...at, key]]);
    }
  }
  return found.slice(0, limit);
}

/** `doc` with the member at `path` replaced by `value` (or deleted when it is undefined). */
function mutate(doc: unknown, path: (string | number)[], value: unknown): unknown {
  const copy = structuredClone(doc) as Record<string | number, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  const last = path[path.length - 1];
  if (value === undefined) {
    if (Array.isArray(node)) node.splice(Number(last), 1);
    else delete node[last];
  } else {
    node[last] = value;
  }
  return copy;
}

Deno.test(
  "inspect: every field of real trajectories missing or of another type still renders",
  SLOW,
  async () => {
    // The demo's run, and a run with verification errors (candidates), a rollback and a fallback.
    const runs = [await demoRun(), await fallbackRun({ id: "shop-odd" })];
    try {
      const odd = [undefined, null, 7, "text", [], {}, [null, 1, "x"]];
      let pages = 0;
      for (const run of runs) {
        const doc = JSON.parse(await Deno.readTextFile(run.trajectory));
        for (const path of paths(doc, 2000)) {
          for (const value of odd) {
            let page: string;
            try {
              page = trajectoryPage(trajectoryView(mutate(doc, path, value)), { source: run.trajectory });
            } catch (err) {
              assert.fail(`${JSON.stringify(path)} = ${JSON.stringify(value)}: ${(err as Error).stack}`);
            }
            assert.match(page, /^<!doctype html>/i);
            pages++;
          }
        }
      }
      assert.ok(pages > 3000, `${pages} pages`);
      // A document that is no trajectory at all is still refused.
      for (const other of [[], 3, "x", null, { name: "not a run" }]) {
        assert.throws(
          () => trajectoryView(other),
          /a trajectory is a JSON object with "info" and "messages"/,
        );
      }
    } finally {
      for (const run of runs) await run.cleanup();
    }
  },
);
