/**
 * `graphplan graph` runs without Deno's Node compatibility layer, in the main
 * thread and in its pool workers: nothing on its way reads the global
 * `process` (which starts the layer: 7–30 ms at every start, depending on
 * the machine). The spy (tests/_support/process_spy_main.ts) reports every
 * read; a command that does need Node shows that it sees them.
 */

import assert from "node:assert/strict";
import { POOL_DEBUG_ENV } from "../../engine/graph/pool.ts";
import { slow } from "../_support/quick.ts";

const SLOW = slow("tests that start processes (the CLI, a helper, pytest, podman, the bundle)");

const SPY = new URL("../_support/process_spy_main.ts", import.meta.url).pathname;

async function spied(
  args: string[],
  cwd?: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", SPY, ...args],
    cwd,
    env: { [POOL_DEBUG_ENV]: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder();
  return { code: out.code, stdout: text.decode(out.stdout), stderr: text.decode(out.stderr) };
}

/** A module of a realistic shape: imports, a class with methods, functions, control flow. */
function pythonModule(n: number): string {
  const methods = Array.from({ length: 12 }, (_, m) => `
    def handle_${m}(self, request, *, retries=${m}):
        """Handle request kind ${m}."""
        for attempt in range(retries + 1):
            try:
                response = self.session.send(request, timeout=self.timeout)
            except ConnectionError as exc:
                log.warning("attempt %d failed: %s", attempt, exc)
                continue
            if response.status_code == ${200 + m}:
                return response.json()
        raise RuntimeError("gave up on kind ${m}")
`).join("");
  return `"""Client module ${n}."""
import logging
from collections import defaultdict
from .base import BaseClient, Session as _Session

log = logging.getLogger(__name__)


class Client${n}(BaseClient):
    timeout = ${n % 30 + 1}

    def __init__(self, session=None):
        self.session = session or _Session()
        self.cache = defaultdict(list)
${methods}

def make_client_${n}(**options):
    client = Client${n}(**options)
    return client
`;
}

Deno.test(
  "graph reads no `process`, in-process and with a pool worker; a command that needs Node does",
  SLOW,
  async () => {
    const dir = await Deno.makeTempDir({ prefix: "graphplan-node-compat-" });
    try {
      let bytes = 0;
      for (let n = 0; n < 200; n++) {
        const text = pythonModule(n);
        bytes += text.length;
        await Deno.writeTextFile(`${dir}/client_${n}.py`, text);
      }
      assert.ok(bytes > 1.1 * 1024 * 1024, `${bytes} bytes: enough for the pool`);

      const small = await spied(["graph", "--repo", dir, "--json", "client_0.py"]);
      assert.equal(small.code, 0, small.stderr);
      assert.doesNotMatch(small.stderr, /process-read:/);
      assert.ok(JSON.parse(small.stdout).symbols.some((s: { name: string }) => s.name === "Client0"));

      const pooled = await spied(["graph", "--repo", dir, "--json", "--workers", "1", "."]);
      assert.equal(pooled.code, 0, pooled.stderr);
      assert.doesNotMatch(pooled.stderr, /process-read:/);
      const report = /graphplan pool: graphText: (\{.*\})/.exec(pooled.stderr);
      assert.ok(report, pooled.stderr);
      assert.ok(JSON.parse(report[1]).helped > 0, `the worker graphed files: ${report[1]}`);
      const graph = JSON.parse(pooled.stdout);
      assert.equal(new Set(graph.symbols.map((s: { file: string }) => s.file)).size, 200);
      assert.equal(graph.symbols.filter((s: { name: string }) => s.name === "handle_11").length, 200);

      // The spy sees reads: `run --help` loads the yaml package, which requires node:process.
      const help = await spied(["run", "--help"]);
      assert.equal(help.code, 0, help.stderr);
      assert.match(help.stderr, /process-read:/);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);
