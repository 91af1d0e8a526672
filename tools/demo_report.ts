/**
 * What the demo shows about the plan: the plan the model wrote, in full and
 * pretty-printed (the progress line only shows the first line of the
 * command that wrote it), and what verification said about it, read from
 * the run's trajectory. Every plan attempt is shown, so a revised plan
 * appears after the one that failed.
 *
 * @module
 */

import { formatIssue, type Issue } from "../engine/base/issue.ts";
import type { PhaseRecord } from "../agent/trajectory/mod.ts";

/** The plan attempts of a run's phases, each with its verification, as lines of text. */
export function planReport(phases: readonly PhaseRecord[]): string[] {
  const lines: string[] = [];
  const plans = phases.filter((phase) => phase.name === "plan" && phase.plan !== undefined);
  if (plans.length === 0) return ["demo: the model wrote no plan"];
  for (const plan of plans) {
    const attempt = plan.attempt ?? plans.indexOf(plan) + 1;
    lines.push(`demo: the plan of attempt ${attempt} (from the ${plan.source ?? "file"}):`);
    lines.push(JSON.stringify(plan.plan, null, 2));
    const verify = phases.find((phase) => phase.name === "verify" && phase.attempt === plan.attempt);
    if (!verify) {
      lines.push("demo: it was not verified");
      continue;
    }
    const errors = (verify.errors ?? []) as Issue[];
    const warnings = (verify.warnings ?? []) as Issue[];
    lines.push(
      `demo: verification ${verify.status} (${verify.method ?? "verify_plan"}): ${count(errors, "error")}, ${
        count(warnings, "warning")
      }`,
    );
    for (const issue of [...errors, ...warnings]) lines.push(formatIssue(issue));
  }
  return lines;
}

function count(list: readonly unknown[], word: string): string {
  return `${list.length} ${word}${list.length === 1 ? "" : "s"}`;
}
