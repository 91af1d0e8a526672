/**
 * Shared pieces of the end-to-end tests: a git copy of the sample project,
 * the `graphplan run` CLI as a subprocess, and OpenAI-style replies that
 * call the bash tool.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { openaiReply, type Reply } from "../agent/model/_fake_llm.ts";

export { fakeServer, openaiReply, type Reply } from "../agent/model/_fake_llm.ts";

/** The checkout root. */
export const ROOT = new URL("../../", import.meta.url).pathname.replace(/\/$/, "");
/** The sample project (never modified: tests work on copies). */
export const SAMPLE = join(ROOT, "tests/fixtures/sample_project");
/**
 * The submit command older prompts asked for: with a baseline (every
 * `graphplan run`) it is not run, its marker submits the computed patch.
 */
export const SUBMIT = "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git add -A && git diff --cached";
/** The task of the sample project. */
export const TASK = "OrderService.order_total raises TypeError for a customer whose discount is None.";
/** The fixed line. */
export const FIX = 'discount = order.customer.discount or Decimal("0")';

/** Whether python3 runs (the project's unit tests are the oracle of the fix). */
export const PYTHON = (() => {
  try {
    return new Deno.Command("python3", { args: ["--version"], stdout: "null", stderr: "null" }).outputSync()
      .success;
  } catch {
    return false;
  }
})();

/** Run `argv` in `cwd` (with `env` added to this process's); its exit code and output. */
export async function runCommand(argv: string[], cwd: string, env?: Record<string, string>) {
  const out = await new Deno.Command(argv[0], {
    args: argv.slice(1),
    cwd,
    env,
    stdout: "piped",
    stderr: "piped",
  })
    .output();
  const decoder = new TextDecoder();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

/** podman's environment: the shared containers.conf (runc, ulimits) when the machine has it and none is set. */
export function podmanEnv(): Record<string, string> {
  const conf = new URL("../../../shared/env/containers.conf", import.meta.url).pathname;
  if (Deno.env.get("CONTAINERS_CONF")) return {};
  try {
    Deno.statSync(conf);
    return { CONTAINERS_CONF: conf };
  } catch {
    return {};
  }
}

/** `git` in `dir` with a fixed identity; asserts success. */
export async function git(dir: string, ...args: string[]): Promise<string> {
  const out = await runCommand(["git", "-c", "user.email=t@example.com", "-c", "user.name=t", ...args], dir);
  assert.equal(out.code, 0, out.stderr);
  return out.stdout;
}

/** A scratch directory with a committed copy of the sample project in `repo`. */
export async function sampleRepo(): Promise<{
  root: string;
  repo: string;
  out: string;
  planPath: string;
  cleanup: () => Promise<void>;
}> {
  const root = await Deno.makeTempDir({ prefix: "gp_e2e_" });
  const repo = join(root, "sample_project");
  const copied = await runCommand(["cp", "-a", SAMPLE, repo], root);
  assert.equal(copied.code, 0, copied.stderr);
  await git(repo, "init", "-q");
  await git(repo, "add", "-A");
  await git(repo, "commit", "-q", "-m", "init");
  return {
    root,
    repo,
    out: join(root, "out"),
    planPath: join(root, "edit_plan.json"),
    cleanup: () => Deno.remove(root, { recursive: true }),
  };
}

/** The demo's task and scripted model (config/demo): a run that fixes the sample project without a server. */
export const DEMO_TASK = [
  "--task-file",
  join(ROOT, "config/demo/task.md"),
  "-c",
  "model.name=scripted/demo",
  "-c",
  `model.script=${join(ROOT, "config/demo/scripted_run.yaml")}`,
];

/** The `deno` arguments that run `graphplan ARGS` from the sources. */
export function graphplanArgs(args: string[]): string[] {
  return ["run", "-A", "--config", join(ROOT, "deno.json"), join(ROOT, "main.ts"), ...args];
}

/** The `deno` arguments that run `graphplan run ARGS` from the sources. */
export function graphplanRunArgs(args: string[]): string[] {
  return graphplanArgs(["run", ...args]);
}

/** `graphplan ARGS` from the sources, as a subprocess. */
export function graphplan(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}) {
  return runCommand([Deno.execPath(), ...graphplanArgs(args)], options.cwd ?? ROOT, options.env);
}

/** `graphplan run ARGS` from the sources, as a subprocess. */
export function graphplanRun(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}) {
  return graphplan(["run", ...args], options);
}

/** An OpenAI reply calling bash with `command`. */
export function bash(
  command: string,
  content = "",
  usage?: { prompt_tokens: number; completion_tokens: number },
): Reply {
  return openaiReply(content, [{ arguments: JSON.stringify({ command }) }], usage);
}

/** The plan that fixes the sample project. */
export function fixPlan(): unknown[] {
  return [{
    op: "replace_node",
    params: {
      locator: {
        file: "app/service.py",
        kind: "method",
        name: "order_total",
        parent: { kind: "class", name: "OrderService" },
      },
      replacement: [
        "def order_total(self, order_id: int) -> Decimal:",
        '    """The amount to charge: subtotal, minus the customer\'s discount, plus tax."""',
        "    order = self.get(order_id)",
        `    ${FIX}`,
        "    discounted = order.subtotal() * (1 - discount)",
        "    return _round(discounted * (1 + TAX_RATE))",
      ].join("\n"),
    },
  }];
}

/** The command that writes `plan` to `path` the way the prompt asks. */
export function writePlan(path: string, plan: unknown): string {
  return `cat > ${path} << 'PLAN_EOF'\n${JSON.stringify(plan, null, 2)}\nPLAN_EOF`;
}

/** The sed command that fixes the sample project without a plan (the fallback's way). */
export const SED_FIX = `sed -i 's/discount = order.customer.discount$/${FIX}/' app/service.py`;

/** Run the sample project's unit tests in `repo`: true when they pass. */
export async function unitTestsPass(repo: string): Promise<boolean> {
  const out = await runCommand(["python3", "-m", "unittest", "tests/test_service.py"], repo);
  return out.code === 0;
}

/** Read a JSON file. */
export async function readJson<T = Record<string, unknown>>(path: string): Promise<T> {
  return JSON.parse(await Deno.readTextFile(path));
}
