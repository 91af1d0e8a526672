/**
 * The inspect pages' content, on real runs: the demo's trajectory, a run
 * with failed verification, a rolled-back execution and a fallback, and a
 * batch directory written the way `graphplan batch` writes one. Every phase,
 * every plan step, every issue code must be on the page, issues in the row
 * of their step, and every hostile string escaped.
 */

import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { batchPage, inspect, locatorWords, stepTarget } from "../../../../agent/trajectory/inspect/mod.ts";
import { detectTier } from "../../../../engine/plan/tiers.ts";
import { demoRun, FALLBACK_CODES, FALLBACK_PLANS, fallbackRun, HOSTILE, sampleBatch } from "./_runs.ts";
import { PYTEST_SKIP as RFSN_PYTEST_SKIP, RFSN_HOSTILE, rfsnRun } from "./_rfsn_run.ts";
import { inspectSectionOf } from "../../../../agent/strategies.ts";
import { slow } from "../../../_support/quick.ts";

const SLOW = slow("tests that start processes (the CLI, a helper, pytest, podman, the bundle)");

type Doc = {
  instance_id: string;
  info: {
    phases: { name: string; attempt?: number }[];
    exit_status: string;
    submission: string;
    [k: string]: unknown;
  };
  messages: { role: string; content: string; tool_calls?: { command: string }[] }[];
};

const read = async (path: string) => await Deno.readTextFile(path);
const doc = async (path: string): Promise<Doc> => JSON.parse(await read(path));

/** The markup of a plan attempt's section. */
function attemptSection(page: string, attempt: number): string {
  const start = page.indexOf(`data-attempt="${attempt}"`);
  assert.ok(start >= 0, `attempt ${attempt} is on the page`);
  const end = page.indexOf('class="plan" data-attempt=', start + 1);
  return page.slice(start, end === -1 ? page.indexOf('id="patch"') : end);
}

/** The markup of one step's row in a plan section. */
function stepRow(section: string, step: number): string {
  const start = section.indexOf(`<tr data-step="${step}">`);
  assert.ok(start >= 0, `step ${step} has a row`);
  return section.slice(start, section.indexOf("</tr>", start));
}

const escaped = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(
    /'/g,
    "&#39;",
  );

/** The page with runs of white space between tags removed (the templates are formatted code). */
const flat = (page: string) =>
  page.replace(/\s+/g, " ").replace(/> </g, "><").replace(/ </g, "<").replace(/> /g, ">");

function assertInert(page: string): void {
  assert.equal(page.match(/<script/gi)?.length, 1, "the page's own script is its only script");
  assert.doesNotMatch(page, /<img/i);
  assert.doesNotMatch(page, /<b>(discont|not bold)<\/b>/);
  assert.doesNotMatch(page, /\b(src|href)="(https?:)?\/\//, "nothing is loaded from a network");
}

Deno.test("inspect: the demo's trajectory shows every phase, step, message and the patch", SLOW, async () => {
  const run = await demoRun();
  try {
    const result = await inspect(run.trajectory);
    assert.equal(result.kind, "trajectory");
    assert.equal(result.page, run.trajectory.replace(/\.traj\.json$/, ".html"));
    const page = await read(result.page);
    const f = flat(page);
    const saved = await doc(run.trajectory);
    assertInert(page);
    for (const phase of saved.info.phases) {
      assert.match(f, new RegExp(`data-phase="${phase.name}"`), phase.name);
    }
    for (const name of ["EXPLORE", "GRAPH", "PLAN", "VERIFY", "EXECUTE", "SUBMIT"]) {
      assert.match(f, new RegExp(`<span class="reached">${name}</span>`), `${name} reached`);
    }
    const section = attemptSection(f, 1);
    const steps = (saved.info.plan as { plan_steps: unknown[] }).plan_steps;
    assert.equal(steps.length, 1);
    const row = stepRow(section, 0);
    assert.match(row, /<code>replace_expression<\/code>/);
    assert.match(row, /attribute discount of method order_total of class OrderService in app\/service\.py/);
    assert.match(row, /title="tier 2">2</);
    assert.match(section, /Verification:<\/b><span class="badge st-ok">passed/);
    assert.match(section, /Execution:<\/b><span class="badge st-ok">done/);
    // The task, from info.task.
    assert.ok(
      page.includes(escaped("`OrderService.order_total()` crashes for customers without a discount:")),
    );
    // The patch, coloured line by line.
    assert.match(page, /<span class="d-del">- {8}discount = order\.customer\.discount<\/span>/);
    assert.match(
      page,
      /<span class="d-add">\+ {8}discount = order\.customer\.discount or Decimal\(&quot;0&quot;\)<\/span>/,
    );
    assert.match(f, /id="exit-status">Submitted</);
    // Every message: tool outputs folded into the call they answer.
    const assistants = saved.messages.filter((m) => m.role === "assistant");
    const tools = saved.messages.filter((m) => m.role === "tool");
    assert.equal(f.match(/<details class="msg" data-role="assistant"/g)?.length, assistants.length);
    assert.equal(f.match(/<details class="msg" data-role="tool"/g), null);
    for (const message of [...assistants, ...tools]) {
      assert.ok(page.includes(escaped(message.content)), message.content);
    }
    for (const call of assistants.flatMap((m) => m.tool_calls ?? [])) {
      assert.ok(page.includes(escaped(call.command)));
    }
    assert.match(f, /<dt>calls<\/dt><dd>7<\/dd>/);
  } finally {
    await run.cleanup();
  }
});

Deno.test("inspect: a run with a fallback and a rollback: issues on their steps, the point and reason", async () => {
  const run = await fallbackRun();
  try {
    const out = join(run.out, "page.html");
    await inspect(run.trajectory, { output: out });
    const page = await read(out);
    const f = flat(page);
    const saved = await doc(run.trajectory);
    assertInert(page);
    assert.equal(saved.info.exit_status, "FallbackSubmitted");
    for (const phase of saved.info.phases) {
      assert.match(
        page,
        new RegExp(`data-phase="${phase.name}"><div class="name">${phase.name.toUpperCase()}`),
      );
    }
    assert.match(f, /<span class="fell">EXECUTE<\/span>/);
    assert.match(f, /Fallback at execute:<\/b>the plan failed to execute \(attempt 2\)/);
    // Cost and steps per phase: two explore calls at $0.0125.
    assert.match(
      f,
      /data-phase="explore"><div class="name">EXPLORE<\/div><div class="meta">done · [\d.]+ s<\/div>/,
    );
    // Steps and cost per phase: 2 explore calls, 2 plan calls (both attempts), 2 fallback calls, $0.0125 each.
    for (const phase of ["explore", "plan", "fallback"]) {
      assert.ok(
        f.includes(
          `<tr data-phase="${phase}"><td>${phase}</td><td class="num">2</td><td class="num">$0.0250</td></tr>`,
        ),
        phase,
      );
    }
    for (const code of FALLBACK_CODES) assert.match(f, new RegExp(`data-code="${code}"`), code);

    const first = attemptSection(f, 1);
    assert.match(stepRow(first, 0), /data-code="locator-not-found".*layer 0b/s);
    assert.match(stepRow(first, 0), /hint: did you mean &quot;discount&quot;\?/);
    assert.match(
      stepRow(first, 0),
      /<code>app\/service\.py:32<\/code>attribute:<code>order\.customer\.discount<\/code>/,
    );
    assert.match(stepRow(first, 1), /data-code="name-unbound".*L3/s);
    assert.doesNotMatch(stepRow(first, 0), /name-unbound/);
    assert.match(first, /Plan-level issues<\/h3><div class="issue warning" data-code="plan-many-files">/);
    assert.match(first, /Verification:<\/b><span class="badge st-bad">failed/);

    const second = attemptSection(f, 2);
    assert.match(
      stepRow(second, 1),
      /data-code="syntax-error".*L0.*app\/service\.py:36.*data-code="kind-changed".*L1/s,
    );
    assert.match(
      second,
      /Execution:<\/b><span class="badge st-warn">rolled_back<\/span>.*failed at step 1/s,
    );
    assert.match(second, /<b>Rollback\.<\/b>Rolled back: every file the plan touched was restored/);

    FALLBACK_PLANS.forEach((plan, attempt) => {
      const section = attemptSection(f, attempt + 1);
      plan.forEach((step, index) => {
        const row = stepRow(section, index);
        assert.ok(
          row.includes(`title="tier ${detectTier(step)}"`),
          `attempt ${attempt + 1} step ${index} tier`,
        );
        assert.ok(row.includes(escaped(stepTarget(step))));
      });
    });
    assert.ok(
      page.includes("attribute discont of method order_total of class OrderService in app/service.py"),
    );
    // Hostile strings are text.
    assert.ok(page.includes(escaped(HOSTILE.task)));
    assert.ok(page.includes(escaped(HOSTILE.content)));
    assert.ok(page.includes(escaped(HOSTILE.issue)));
    assert.ok(page.includes("&lt;b&gt;not bold&lt;/b&gt;"));
  } finally {
    await run.cleanup();
  }
});

Deno.test("inspect: lift's origin and tiers and the gate are shown when recorded", async () => {
  const run = await fallbackRun({ task: "Fix the discount" });
  try {
    const saved = await doc(run.trajectory);
    saved.info.plan = {
      plan_files: ["app/service.py"],
      plan_steps: FALLBACK_PLANS[1],
      source: "lifted",
      tiers: [3, 1],
    };
    saved.info.phases.splice(saved.info.phases.findIndex((p) => p.name === "verify" && p.attempt === 2), 0, {
      name: "lift",
      status: "done",
      attempt: 2,
      exact: true,
      hunks: [{ file: "app/service.py", index: 0, steps: [0, 1], lifted: true, tiers: [3, 1] }],
    } as never);
    saved.info.gate = {
      admissible: false,
      refused: true,
      errors: [{
        code: "assertion-removed",
        severity: "error",
        message: "An assertion was removed",
        file: "tests/t.py",
        line: 4,
      }],
      warnings: [],
    };
    await Deno.writeTextFile(run.trajectory, JSON.stringify(saved));
    const { page } = await inspect(run.trajectory);
    const html = flat(await read(page));
    const second = attemptSection(html, 2);
    assert.match(second, /lifted/);
    assert.match(stepRow(second, 0), /title="tier 3">3</);
    assert.match(second, /Lift:<\/b><span class="badge st-ok">done<\/span>1 hunk, replay byte-exact/);
    assert.match(html, /id="gate"><h2>Gate<\/h2><p><span class="badge st-bad">refused/);
    assert.match(html, /data-code="assertion-removed"/);
    assert.doesNotMatch(attemptSection(html, 1), /lifted/);
  } finally {
    await run.cleanup();
  }
});

Deno.test(
  "inspect: a batch directory: table, totals, charts, an instance page per trajectory",
  SLOW,
  async () => {
    const [demo, fallback] = [await demoRun(), await fallbackRun()];
    const dir = await Deno.makeTempDir({ prefix: "gp_batch_" });
    try {
      const instances = await sampleBatch(dir, { demo: demo.trajectory, fallback: fallback.trajectory }, {
        hostile: true,
      });
      const result = await inspect(dir);
      assert.equal(result.kind, "batch");
      assert.equal(result.page, join(dir, "inspect.html"));
      const page = await read(result.page);
      const f = flat(page);
      assertInert(page);
      assert.ok(page.includes(escaped("evil<img src=x onerror=alert(1)>")));
      assert.equal(f.match(/<tr data-status=/g)?.length, instances.length);
      for (const instance of instances) {
        const row = f.slice(f.indexOf(`data-id="${escaped(instance.id)}"`));
        const cells = row.slice(0, row.indexOf("</tr>"));
        assert.ok(cells.includes(`<span class="badge`), instance.id);
        assert.ok(cells.includes(`>${escaped(instance.status)}</span>`), instance.id);
        assert.ok(cells.includes(`data-sort="${instance.cost}"`), instance.id);
        assert.ok(cells.includes(`data-sort="${instance.steps}"`), instance.id);
        assert.ok(cells.includes(`data-sort="${instance.wall_time}"`), instance.id);
        assert.ok(
          cells.includes(
            `<td data-sort="${instance.fallback_point ?? ""}">${instance.fallback_point ?? ""}</td>`,
          ),
        );
        const link = /<a href="([^"]+)">/.exec(cells)?.[1];
        if (instance.from) {
          assert.ok(link, `${instance.id} links to its page`);
          const target = join(dir, decodeURIComponent(link!));
          const sub = await read(target);
          assert.match(sub, /<a href="\.\.\/inspect\.html">/);
          assert.ok(sub.includes(`Trajectory ${escaped(instance.id)}`));
        } else {
          assert.equal(link, undefined, `${instance.id} has no trajectory, so no link`);
        }
      }
      assert.equal(result.pages.length, 1 + instances.filter((i) => i.from).length);
      for (const status of new Set(instances.map((i) => i.status))) {
        assert.ok(f.includes(`<option value="${status}">${status}</option>`), status);
      }
      const total = instances.reduce((sum, i) => sum + i.cost, 0);
      assert.ok(f.includes(`<b>$${total.toFixed(4)}</b>total cost`));
      assert.equal(f.match(/<svg /g)?.length, 3);
      assert.match(f, /Exit statuses/);
      assert.match(f, /Cost per instance/);
      for (const instance of instances) {
        assert.ok(
          f.includes(`<title>${escaped(instance.id)}: $${instance.cost.toFixed(4)} (`),
          `${instance.id} cost bar`,
        );
      }
      // The funnel: 5 instances entered EXPLORE? No: the cost-capped one never started.
      assert.match(f, /<title>4 instance\(s\) entered explore<\/title>/);
      assert.match(f, /execute: 1, submit: 0/);
    } finally {
      await Deno.remove(dir, { recursive: true });
      await demo.cleanup();
      await fallback.cleanup();
    }
  },
);

Deno.test("inspect: locators in words", () => {
  assert.equal(
    locatorWords({ file: "q.py", kind: "class", name: "QuerySet", field: "body", nth_child: -1 }),
    "the last named child of the body of class QuerySet in q.py",
  );
  assert.equal(locatorWords({ file: "q.py", kind: "import", index: 2 }), "import (match #2) in q.py");
  assert.equal(
    locatorWords({ type: "sexp", file: "a.py", query: "(call) @c", capture: "c" }),
    'query "(call) @c" capture @c in a.py',
  );
  assert.equal(
    stepTarget({ op: "add_method", params: { file: "a.py", class_name: "A" } }),
    "class A in a.py",
  );
  assert.equal(
    stepTarget({ op: "insert_at_line", params: { file: "a.py", anchor_line: 4 } }),
    "line 4 in a.py",
  );
  assert.equal(
    stepTarget({
      fragment: { kind: "if" },
      action: "insert_after",
      target: { file: "a.py", kind: "function", name: "f" },
    }),
    "function f in a.py",
  );
});

Deno.test("inspect: an output directory with several runs and no batch.json gets rows from the trajectories", async () => {
  const run = await fallbackRun({ id: "first", task: "Fix the discount" });
  try {
    const saved = await doc(run.trajectory);
    saved.instance_id = "second";
    saved.info.exit_status = "LimitsExceeded";
    await Deno.mkdir(join(run.out, "second"));
    await Deno.writeTextFile(join(run.out, "second", "second.traj.json"), JSON.stringify(saved));
    const result = await inspect(run.out);
    assert.equal(result.kind, "batch");
    const f = flat(await read(result.page));
    const row = (id: string) =>
      f.slice(f.indexOf(`data-id="${id}"`), f.indexOf("</tr>", f.indexOf(`data-id="${id}"`)));
    assert.match(row("first"), />FallbackSubmitted<\/span>/);
    assert.match(row("second"), />LimitsExceeded<\/span>/);
    for (const id of ["first", "second"]) {
      assert.match(
        row(id),
        /<td data-sort="execute">execute<\/td>/,
        "the fallback point, from info.fallback",
      );
      assert.match(row(id), /data-sort="6">6</, "steps, from model_stats.calls");
      assert.match(row(id), /data-sort="0\.075\d*">\$0\.0750</, "cost, from model_stats.cost");
    }
    assert.match(row("first"), /2 lines/, "the patch, from preds.json");
  } finally {
    await run.cleanup();
  }
});

Deno.test("inspect: a batch of many instances draws cost as columns, one per instance, costliest first", () => {
  const rows = Array.from({ length: 25 }, (_, i) => ({
    id: `repo__pkg-${i}`,
    status: i % 3 ? "Submitted" : "LimitsExceeded",
    phase: "submit",
    reached: 5,
    cost: i / 100,
  }));
  const f = flat(batchPage({ dir: "/tmp/x", batch: {}, rows, notes: [] }, new Map()));
  const chart = f.slice(
    f.indexOf("<figcaption>Cost per instance"),
    f.indexOf("</figure>", f.indexOf("Cost per instance")),
  );
  const titles = [...chart.matchAll(/<title>(repo__pkg-\d+): /g)].map((m) => m[1]);
  assert.deepEqual(titles, rows.map((row) => row.id).reverse());
  assert.equal(chart.match(/<rect /g)?.length, 25);
  assert.match(chart, /25 instances, most expensive first/);
});

interface RfsnTraj {
  info: {
    exit_status: string;
    rfsn: {
      steps: {
        phase: string;
        proposal?: { hypothesis: string; intent: string; action: { type: string; explanation?: string } };
        candidates?: {
          model: string;
          score: { total: number; factors: { factor: string; why: string }[] } | null;
          verdict: { accepted: boolean; reason: string } | null;
          admissible: boolean;
        }[];
        chosen?: string;
        feedback?: { output: string };
      }[];
      transitions: { from: string; to: string; reason: string }[];
    };
  };
}

Deno.test({
  name:
    "inspect: an rfsn run shows its transitions, proposals, candidates with scores and verdicts, feedback",
  ignore: RFSN_PYTEST_SKIP !== undefined || SLOW.ignore,
  async fn() {
    const run = await rfsnRun();
    try {
      const { page: out } = await inspect(run.trajectory, { sectionOf: inspectSectionOf });
      const page = await read(out);
      const f = flat(page);
      const saved = JSON.parse(await Deno.readTextFile(run.trajectory)) as RfsnTraj;
      const { rfsn } = saved.info;
      assertInert(page);
      assert.equal(saved.info.exit_status, "Submitted");
      assert.match(f, /id="rfsn"/);
      assert.doesNotMatch(f, /id="plans"/, "no empty GraphPlan plan section");
      assert.ok(rfsn.transitions.length >= 4);
      for (const t of rfsn.transitions) {
        assert.ok(
          f.includes(
            `data-phase="${t.to}"><div class="name">${t.to}</div><div class="meta">${escaped(t.reason)}<`,
          ),
          t.reason,
        );
      }
      assert.equal(f.match(/<details open class="rfsn-step"/g)?.length, rfsn.steps.length);
      for (const [i, step] of rfsn.steps.entries()) {
        const start = f.indexOf(`data-step="${i}" data-phase="${step.phase}"`);
        assert.ok(start >= 0, `step ${i}`);
        const block = f.slice(start, f.indexOf("</details>", start));
        if (step.proposal) {
          assert.ok(block.includes(`<dt>intent</dt><dd>${step.proposal.intent}`), `step ${i} intent`);
          assert.ok(block.includes(escaped(step.proposal.hypothesis)), `step ${i} hypothesis`);
        }
        if (step.feedback?.output) {
          assert.ok(page.includes(escaped(step.feedback.output)), `step ${i} output`);
        }
      }
      const patch = rfsn.steps.find((s) => s.candidates)!;
      assert.equal(patch.candidates!.length, 2);
      for (const c of patch.candidates!) {
        const start = f.indexOf(`<tr data-model="${c.model}"`);
        assert.ok(start >= 0, c.model);
        const row = f.slice(start, f.indexOf("</tr>", start));
        assert.match(row, c.admissible ? />admissible</ : />inadmissible</);
        if (c.score) {
          assert.ok(row.includes(`<b>${c.score.total}</b>`), `${c.model} total`);
          for (const factor of c.score.factors) assert.ok(row.includes(escaped(factor.why)), factor.why);
        } else assert.match(row, /not scored/);
        if (c.verdict && !c.verdict.accepted) {
          assert.ok(row.includes(escaped(c.verdict.reason)), c.verdict.reason);
        }
        if (c.model === patch.chosen) assert.match(row, />chosen</);
      }
      // The hostile hypothesis and the non-JSON answer stay text.
      assert.ok(page.includes(escaped(RFSN_HOSTILE)));
      assert.doesNotMatch(page, /<b>not<\/b>/);
    } finally {
      await run.cleanup();
    }
  },
});

Deno.test({
  name:
    "inspect: the section drawn is the one the recorded strategy's registry entry gives, not whatever info holds",
  // an rfsn run with real pytest, like the STUCK test below: slow-marked
  ignore: RFSN_PYTEST_SKIP !== undefined || SLOW.ignore,
  async fn() {
    const run = await rfsnRun();
    try {
      const saved = JSON.parse(await Deno.readTextFile(run.trajectory));
      assert.equal(saved.info.config.agent.strategy, "rfsn");
      assert.ok(saved.info.rfsn.steps.length > 0);
      const page = async (path: string, sectionOf = inspectSectionOf) =>
        flat(await read((await inspect(path, { output: `${path}.html`, sectionOf })).page));
      const rfsnPage = await page(run.trajectory);
      assert.match(rfsnPage, /id="rfsn"/);
      assert.doesNotMatch(rfsnPage, /id="plans"/);
      // The same record under another recorded strategy: that strategy's view (phases and plans).
      saved.info.config.agent.strategy = "graphplan";
      const relabelled = join(dirname(run.trajectory), "relabelled.traj.json");
      await Deno.writeTextFile(relabelled, JSON.stringify(saved));
      const graphplanPage = await page(relabelled);
      assert.doesNotMatch(graphplanPage, /id="rfsn"/);
      assert.match(graphplanPage, /id="phases"/);
      assert.match(graphplanPage, /id="plans"/);
      // A strategy the registry does not know draws nothing of its own.
      saved.info.config.agent.strategy = "retired";
      await Deno.writeTextFile(relabelled, JSON.stringify(saved));
      assert.match(await page(relabelled), /id="plans"/);
    } finally {
      await run.cleanup();
    }
  },
});

Deno.test({
  name: "inspect: an rfsn run that is STUCK shows why, and that the test command could not run",
  ignore: RFSN_PYTEST_SKIP !== undefined || SLOW.ignore,
  async fn() {
    const run = await rfsnRun({ testCommand: "graphplan-no-such-python3 -m pytest {{tests}}" });
    try {
      const { page: out } = await inspect(run.trajectory, { sectionOf: inspectSectionOf });
      const f = flat(await read(out));
      const saved = JSON.parse(await Deno.readTextFile(run.trajectory)) as RfsnTraj;
      const explain = saved.info.rfsn.steps.at(-1)!.proposal!.action.explanation!;
      assert.match(explain, /rfsn\.test_command/);
      assert.ok(f.includes(`id="rfsn-stuck"><b>Stuck:</b>${escaped(explain)}</div>`));
      assert.match(
        f,
        /class="callout bad not-run"><b>The test command could not run:<\/b>the command was not found/,
      );
      assert.match(f, /<dt>reproduced<\/dt><dd>no<\/dd>/);
      assert.match(f, /id="exit-status">Stuck</);
    } finally {
      await run.cleanup();
    }
  },
});
