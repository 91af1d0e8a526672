/**
 * The inspect pages in a real browser: headless Chromium loads each page
 * from a file with the network disabled; no console error, no exception,
 * no request leaves the page, no script but the page's own runs (hostile
 * strings stay text), collapsing/expanding works, and the batch table sorts
 * and filters. A screenshot of each page is kept as a test artifact in
 * `dist/test-artifacts/inspect/` (or `$GRAPHPLAN_TEST_ARTIFACTS`); with
 * `UPDATE_SCREENSHOTS=1` the README's screenshots in docs/ are rewritten
 * from runs without hostile strings.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { inspect } from "../../../../agent/trajectory/inspect/mod.ts";
import { inspectSectionOf } from "../../../../agent/strategies.ts";
import { ROOT } from "../../../e2e/_support.ts";
import { Browser, CHROMIUM_SKIP } from "../../../_support/chromium.ts";
import { demoRun, fallbackRun, HOSTILE, sampleBatch } from "./_runs.ts";
import { PYTEST_SKIP as RFSN_PYTEST_SKIP, rfsnRun } from "./_rfsn_run.ts";
import { slow } from "../../../_support/quick.ts";

const SLOW = slow("tests that start processes (the CLI, a helper, pytest, podman, the bundle)");

const ARTIFACTS = Deno.env.get("GRAPHPLAN_TEST_ARTIFACTS") ?? join(ROOT, "dist/test-artifacts/inspect");
const UPDATE = Deno.env.get("UPDATE_SCREENSHOTS") === "1";

async function keep(name: string, png: Uint8Array): Promise<void> {
  await Deno.mkdir(ARTIFACTS, { recursive: true });
  await Deno.writeFile(join(ARTIFACTS, name), png);
}

/** Fails on anything the page did that it should not have. */
function assertClean(browser: Browser, what: string): void {
  assert.deepEqual(browser.errors, [], `${what}: no console error or exception`);
  assert.deepEqual(browser.requests, [], `${what}: no request beyond file: and data:`);
}

const openCount = "document.querySelectorAll('details[open]').length";
const detailsCount = "document.querySelectorAll('details').length";

/** What each browser test gets: the demo's run, the fallback run, a scratch directory, a browser. */
interface Setup {
  demo: string;
  fallback: string;
  out: string;
  dir: string;
  browser: Browser;
}

/** A Chromium test (skipped without Chromium) with its runs made before and everything removed after. */
function browserTest(
  name: string,
  fn: (setup: Setup) => Promise<void>,
  options: { task?: string } = {},
): void {
  Deno.test({
    name,
    ignore: CHROMIUM_SKIP !== undefined,
    sanitizeResources: false,
    sanitizeOps: false,
    async fn() {
      const [demo, fallback] = [await demoRun(), await fallbackRun({ task: options.task })];
      const dir = await Deno.makeTempDir({ prefix: "gp_batch_" });
      const browser = await Browser.launch();
      try {
        await fn({ demo: demo.trajectory, fallback: fallback.trajectory, out: fallback.out, dir, browser });
      } finally {
        await browser.close();
        await Deno.remove(dir, { recursive: true });
        await demo.cleanup();
        await fallback.cleanup();
      }
    },
  });
}

browserTest(
  "inspect in Chromium: a trajectory page loads offline, stays inert and collapses/expands",
  async ({ fallback, out, browser }) => {
    const { page } = await inspect(fallback, { output: join(out, "trajectory.html") });
    const dialogs: string[] = [];
    browser.waitFor("Page.javascriptDialogOpening").then((params) => dialogs.push(String(params.message)));
    await browser.open(page);
    assertClean(browser, "trajectory page");
    assert.equal(await browser.evaluate("document.scripts.length"), 1, "only the page's own script");
    assert.equal(await browser.evaluate("document.querySelectorAll('img').length"), 0);
    assert.equal(await browser.evaluate("document.querySelector('#task pre').textContent"), HOSTILE.task);
    assert.ok((await browser.evaluate<string>("document.body.innerText")).includes(HOSTILE.content));

    const total = await browser.evaluate<number>(detailsCount);
    assert.ok(total > 10);
    await browser.click('button[data-details="close"]');
    assert.equal(await browser.evaluate("document.querySelectorAll('#messages details[open]').length"), 0);
    // A real click on a message's summary opens it; its body becomes visible.
    await browser.click("#messages details.msg > summary");
    assert.equal(await browser.evaluate("document.querySelector('#messages details.msg').open"), true);
    assert.ok(
      await browser.evaluate<number>("document.querySelector('#messages details.msg .body').offsetHeight") >
        0,
    );
    await browser.click("#messages details.msg > summary");
    assert.equal(await browser.evaluate("document.querySelector('#messages details.msg').open"), false);
    await browser.click('button[data-details="open"]');
    assert.equal(
      await browser.evaluate("document.querySelectorAll('#messages details:not([open])').length"),
      0,
      "expand all opens every message and output",
    );
    assert.ok(await browser.evaluate<number>(openCount) > 0);
    await keep("trajectory.png", await browser.screenshot());
    assertClean(browser, "trajectory page after interaction");
  },
);

browserTest(
  "inspect in Chromium: the batch page sorts and filters its table, its rows open instance pages",
  async ({ demo, fallback, dir, browser }) => {
    const instances = await sampleBatch(dir, { demo, fallback }, {
      hostile: true,
    });
    const { page } = await inspect(dir);
    await browser.open(page);
    assertClean(browser, "batch page");
    assert.equal(await browser.evaluate("document.scripts.length"), 1);
    assert.equal(await browser.evaluate("document.querySelectorAll('svg').length"), 3);
    const ids = () =>
      browser.evaluate<string[]>(
        "[...document.querySelectorAll('#instances tbody tr')].map((r) => r.dataset.id)",
      );
    const visible = () =>
      browser.evaluate<string[]>(
        "[...document.querySelectorAll('#instances tbody tr')].filter((r) => r.offsetParent !== null).map((r) => r.dataset.id)",
      );
    const byCost = [...instances].sort((a, b) => a.cost - b.cost).map((i) => i.id);
    await browser.click("#instances th:nth-child(6)");
    assert.deepEqual(await ids(), byCost, "ascending by cost");
    await browser.click("#instances th:nth-child(6)");
    assert.deepEqual(await ids(), [...byCost].reverse(), "descending by cost");
    await browser.click("#instances th:nth-child(1)");
    assert.deepEqual(
      await ids(),
      instances.map((i) => i.id).sort((a, b) => a.toLowerCase() < b.toLowerCase() ? -1 : 1),
    );
    await browser.evaluate(`(() => {
      const select = document.getElementById("status-filter");
      select.value = "Submitted";
      select.dispatchEvent(new Event("change", { bubbles: true }));
    })()`);
    const submitted = instances.filter((i) => i.status === "Submitted").map((i) => i.id).sort();
    assert.deepEqual((await visible()).sort(), submitted);
    assert.equal(
      await browser.evaluate("document.getElementById('shown-count').textContent"),
      String(submitted.length),
    );
    await browser.evaluate(`(() => {
      const select = document.getElementById("status-filter");
      select.value = "";
      select.dispatchEvent(new Event("change", { bubbles: true }));
    })()`);
    assert.equal((await visible()).length, instances.length);
    await keep("batch.png", await browser.screenshot());
    assertClean(browser, "batch page after interaction");

    // A row's link opens the instance page, which loads as cleanly and links back.
    const loaded = browser.waitFor("Page.loadEventFired");
    await browser.click('#instances tr[data-id="shop__orders-102"] a');
    await loaded;
    assert.match(
      await browser.evaluate<string>("location.href"),
      /inspect_instances\/shop__orders-102\.html$/,
    );
    assert.equal(
      await browser.evaluate("document.querySelector('#exit-status').textContent"),
      "FallbackSubmitted",
    );
    assertClean(browser, "instance page");
    const back = browser.waitFor("Page.loadEventFired");
    await browser.click('a[href="../inspect.html"]');
    await back;
    assert.match(await browser.evaluate<string>("location.href"), /\/inspect\.html$/);
  },
);

browserTest(
  "inspect in Chromium: the demo's page (and, with UPDATE_SCREENSHOTS=1, the README's screenshots)",
  async ({ demo, fallback, dir, browser }) => {
    const { page } = await inspect(demo);
    await browser.open(page);
    assertClean(browser, "demo page");
    await keep("demo.png", await browser.screenshot());
    if (UPDATE) {
      const traj = await inspect(fallback);
      await browser.open(traj.page);
      await browser.click('button[data-details="close"]');
      assertClean(browser, "docs trajectory page");
      await Deno.writeFile(join(ROOT, "docs/inspect_trajectory.png"), await browser.screenshot(1900));
      await sampleBatch(dir, { demo, fallback });
      const batch = await inspect(dir);
      await browser.open(batch.page);
      assertClean(browser, "docs batch page");
      await Deno.writeFile(join(ROOT, "docs/inspect_batch.png"), await browser.screenshot(1100));
    }
  },
  { task: "OrderService.order_total raises TypeError for a customer whose discount is None." },
);

Deno.test({
  name: "inspect in Chromium: an rfsn run's page loads offline with no console error and stays inert",
  ignore: CHROMIUM_SKIP !== undefined || RFSN_PYTEST_SKIP !== undefined || SLOW.ignore,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const run = await rfsnRun();
    const browser = await Browser.launch();
    try {
      const { page } = await inspect(run.trajectory, { sectionOf: inspectSectionOf });
      await browser.open(page);
      assertClean(browser, "rfsn page");
      assert.equal(await browser.evaluate("document.scripts.length"), 1, "only the page's own script");
      assert.ok(Number(await browser.evaluate("document.querySelectorAll('.rfsn-step').length")) >= 5);
      assert.equal(
        await browser.evaluate("document.querySelectorAll('img').length"),
        0,
        "hostile text stays text",
      );
      await keep("rfsn.png", await browser.screenshot());
    } finally {
      await browser.close();
      await run.cleanup();
    }
  },
});
