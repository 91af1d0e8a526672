/**
 * Benchmark section `helper_overhead`: what the orchestrator pays per helper
 * request over the long-lived `helper --serve` session, against starting a
 * fresh helper process for every request (`exec` + `graphplan helper
 * METHOD`), in one run: as a local subprocess, and in a podman container
 * (the minimal image of tools/minimal_image.ts, helper copied in) when
 * podman is installed. Three requests: `version` (pure overhead),
 * `build_graph` of one small Python file, and `execute_plan` of a one-step
 * `replace_node` plan on it (the edit, L0–L6, journal and write), whose
 * replacement alternates so each call really changes the file.
 *
 *     deno run -A tests/bench/helper_overhead.ts [--runs N]
 *
 * @module
 */

import { join } from "node:path";
import { parseArgs } from "node:util";
import { ContainerEnvironment, type Environment, LocalEnvironment } from "../../agent/env/mod.ts";
import { deployHelper, type HelperLaunch, helperLaunch } from "../../agent/common/mod.ts";
import { shellQuote } from "../../agent/env/shell_quote.ts";
import { buildMinimalImage } from "../../tools/minimal_image.ts";
import type { BenchContext, BenchSection } from "./context.ts";
import { type BenchRow, round, spread, summarize } from "./stats.ts";

const SMALL_PY = `import os


class Inventory:
    def __init__(self):
        self.items = {}

    def add(self, name, count=1):
        if count <= 0:
            raise ValueError("count must be positive")
        self.items[name] = self.items.get(name, 0) + count
        return self.items[name]


def home():
    return os.environ.get("HOME", "/")
`;

const ADD = `def add(self, name, count=1):
        if count <= 0:
            raise ValueError("count must be positive")
        self.items[name] = self.items.get(name, 0) + count
        return self.items[name]`;

/** A one-step plan replacing `Inventory.add`: even calls change its body, odd calls put it back. */
function togglePlan(call: number): Record<string, unknown> {
  const replacement = call % 2 === 0 ? ADD.replace("+ count\n", "+ int(count)\n") : ADD;
  return {
    plan: [{
      op: "replace_node",
      params: {
        locator: {
          file: "inventory.py",
          kind: "method",
          name: "add",
          parent: { kind: "class", name: "Inventory" },
        },
        replacement,
      },
    }],
  };
}

/** The requests timed; `params` gets the request's call number (0 for the warm-up). */
const REQUESTS: { method: string; params: (call: number) => Record<string, unknown> }[] = [
  { method: "version", params: () => ({}) },
  { method: "build_graph", params: () => ({ files: ["inventory.py"] }) },
  // A real edit each time (replace_node + L0-L6 + journal + atomic write), alternating two bodies.
  { method: "execute_plan", params: togglePlan },
];

/** Fail unless an `execute_plan` result says `success` (a failed step would time the wrong thing). */
function checkResult(method: string, result: unknown, where: string): void {
  if (method !== "execute_plan") return;
  const success = typeof result === "string"
    ? /"success":\s*true/.test(result)
    : (result as { success?: boolean } | null)?.success === true;
  if (!success) {
    throw new Error(`execute_plan did not succeed in ${where}: ${JSON.stringify(result).slice(0, 500)}`);
  }
}

/** Options of {@linkcode helperOverhead}. */
export interface HelperOverheadOptions {
  /** Timed requests per figure (default 10). */
  runs?: number;
  /** The bundle for the local helper (default: run from the sources). */
  bundle?: string;
  /** Measure in a podman container too (default: when podman is installed). */
  podman?: boolean;
}

async function measure(
  env: Environment,
  launch: HelperLaunch,
  where: string,
  runs: number,
): Promise<BenchRow[]> {
  const section = "helper_overhead";
  const rows: BenchRow[] = [];
  const { helper } = await deployHelper(env, { launch: { ...launch, copies: [] } });
  try {
    for (const request of REQUESTS) {
      let call = 0;
      // Warm-up: parse once, as a run would.
      checkResult(request.method, await helper.call(request.method, request.params(call++)), where);
      const session: number[] = [];
      for (let i = 0; i < runs; i++) {
        const params = request.params(call++);
        const start = performance.now();
        const result = await helper.call(request.method, params);
        session.push(performance.now() - start);
        checkResult(request.method, result, where);
      }
      const fresh: number[] = [];
      const argv = launch.argv.map(shellQuote).join(" ");
      for (let i = 0; i < runs; i++) {
        const params = shellQuote(JSON.stringify(request.params(call++)));
        const start = performance.now();
        const result = await env.execute(
          `printf '%s' ${params} | ${argv} ${request.method} --repo ${shellQuote(env.cwd)}`,
          { env: launch.env, timeout: 120 },
        );
        fresh.push(performance.now() - start);
        if (result.returncode !== 0) throw new Error(`Fresh helper failed in ${where}: ${result.output}`);
        checkResult(request.method, result.output, where);
      }
      const s = summarize(session);
      const f = summarize(fresh);
      rows.push(
        {
          section,
          metric: `${request.method} via --serve session (${where})`,
          value: round(s.median),
          unit: "ms",
          note: spread(s),
        },
        {
          section,
          metric: `${request.method} via fresh exec (${where})`,
          value: round(f.median),
          unit: "ms",
          note: spread(f),
        },
        {
          section,
          metric: `${request.method} fresh exec / session (${where})`,
          value: round(f.median / s.median),
          unit: "x",
        },
      );
    }
  } finally {
    await helper.close();
  }
  return rows;
}

function hasPodman(): boolean {
  try {
    return new Deno.Command("bash", { args: ["-c", "type -P podman"], stdout: "null", stderr: "null" })
      .outputSync().success;
  } catch {
    return false;
  }
}

/** Measure the per-request overhead; returns the figures as bench rows. */
export async function helperOverhead(options: HelperOverheadOptions = {}): Promise<BenchRow[]> {
  const runs = options.runs ?? 10;
  const rows: BenchRow[] = [];
  const repo = await Deno.makeTempDir({ prefix: "gp_bench_helper_" });
  try {
    await Deno.writeTextFile(join(repo, "inventory.py"), SMALL_PY);
    const local = new LocalEnvironment({ cwd: repo });
    try {
      rows.push(
        ...await measure(local, await helperLaunch("local", { bundle: options.bundle }), "local", runs),
      );
    } finally {
      await local.close();
    }
    const podman = options.podman ?? hasPodman();
    if (!podman) {
      rows.push({
        section: "helper_overhead",
        metric: "podman container",
        value: null,
        unit: "ms",
        note: "podman is not installed",
      });
      return rows;
    }
    if (!Deno.env.get("CONTAINERS_CONF")) {
      try {
        const conf = new URL("../../../shared/env/containers.conf", import.meta.url).pathname;
        Deno.statSync(conf);
        Deno.env.set("CONTAINERS_CONF", conf);
      } catch {
        // podman's defaults
      }
    }
    const image = `localhost/graphplan-bench-${crypto.randomUUID().slice(0, 8)}:latest`;
    await buildMinimalImage(image, { cli: "podman" });
    let env: ContainerEnvironment | undefined;
    try {
      env = await ContainerEnvironment.start({
        type: "podman",
        image,
        cwd: "/repo",
        run_args: ["--network", "none"],
      });
      await env.copyIn(join(repo, "inventory.py"), "/repo/inventory.py");
      const launch = await helperLaunch("podman");
      await deployHelper(env, { launch }).then(({ helper }) => helper.close());
      rows.push(...await measure(env, launch, "podman", runs));
    } finally {
      await env?.close();
      await new Deno.Command("podman", { args: ["rmi", "-f", image], stdout: "null", stderr: "null" })
        .output();
    }
  } finally {
    await Deno.remove(repo, { recursive: true }).catch(() => {});
  }
  return rows;
}

/** The `helper_overhead` section for tests/bench/run.ts. */
export const helperOverheadSection: BenchSection = {
  name: "helper_overhead",
  description: "per-request cost of the helper over the --serve session vs a fresh exec (local, podman)",
  async run(ctx: BenchContext): Promise<BenchRow[]> {
    return await helperOverhead({ runs: ctx.runs, bundle: await ctx.bundle() });
  },
};

if (import.meta.main) {
  const { values } = parseArgs({ args: Deno.args, options: { runs: { type: "string" } } });
  const rows = await helperOverhead({ runs: values.runs ? Number(values.runs) : undefined });
  const width = Math.max(...rows.map((row) => row.metric.length));
  for (const row of rows) {
    console.log(
      `${row.metric.padEnd(width)}  ${String(row.value ?? "-").padStart(8)} ${row.unit}  ${row.note ?? ""}`,
    );
  }
}
