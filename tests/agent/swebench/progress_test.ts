import assert from "node:assert/strict";
import { duration, errorGist, eventLine, LiveProgress, liveViewFits } from "../../../agent/swebench/mod.ts";

Deno.test("progress: durations read as a person writes them", () => {
  assert.equal(duration(0), "0s");
  assert.equal(duration(59.4), "59s");
  assert.equal(duration(125), "2m05s");
  assert.equal(duration(3 * 3600 + 61), "3h01m");
});

Deno.test("progress: model steps print no log line; every other event prints one", () => {
  assert.equal(eventLine({ type: "step", id: "a", phase: "explore", step: 3, cost: 0.1 }), null);
  assert.equal(eventLine({ type: "sweep", removed: [] }), null);
  assert.equal(
    eventLine({ type: "start", total: 10, skipped: 2, todo: 8, workers: 1, costLimit: 5 }),
    "batch: 10 selected, 2 already in preds, 8 to run with 1 worker, cost limit $5.0000",
  );
  assert.equal(
    eventLine({
      type: "instance-end",
      id: "a__b-1",
      status: "Submitted",
      cost: 0.25,
      steps: 12,
      seconds: 61.25,
    }),
    "batch: a__b-1: Submitted, $0.2500, 12 steps, 61.3 s",
  );
});

Deno.test("progress: the live view shows done/total, running instances, cost, elapsed, ETA and statuses", () => {
  const written: string[] = [];
  const stream = { isTTY: false, columns: 120, rows: 30, write: (text: string) => written.push(text) };
  let now = 0;
  const live = new LiveProgress({ stream: stream as never, now: () => now });
  live.event({ type: "start", total: 5, skipped: 1, todo: 4, workers: 2, costLimit: 2 });
  live.event({ type: "instance-start", id: "django__django-1" });
  live.event({ type: "instance-start", id: "sympy__sympy-2" });
  now = 30_000;
  live.event({ type: "step", id: "django__django-1", phase: "plan", step: 7, cost: 0.3 });
  live.event({ type: "phase", id: "sympy__sympy-2", phase: "explore" });
  now = 60_000;
  live.event({
    type: "instance-end",
    id: "sympy__sympy-2",
    status: "Submitted",
    cost: 0.5,
    steps: 9,
    seconds: 60,
  });
  assert.equal(
    live.view(),
    [
      "GraphPlan batch  2/5 done  running 1  cost $0.8000 of $2.0000  elapsed 1m00s  ETA 3m00s",
      "  django__django-1  plan      step   7  $0.3000  1m00s",
      "  exit statuses: Submitted 1",
    ].join("\n"),
  );
  // The finished instance's line went to the stream, above the redrawn block.
  assert.ok(
    written.some((text) => text.includes("batch: sympy__sympy-2: Submitted, $0.5000, 9 steps, 60.0 s")),
  );
  live.close();
});

Deno.test("progress: the end says where the outputs are, how to see them and how to run what is left", () => {
  const end = {
    type: "end" as const,
    done: 3,
    cost: 1.5,
    statuses: { Submitted: 3, BatchCostLimit: 2 },
    seconds: 125,
    outDir: "/runs/lite",
    preds: "/runs/lite/preds.jsonl",
    left: 2,
    interrupted: false,
  };
  assert.equal(
    eventLine(end),
    [
      "batch: finished: 3 instance(s) ended, $1.5000, 2m05s; exit statuses: BatchCostLimit 2, Submitted 3",
      "batch: outputs in /runs/lite: preds.jsonl (for the SWE-bench harness), batch.json, exit_statuses.yaml, " +
      "ID/ID.traj.json",
      "batch: see them: graphplan inspect /runs/lite",
      "batch: 2 instance(s) have no prediction yet: run the same command again to run them " +
      "(with a higher --cost-limit)",
    ].join("\n"),
  );
  // Stopped by Ctrl-C: "stopped", and the rerun hint without the cost limit.
  const stopped = eventLine({ ...end, interrupted: true, statuses: { Interrupted: 2, Submitted: 3 } })!;
  assert.match(stopped, /^batch: stopped: 3 instance\(s\) ended/);
  assert.match(stopped, /2 instance\(s\) have no prediction yet: run the same command again to run them$/);
  // Everything ended: no rerun hint.
  assert.ok(!eventLine({ ...end, left: 0 })!.includes("run the same command"));

  // The live view leaves the same lines below its last block.
  const written: string[] = [];
  const stream = { isTTY: false, columns: 120, rows: 30, write: (text: string) => written.push(text) };
  const live = new LiveProgress({ stream: stream as never, now: () => 0 });
  live.event({ type: "start", total: 5, skipped: 0, todo: 5, workers: 2, costLimit: 0 });
  live.event(end);
  assert.equal(written.at(-1), eventLine(end) + "\n");
});

Deno.test("progress: the live view draws only on a sized terminal that can move the cursor", () => {
  assert.equal(liveViewFits({ terminal: true, rows: 40, term: "xterm-256color" }), true);
  assert.equal(liveViewFits({ terminal: true, rows: 40 }), true);
  // TERM=dumb (an editor's shell buffer): the escapes would show as text, so plain lines.
  assert.equal(liveViewFits({ terminal: true, rows: 40, term: "dumb" }), false);
  assert.equal(liveViewFits({ terminal: true, rows: 0, term: "xterm" }), false);
  assert.equal(liveViewFits({ terminal: false, rows: 40, term: "xterm" }), false);
});

Deno.test("progress: an instance that ended on an error says why on its line, first and last line of it", () => {
  // What podman prints for an image that is not there and cannot be pulled (as batch.json records it).
  const pull = [
    'Cannot start a container from image "localhost/nope:latest" with podman: Trying to pull localhost/nope:latest...',
    'time="2026-11-24T18:38:22Z" level=warning msg="Failed, retrying in 1s ... (1/3)."',
    'time="2026-11-24T18:38:23Z" level=warning msg="Failed, retrying in 1s ... (2/3)."',
    'Error: initializing source docker://localhost/nope:latest: pinging container registry localhost: Get "https://localhost/v2/": dial tcp 127.0.0.1:443: connect: connection refused',
  ].join("\n");
  const line = eventLine({
    type: "instance-end",
    id: "a__b-1",
    status: "EnvironmentError",
    cost: 0,
    steps: 0,
    seconds: 3.1,
    error: pull,
  })!;
  assert.ok(!line.includes("\n"), line);
  assert.match(
    line,
    /^batch: a__b-1: EnvironmentError, \$0\.0000, 0 steps, 3\.1 s: Cannot start a container from image /,
  );
  assert.match(line, /\.\.\. Error: initializing source .* connect: connection refused$/);
  assert.ok(!line.includes("retrying"), "the middle of the output is left to batch.json");
  assert.equal(errorGist("one line"), "one line");
  assert.equal(errorGist("x".repeat(400), 20), `${"x".repeat(17)}...`);
});

Deno.test("progress: a warning is one log line naming its instance, and stays above the live view", () => {
  const event = { type: "warning", id: "a__b-1", message: "The helper could not run: x" } as const;
  assert.equal(eventLine(event), "batch: warning: a__b-1: The helper could not run: x");
  const written: string[] = [];
  const stream = { isTTY: false, columns: 120, rows: 30, write: (text: string) => written.push(text) };
  const live = new LiveProgress({ stream: stream as never, now: () => 0 });
  live.event({ type: "start", total: 1, skipped: 0, todo: 1, workers: 1, costLimit: 0 });
  live.event({ type: "instance-start", id: "a__b-1" });
  live.event(event);
  assert.ok(written.some((text) => text.includes("batch: warning: a__b-1: The helper could not run: x")));
  assert.doesNotMatch(live.view(), /warning/, "not part of the redrawn block");
  live.close();
});
