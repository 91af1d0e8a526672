/**
 * The page of one trajectory: the task, the phase timeline (fallback point
 * and reason marked, time and cost per phase), each plan attempt with its
 * steps (tier, operator, target in words) and the issues of verification
 * and execution attached to the step they name, the rollback, the final
 * patch as a coloured diff, model stats, the gate when recorded, and every
 * message, collapsible, with its tool calls and their output. A strategy
 * that draws its own part (its `inspectSection` hook, found by the recorded
 * `config.agent.strategy` through `sectionOf`) shows it instead of phases
 * and plans: the rfsn strategy its steps (`agent/rfsn/inspect_page.ts`).
 *
 * @module
 */

import type { Issue } from "../../../engine/base/issue.ts";
import { cappedPre, cutNote, firstLine, SHOWN_CHARS } from "./cap.ts";
import { diffView } from "./diff_view.ts";
import { type Html, html } from "./escape.ts";
import { dollars, duration, furthestPhase, PHASE_MACHINE } from "./format.ts";
import { expandButtons, page, tone } from "./page.ts";
import {
  type CheckView,
  type Dict,
  type MessageView,
  type PhaseView,
  type PlanView,
  readIssues,
  type TrajectoryView,
} from "./trajectory_view.ts";

/** The most characters of the final patch shown (a patch is read whole more often than a message). */
const PATCH_SHOWN = 10 * SHOWN_CHARS;

function machine(view: TrajectoryView): Html {
  const reached = furthestPhase(view.phases.map((phase) => phase.name));
  const fell = view.fallback
    ? PHASE_MACHINE.indexOf(view.fallback.point as typeof PHASE_MACHINE[number])
    : -1;
  return html`<div class="machine" aria-label="phase machine">${
    PHASE_MACHINE.map((name, i) =>
      html`<span class="${i === fell ? "fell" : i <= reached ? "reached" : ""}">${name.toUpperCase()}</span>`
    )
  }${view.fallback ? html`<span class="fell">FALLBACK</span>` : ""}</div>`;
}

function timeline(view: TrajectoryView): Html {
  const chips = view.phases.map((phase, i) => {
    const meta = [phase.status, duration(phase.seconds)].filter(Boolean).join(" · ");
    return html`
      ${i > 0 ? html`<span class="arrow">→</span>` : ""}<div class="ph ${tone(
        phase.status,
      )} ${phase.name === "fallback" ? "fallback" : ""}"
        data-phase="${phase.name}"><div class="name">${phase.name.toUpperCase()}${phase.attempt !== undefined
          ? ` #${phase.attempt}`
          : ""}</div><div class="meta">${meta}</div>${phaseNote(phase)}</div>
    `;
  });
  return html`<div class="timeline">${chips}</div>`;
}

/**
 * Model steps and cost by phase: the messages carry the phase they were
 * made in (`explore`, `plan`, `submit`, `fallback`), not the attempt, so the
 * attempts of a phase are counted together.
 */
function usageTable(view: TrajectoryView): Html | string {
  const entries = Object.entries(view.usage);
  if (entries.length === 0) return "";
  return html`
    <table class="usage" id="usage">
      <thead>
        <tr>
          <th>phase</th>
          <th class="num">model steps</th>
          <th class="num">cost</th>
        </tr>
      </thead>
      <tbody>${entries.map(([name, usage]) =>
        html`
          <tr data-phase="${name}">
            <td>${name}</td>
            <td class="num">${usage.steps}</td>
            <td class="num">${dollars(usage.cost)}</td>
          </tr>
        `
      )}</tbody>
    </table>
  `;
}

function phaseNote(phase: PhaseView): Html | string {
  const d = phase.details;
  const parts: string[] = [];
  if (Array.isArray(d.files)) parts.push(d.files.join(", "));
  if (typeof d.symbols === "number") parts.push(`${d.symbols} symbols`);
  if (typeof d.point === "string") parts.push(`from ${d.point}`);
  if (typeof d.error === "string") parts.push(d.error);
  return parts.length ? html`<div class="meta">${parts.join(" · ")}</div>` : "";
}

function issueBlock(issue: Issue): Html {
  const tag = issue.level ?? (issue.layer !== undefined ? `layer ${issue.layer}` : undefined);
  const where = issue.file ? `${issue.file}${issue.line ? `:${issue.line}` : ""}` : "";
  return html`
    <div class="issue ${issue.severity}"
      data-code="${issue.code}"><span class="badge ${issue.severity === "error"
        ? "st-bad"
        : "st-warn"}">${issue.severity}</span> <span class="code">${issue.code}</span>${tag
        ? html`
          <span class="badge">${tag}</span>
        `
        : ""}${where
        ? html`
          <code>${where}</code>
        `
        : ""}${issue.step !== undefined
        ? html`
          <span class="muted">step ${issue.step}</span>
        `
        : ""}
    <div>${issue.message}</div>${issue.hint
      ? html`<div class="hint">hint: ${issue.hint}</div>`
      : ""}${(issue.candidates ?? []).length
      ? html`<ul>${
        (issue.candidates ?? []).map((c) =>
          html`<li><code>${c.file ? `${c.file}:` : ""}${c.line}</code> ${c.kind}: <code>${c.text}</code></li>`
        )
      }</ul>`
      : ""}</div>
  `;
}

function checkSummary(label: string, result: CheckView | undefined): Html | string {
  if (!result) return "";
  const counts = `${result.errors.length} error${
    result.errors.length === 1 ? "" : "s"
  }, ${result.warnings.length} warning${result.warnings.length === 1 ? "" : "s"}`;
  return html`<div><b>${label}:</b> <span class="badge ${tone(result.status)}">${result.status}</span>${
    result.method
      ? html`
        <span class="muted">(${result.method})</span>
      `
      : ""
  } ${counts}${result.failedStep !== undefined ? html`; failed at step ${result.failedStep}` : ""}${
    result.filesChanged?.length ? html`; files changed: <code>${result.filesChanged.join(", ")}</code>` : ""
  }</div>`;
}

function rollback(plan: PlanView): Html | string {
  const exec = plan.execute;
  if (!exec || exec.status === "done") return "";
  const recovery = exec.recovery;
  const restored = Array.isArray(recovery?.restored) ? (recovery.restored as unknown[]).map(String) : [];
  const text = exec.status === "rolled_back"
    ? recovery
      ? `Rolled back by a separate rollback request${
        restored.length ? `: restored ${restored.join(", ")}` : ""
      }.`
      : "Rolled back: every file the plan touched was restored by its transaction."
    : exec.status === "not_restored"
    ? "NOT restored: the repository may hold part of this plan."
    : `Execution ended "${exec.status}".`;
  return html`<div class="callout ${
    exec.status === "not_restored" ? "bad" : ""
  }"><b>Rollback.</b> ${text}</div>`;
}

function planSection(plan: PlanView): Html {
  const origin = [
    plan.origin,
    plan.source ? `from ${plan.source}` : "",
    plan.nudges ? `${plan.nudges} reminder(s)` : "",
  ]
    .filter(Boolean).join(", ");
  const rows = plan.steps.map((step) =>
    html`
      <tr data-step="${step.index}">
        <td class="num">${step.index}</td>
        <td><span class="tier tier-${step.tier}" title="tier ${step.tier}">${step.tier}</span></td>
        <td><code>${step.operator}</code></td>
        <td>${step.target}</td>
        <td>${step.issues.length
          ? step.issues.map(issueBlock)
          : plan.verify
          ? html`<span class="muted">no issue</span>`
          : ""}<details><summary class="muted">step JSON</summary><div class="body"><pre>${JSON.stringify(
            step.raw,
            null,
            2,
          )}</pre></div></details></td>
      </tr>
    `
  );
  return html`
    <details open class="plan" data-attempt="${plan.attempt}">
      <summary><b>Plan attempt ${plan.attempt}</b> <span class="badge ${tone(plan.status)}">${plan
        .status}</span> <span class="muted">${plan.steps.length} step${plan.steps.length === 1
        ? ""
        : "s"}${origin ? ` · ${origin}` : ""}</span></summary>
      <div class="body">
    ${plan.steps.length
      ? html`
        <table>
          <thead>
            <tr>
              <th class="num">step</th>
              <th>tier</th>
              <th>operator</th>
              <th>target</th>
              <th>issues</th>
            </tr>
          </thead>
          <tbody>${rows}</tbody>
        </table>
      `
      : html`<p class="muted">No plan steps were recorded for this attempt.</p>`}
    ${plan.lift ? liftNote(plan.lift) : ""}
    ${checkSummary("Verification", plan.verify)}
    ${checkSummary("Execution", plan.execute)}
    ${plan.planIssues.length ? html`<h3>Plan-level issues</h3>${plan.planIssues.map(issueBlock)}` : ""}
    ${rollback(plan)}
      </div>
    </details>
  `;
}

function liftNote(lift: Record<string, unknown>): Html {
  const hunks = Array.isArray(lift.hunks) ? lift.hunks.length : 0;
  return html`<div><b>Lift:</b> <span class="badge ${tone(String(lift.status))}">${
    String(lift.status)
  }</span> ${hunks} hunk${hunks === 1 ? "" : "s"}${
    lift.exact === true ? ", replay byte-exact" : lift.exact === false ? ", replay not exact" : ""
  }</div>`;
}

function lineCount(text: string): number {
  let lines = 1;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) lines++;
  return lines;
}

function messageBlock(message: MessageView, source?: string): Html {
  const summary = message.calls.length ? firstLine(message.calls[0].command) : firstLine(message.content);
  const open = message.role === "assistant";
  const field = (name: string) => ({ source, field: `messages[${message.index}].${name}` });
  const missing = message.missing.map((name) =>
    html`
      <span class="badge st-bad missing">${name} missing</span>
    `
  );
  return html`
    <details class="msg" data-role="${message.role}" ${open ? html`open` : ""}>
      <summary><span class="role role-${message.role}">${message.role}</span> <span class="muted">#${message
        .index}${message.phase ? ` · ${message.phase}` : ""}${message.cost
        ? ` · ${dollars(message.cost)}`
        : ""}</span>${missing} ${summary}</summary>
      <div class="body">${message.content.trim() ? cappedPre(message.content, field("content")) : ""}${message
        .calls
        .map((call, k) => {
          const lines = call.output === undefined ? 0 : lineCount(call.output);
          return html`
            <div
              class="call"><div class="muted">tool call <code>${call.id}</code></div>${cappedPre(
                call.command,
                field(`tool_calls[${k}]`),
              )}${call.output !== undefined
                ? html`
                  <details class="out" ${lines <= 40
                    ? html`
                      open
                    `
                    : ""}>
                    <summary class="muted">output (${lines} lines)</summary>
                    <div class="body">
                      ${cappedPre(call.output, { source, field: `messages[${call.outputIndex}].content` })}
                    </div>
                  </details>
                `
                : html`<div class="muted">no output recorded</div>`}</div>
          `;
        })}</div>
    </details>
  `;
}

/**
 * The error of a run: its first line as a sentence; the rest (a stack trace
 * of a bug, recorded by older versions for any error) behind a fold.
 */
function errorBlock(error: string, source?: string): Html {
  const [first, ...rest] = error.split("\n");
  const more = rest.join("\n").trim();
  return html`<div class="callout bad" id="error"><b>Error:</b> ${first.slice(0, 2000)}${
    more
      ? html`<details class="trace"><summary class="muted">details</summary>${
        cappedPre(more, { source, field: "info.error" })
      }</details>`
      : ""
  }</div>`;
}

function statsList(stats: Record<string, unknown>, view: TrajectoryView): Html {
  const entries: [string, string][] = [];
  if (view.modelName) entries.push(["model", view.modelName]);
  for (const [key, value] of Object.entries(stats)) {
    entries.push([key, key === "cost" && typeof value === "number" ? dollars(value) : String(value)]);
  }
  if (view.wallSeconds !== undefined) entries.push(["wall time", duration(view.wallSeconds)]);
  return html`<dl class="kv">${
    entries.map(([k, v]) =>
      html`
        <dt>${k}</dt>
        <dd>${v}</dd>
      `
    )
  }</dl>`;
}

function gateSection(gate: Record<string, unknown>): Html {
  const list = readIssues;
  const verdict = typeof gate.skipped === "string"
    ? `skipped: ${gate.skipped}`
    : gate.refused
    ? "refused"
    : gate.admissible === false
    ? "not admissible (reported)"
    : "admissible";
  return html`
    <section class="card"
      id="gate"><h2>Gate</h2><p><span class="badge ${verdict === "admissible"
        ? "st-ok"
        : verdict.startsWith("skipped")
        ? ""
        : "st-bad"}">${verdict}</span></p>${[...list(gate.errors), ...list(gate.warnings)].map(
          issueBlock,
        )}</section>
  `;
}

/** The GraphPlan strategy's phases and plan attempts. */
/** The section the recorded strategy draws itself, if it has one and `sectionOf` is given. */
function ownSection(view: TrajectoryView, sectionOf: SectionOf | undefined): Html | undefined {
  if (!view.strategy || !sectionOf) return undefined;
  return sectionOf(view.strategy)?.(view.info, view.exitStatus);
}

function graphplanSections(view: TrajectoryView): Html {
  return html`
    <section class="card" id="phases"><h2>Phases</h2>${machine(view)}${timeline(view)}${usageTable(view)}
    ${view.fallback
      ? html`<div class="callout"><b>Fallback at ${view.fallback.point}:</b> ${view.fallback.reason}</div>`
      : ""}</section>
    <section class="card" id="plans"><h2>Plans</h2>${view.plans.length
      ? view.plans.map(planSection)
      : html`<p class="muted">No plan was written.</p>`}</section>
  `;
}

/**
 * A strategy's own part of a trajectory page from the run's recorded `info`
 * and exit status (a strategy's `inspectSection` hook), or undefined to show
 * the phases and plans.
 */
export type OwnSection = (info: Dict, exitStatus: string) => Html | undefined;

/** How a page finds the section of the strategy a trajectory names (`agent/strategies.ts`'s `inspectSectionOf`). */
export type SectionOf = (strategy: string) => OwnSection | undefined;

/**
 * The page of a trajectory: the recorded strategy's own section when
 * `sectionOf` gives one (rfsn: its steps), else the phases and plans;
 * `backLink` (a relative URL) leads back to a batch page.
 */
export function trajectoryPage(
  view: TrajectoryView,
  options: { backLink?: string; source?: string; sectionOf?: SectionOf } = {},
): string {
  const { source } = options;
  const visible = view.messages.filter((message) => !message.folded);
  const body = html`
    ${options.backLink ? html`<p><a href="${options.backLink}">← back to the batch</a></p>` : ""}
    <section class="card" id="summary"><h2>Outcome</h2>
    <p><span class="badge ${tone(view.exitStatus)}" id="exit-status">${view.exitStatus}</span>${view.fallback
      ? html`
        <span class="muted">after falling back at ${view.fallback.point}</span>
      `
      : ""}</p>
    ${view.missing.length
      ? html`
        <div class="callout bad"
          id="missing"><b>Not in this trajectory:</b> ${view.missing.map((name) =>
            html`
              <code>${name}</code>
            `
          )}(shown as missing or empty below)</div>
      `
      : ""}
    ${view.error ? errorBlock(view.error, source) : ""}
    ${statsList(view.modelStats, view)}</section>
    <section class="card" id="task">
      <h2>Task</h2>
      ${view.task
        ? cappedPre(view.task, { source, field: "info.task" })
        : html`<p class="muted">No task recorded.</p>`}
    </section>
    ${ownSection(view, options.sectionOf) ?? graphplanSections(view)}
    <section class="card" id="patch"><h2>Final patch</h2>${diffView(
      view.submission.slice(0, PATCH_SHOWN),
    )}${view.submission.length > PATCH_SHOWN
      ? cutNote(view.submission.length, PATCH_SHOWN, { source, field: "info.submission" })
      : ""}${view.patchCheck && Array.isArray(view.patchCheck.problems) && view.patchCheck.problems.length
      ? html`<div class="callout">Patch check: ${
        (view.patchCheck.problems as unknown[]).map(String).join("; ")
      }</div>`
      : ""}</section>
    ${view.gate ? gateSection(view.gate) : ""}
    <section class="card" id="messages"><h2>Messages <span class="muted">(${view.messages.length})</span></h2>
    ${expandButtons("messages")}${visible.map((message) => messageBlock(message, source))}</section>
  `;
  const subtitle = [
    `exit status ${view.exitStatus}`,
    view.modelName,
    view.startedAt ? `started ${view.startedAt}` : "",
    `trajectory ${view.format}`,
  ].filter(Boolean).join(" · ");
  return page(`Trajectory ${view.instanceId}`, subtitle, body);
}
