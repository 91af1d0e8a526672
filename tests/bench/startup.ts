/**
 * Benchmark section `startup`: the one-file bundle's size, and the wall time
 * and peak memory of `graphplan graph` on one small Python file from it
 * (what an agent pays per call), with `--version` as the floor.
 *
 * @module
 */

import { type BenchContext, type BenchSection, DENO } from "./context.ts";
import { type BenchRow, hasGnuTime, round, rowAtMost, runCommand, spread, timeCommand } from "./stats.ts";

/** A small, ordinary Python module (imports, a class, branches). */
export const SMALL_PY = `"""Inventory helpers."""
import os
from collections import defaultdict as dd


class Inventory:
    """Counts items by name."""

    def __init__(self):
        self.items = dd(int)

    def add(self, name, count=1):
        if count <= 0:
            raise ValueError("count must be positive")
        self.items[name] += count
        return self.items[name]


def load(path):
    inventory = Inventory()
    for line in open(path):
        name, _, count = line.partition(",")
        inventory.add(name.strip(), int(count or 1))
    return inventory


def home():
    return os.environ.get("HOME", "/")
`;

/** The `startup` section. */
export const startupSection: BenchSection = {
  name: "startup",
  description: "bundle size, cold start and peak RSS of `graphplan graph small.py` from the bundle",
  async run(ctx: BenchContext): Promise<BenchRow[]> {
    const section = "startup";
    const rows: BenchRow[] = [];
    const bundle = await ctx.bundle();
    rows.push({
      section,
      metric: "bundle size",
      value: round(Deno.statSync(bundle).size / 1e6),
      unit: "MB",
      note: "dist/graphplan.js (deno bundle --platform deno main.ts)",
    });

    // Deno copies a source that is not all ASCII at every start (~860 page faults for 3.5 MB), and
    // holds one with a character above U+00FF as UTF-16 (about +70 MB, +60 ms).
    const nonAscii = (await Deno.readTextFile(bundle)).match(/[\u0080-\uffff]/g)?.length ?? 0;
    rows.push(rowAtMost({
      section,
      metric: "bundle characters outside ASCII",
      value: nonAscii,
      unit: "chars",
      note: nonAscii
        ? "the source is copied at start: see tests/bundle/bundle_test.ts for where"
        : "all ASCII",
    }, 0));

    // A directory without deno.json, holding the bundle copy and the file.
    const dir = `${ctx.tmp}/startup`;
    await Deno.mkdir(dir, { recursive: true });
    const copy = `${dir}/graphplan.js`;
    await Deno.copyFile(bundle, copy);
    await Deno.writeTextFile(`${dir}/small.py`, SMALL_PY);
    const peak = hasGnuTime();
    const peakNote = peak ? "" : " (no /usr/bin/time: peak RSS not measured)";

    // The very first run of a new bundle path pays V8's compile of the whole file (no code cache yet).
    const first = await runCommand(DENO, ["run", "-A", copy, "graph", "small.py"], { cwd: dir, peak });
    const graphWorks = first.code === 0;
    rows.push({
      section,
      metric: "first run of a fresh bundle",
      value: graphWorks ? round(first.wallMs) : null,
      unit: "ms",
      note: graphWorks
        ? "graph small.py, before deno has a code cache for the bundle"
        : `graphplan graph failed (exit ${first.code}): ${first.stderr.trim().split("\n").pop()}`,
    });

    // The machine's floor: deno starting a one-line script, from the same kind of directory.
    await Deno.writeTextFile(`${dir}/hello.js`, 'console.log("hello");\n');
    const hello = await timeCommand(DENO, ["run", "-A", `${dir}/hello.js`], {
      cwd: dir,
      runs: ctx.runs,
      warmup: 1,
    });
    rows.push({
      section,
      metric: "deno run of a one-line script",
      value: round(hello.wall.median),
      unit: "ms",
      note: `the machine's floor for any deno program; ${spread(hello.wall)}`,
    });

    const version = await timeCommand(DENO, ["run", "-A", copy, "--version"], {
      cwd: dir,
      runs: ctx.runs,
      warmup: 1,
      peak,
    });
    rows.push({
      section,
      metric: "graphplan --version",
      value: round(version.wall.median),
      unit: "ms",
      note: `floor: deno start + bundle load; ${spread(version.wall)}${
        version.peak ? `; peak ${round(version.peak.median)} MB` : ""
      }`,
    });

    if (graphWorks) {
      const graph = await timeCommand(DENO, ["run", "-A", copy, "graph", "small.py"], {
        cwd: dir,
        runs: ctx.runs,
        warmup: 1,
        peak,
      });
      rows.push(rowAtMost({
        section,
        metric: "graphplan graph small.py",
        value: round(graph.wall.median),
        unit: "ms",
        note: `wall, code cache warm; ${spread(graph.wall)}`,
      }, 120));
      rows.push({
        section,
        metric: "graphplan graph small.py above deno's own start",
        value: round(graph.wall.median - hello.wall.median),
        unit: "ms",
        note: "the cold start minus the one-line script's, both medians of this run",
      });
      rows.push(rowAtMost({
        section,
        metric: "graphplan graph small.py peak RSS",
        value: graph.peak ? round(graph.peak.median) : null,
        unit: "MB",
        note: graph.peak ? `/usr/bin/time -f %M; ${spread(graph.peak, "MB")}` : `not measured${peakNote}`,
      }, 100));
    }
    return rows;
  },
};
