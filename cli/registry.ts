/**
 * The subcommands of `graphplan`, by name, in the order `--help` lists them.
 * Each is loaded on demand, so `graphplan graph` never pays for the plan
 * schema or the agent.
 *
 * @module
 */

import type { Command } from "./command.ts";

/** A command's name and summary, and how to load it. */
export interface CommandEntry {
  name: string;
  summary: string;
  load: () => Promise<Command>;
}

/** Every command the CLI offers. */
export const COMMANDS: CommandEntry[] = [
  {
    name: "graph",
    summary: "Print the code graph (symbols, imports, line kinds) of files",
    load: async () => (await import("./graph.ts")).default,
  },
  {
    name: "locate",
    summary: "Print the AST nodes a locator matches",
    load: async () => (await import("./locate.ts")).default,
  },
  {
    name: "verify",
    summary: "Verify an edit plan in memory (layers 0-6, levels L0-L6); write nothing",
    load: async () => (await import("./verify.ts")).default,
  },
  {
    name: "apply",
    summary: "Execute an edit plan as one transaction (or --dry-run for the diff)",
    load: async () => (await import("./apply.ts")).default,
  },
  {
    name: "rollback",
    summary: "Restore the files of an interrupted or failed plan from the journal",
    load: async () => (await import("./rollback.ts")).default,
  },
  {
    name: "lift",
    summary: "Turn a unified diff or SEARCH/REPLACE blocks into a verified structural plan; write nothing",
    load: async () => (await import("./lift.ts")).default,
  },
  {
    name: "schema",
    summary: "Print the JSON Schema of edit plans",
    load: async () => (await import("./schema.ts")).default,
  },
  {
    name: "run",
    summary: "Run the GraphPlan agent on a task (repository + text, or a SWE-bench instance)",
    load: async () => (await import("./run.ts")).default,
  },
  {
    name: "inspect",
    summary: "Write one self-contained HTML page for a trajectory, a run or a batch",
    load: async () => (await import("./inspect.ts")).default,
  },
  {
    name: "batch",
    summary: "Run the agent on a batch of SWE-bench instances (workers, resume, cost cap)",
    load: async () => (await import("./batch.ts")).default,
  },
  {
    name: "merge-preds",
    summary: "Merge the predictions of several batch outputs (shards) into one",
    load: async () => (await import("./merge_preds.ts")).default,
  },
  {
    name: "slurm",
    summary: "Write (and with --submit, sbatch) a Slurm job array running a batch as shards",
    load: async () => (await import("./slurm.ts")).default,
  },
  {
    name: "k8s",
    summary: "Print a Kubernetes Indexed Job manifest running a batch as shards",
    load: async () => (await import("./k8s.ts")).default,
  },
  {
    name: "gate",
    summary: "Check a patch for test weakening (skips, removed or loosened assertions, test config)",
    load: async () => (await import("./gate.ts")).default,
  },
  {
    name: "catalog",
    summary: "Print the operator catalog the model sees (templates, surgery, fragments, primitives)",
    load: async () => (await import("./catalog.ts")).default,
  },
  {
    name: "helper",
    summary: "Run the in-container helper: one request, or a --serve session",
    load: async () => (await import("./helper.ts")).default,
  },
];
