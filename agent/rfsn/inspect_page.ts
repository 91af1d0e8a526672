/**
 * The rfsn part of a trajectory page (`info.rfsn` of `graphplan run
 * --strategy rfsn`), drawn instead of the phases and plans through the
 * strategy's `inspectSection` hook (`strategy.ts`): how the run ended (with the `explain_stuck` reason), the
 * phase timeline with the reason of every transition, and each step: the
 * proposal (intent, hypothesis, target, action), the gate's verdict, the
 * feedback (an excerpt of the output; a test command that could not run is
 * marked), and for a PATCH round every candidate with its score breakdown,
 * gate verdict, whether it was admissible and why not. Every value comes
 * from the trajectory and is read defensively: a field missing or of the
 * wrong type is left out, never a crash.
 *
 * @module
 */

import { type Html, html } from "../trajectory/inspect/escape.ts";
import { tone } from "../trajectory/inspect/page.ts";
import { type Dict, dict, num, str } from "../trajectory/inspect/trajectory_view.ts";

/** Characters of a step's output shown on the page (the trajectory holds at most 4000). */
const OUTPUT_SHOWN = 4000;

function list(value: unknown): Dict[] {
  return Array.isArray(value) ? value.map(dict) : [];
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.map(String) : [];
}

/** The `explain_stuck` explanation of the last step that gave one. */
function stuckExplanation(steps: Dict[]): string | undefined {
  for (const step of [...steps].reverse()) {
    const action = dict(dict(step.proposal).action);
    if (action.type === "explain_stuck") return str(action.explanation);
  }
  return undefined;
}

function phaseTimeline(transitions: Dict[]): Html {
  const first = str(transitions[0]?.from) ?? "REPRODUCE";
  const chips = [
    html`
      <div class="ph" data-phase="${first}">
        <div class="name">${first}</div>
        <div class="meta">start</div>
      </div>
    `,
    ...transitions.map((t) =>
      html`
        <span class="arrow">→</span><div class="ph ${t.to === "STUCK"
          ? "st-bad"
          : ""}" data-phase="${str(t.to) ?? "?"}">
          <div class="name">${str(t.to) ?? "?"}</div>
          <div class="meta">${str(t.reason) ?? ""}</div>
        </div>
      `
    ),
  ];
  return html`<div class="timeline" id="rfsn-transitions">${chips}</div>`;
}

function verdictBadge(verdict: Dict | undefined): Html | string {
  if (!verdict || Object.keys(verdict).length === 0) return html`<span class="muted">not gated</span>`;
  if (verdict.accepted === true) return html`<span class="badge st-ok">accepted</span>`;
  return html`<span class="badge st-bad">refused${
    str(verdict.rejection_type) ? `: ${verdict.rejection_type}` : ""
  }</span> <span class="why">${str(verdict.reason) ?? ""}</span>`;
}

function target(proposal: Dict): string {
  const t = dict(proposal.target);
  const path = str(t.path) ?? "";
  return str(t.symbol) ? `${path}::${t.symbol}` : path;
}

/** The action in words: the tests, the file and lines, the pattern, the explanation. */
function actionWords(action: Dict): string {
  switch (action.type) {
    case "run_tests": {
      const tests = strings(action.tests);
      return `run tests (${str(action.scope) ?? "?"}): ${tests.length ? tests.join(" ") : "the whole suite"}`;
    }
    case "read_file": {
      const lines = num(action.start_line) ? ` lines ${action.start_line}-${action.end_line ?? "end"}` : "";
      return `read ${str(action.path) ?? "?"}${lines}`;
    }
    case "search_repo":
      return `search "${str(action.pattern) ?? ""}" in ${str(action.path) ?? "the repository"}`;
    case "edit_file":
      return action.diff ? "edit with a unified diff" : "edit with a GraphPlan plan";
    case "explain_stuck":
      return "explain why the run is stuck";
  }
  return JSON.stringify(action);
}

function proposalBlock(proposal: Dict): Html {
  const action = dict(proposal.action);
  return html`<dl class="kv proposal">
    <dt>intent</dt><dd>${str(proposal.intent) ?? ""} <span class="muted">risk ${
    str(proposal.risk_level) ?? "?"
  }</span></dd>
    <dt>hypothesis</dt><dd>${str(proposal.hypothesis) ?? ""}</dd>
    <dt>target</dt><dd><code>${target(proposal)}</code></dd>
    <dt>action</dt><dd>${actionWords(action)}</dd>
    ${
    action.type === "explain_stuck"
      ? html`
        <dt>explanation</dt>
        <dd class="stuck">${str(action.explanation) ?? ""}</dd>
      `
      : ""
  }
  </dl>${
    action.type === "edit_file"
      ? html`
        <details>
          <summary class="muted">the edit as proposed</summary>
          <div class="body">
            <pre>${str(action.diff) ?? JSON.stringify(action.plan, null, 2)}</pre>
          </div>
        </details>
      `
      : ""
  }`;
}

function feedbackBlock(feedback: Dict): Html | string {
  if (Object.keys(feedback).length === 0) return "";
  const output = str(feedback.output) ?? "";
  const cut = output.length > OUTPUT_SHOWN ? `${output.slice(0, OUTPUT_SHOWN)}\n...` : output;
  const failed = num(feedback.tests_failed);
  const edit = dict(feedback.edit);
  return html`
    <div
      class="feedback"><b>Feedback:</b> <span class="badge ${feedback.success === true
        ? "st-ok"
        : "st-bad"}">${feedback.success === true ? "carried out" : "failed"}</span>${failed !== undefined
        ? html`
          <span class="muted">${failed} test(s) failed</span>
        `
        : ""}${str(feedback.not_run)
        ? html`<div class="callout bad not-run"><b>The test command could not run:</b> ${feedback.not_run}</div>`
        : ""}${str(edit.source)
        ? html`
          <span class="muted">edit ${edit.source}, tiers ${strings(edit.tiers).join(", ")}</span>
        `
        : ""}${cut.trim() ? html`<pre class="output">${cut}</pre>` : ""}</div>
  `;
}

function scoreCell(score: Dict): Html | string {
  const total = num(score.total);
  if (total === undefined) return html`<span class="muted">not scored</span>`;
  return html`<b>${total}</b><ul class="factors">${
    list(score.factors).map((f) =>
      html`<li>${str(f.factor) ?? "?"}: ${num(f.weighted) ?? "?"} <span class="muted">${
        str(f.why) ?? ""
      }</span></li>`
    )
  }</ul>`;
}

function candidateRow(candidate: Dict, chosen: string | undefined): Html {
  const proposal = dict(candidate.proposal);
  const verdict = candidate.verdict ? dict(candidate.verdict) : undefined;
  const edit = dict(candidate.edit);
  const problems = strings(candidate.problems);
  const model = str(candidate.model) ?? "?";
  const why = candidate.admissible === true
    ? ""
    : !candidate.proposal
    ? "the answer is not a valid proposal"
    : verdict?.accepted !== true
    ? "the gate refused it"
    : problems.length
    ? "its edit cannot run as a verified plan"
    : "";
  return html`
    <tr data-model="${model}" class="${model === chosen ? "chosen" : ""}">
      <td><code>${model}</code>${model === chosen
        ? html`
          <span class="badge st-ok">chosen</span>
        `
        : ""}</td>
      <td>${str(proposal.hypothesis) ?? html`<span class="muted">no proposal</span>`}<div><code>${target(
        proposal,
      )}</code></div></td>
      <td>${scoreCell(dict(candidate.score))}</td>
      <td>${verdictBadge(verdict)}${list(verdict?.issues).map((issue) =>
        html`<div class="issue"><code>${str(issue.code) ?? ""}</code> ${str(issue.message) ?? ""}</div>`
      )}</td>
      <td><span class="badge ${candidate.admissible === true
        ? "st-ok"
        : "st-bad"}">${candidate.admissible === true ? "admissible" : "inadmissible"}</span>${why
        ? html`<div class="why">${why}</div>`
        : ""}${str(edit.source)
        ? html`<div class="muted">edit ${edit.source}, tiers ${strings(edit.tiers).join(", ")}: ${
          strings(edit.files).join(", ")
        }</div>`
        : ""}${problems.map((p) => html`<div class="problem">${p}</div>`)}</td>
    </tr>
  `;
}

function stepBlock(step: Dict, index: number): Html {
  const phase = str(step.phase) ?? "?";
  const proposal = dict(step.proposal);
  const candidates = list(step.candidates);
  const chosen = str(step.chosen);
  const verdict = step.verdict ? dict(step.verdict) : undefined;
  const headline = step.candidates !== undefined
    ? `${candidates.length} candidate(s)${chosen ? `, ${chosen} chosen` : ", none chosen"}`
    : actionWords(dict(proposal.action));
  const body = step.candidates !== undefined
    ? html`
      <table class="candidates">
        <thead>
          <tr>
            <th>model</th>
            <th>hypothesis and target</th>
            <th>score</th>
            <th>gate</th>
            <th>admissible</th>
          </tr>
        </thead>
        <tbody>${candidates.map((c) => candidateRow(c, chosen))}</tbody>
      </table>
    `
    : html`${proposalBlock(proposal)}<div><b>Gate:</b> ${verdictBadge(verdict)}</div>`;
  return html`
    <details open class="rfsn-step" data-step="${index}" data-phase="${phase}">
      <summary><b>Step ${index}</b> <span class="badge">${phase}</span> ${headline}</summary>
      <div class="body">${body}${feedbackBlock(dict(step.feedback))}</div>
    </details>
  `;
}

/** The rfsn section of a trajectory page from `info.rfsn`, with the run's exit status. */
export function rfsnSection(rfsn: Dict, exitStatus: string): Html {
  const steps = list(rfsn.steps);
  const transitions = list(rfsn.transitions);
  const state = dict(rfsn.state);
  const reproduction = dict(state.reproduction);
  const failures = dict(state.failures);
  const suspects = list(dict(state.localization).suspect_files);
  const explanation = stuckExplanation(steps);
  return html`<section class="card" id="rfsn"><h2>rfsn run</h2>
    <p><span class="badge ${
    tone(exitStatus)
  }">${exitStatus}</span> <span class="muted">${steps.length} step(s), ${transitions.length} phase transition(s)</span></p>
    ${explanation ? html`<div class="callout bad" id="rfsn-stuck"><b>Stuck:</b> ${explanation}</div>` : ""}
    <dl class="kv">
      <dt>reproduced</dt><dd>${reproduction.reproduction_confirmed === true ? "yes" : "no"}</dd>
      <dt>failing tests</dt><dd>${strings(failures.failing_tests).join(" ") || "none recorded"}</dd>
      <dt>suspects</dt><dd>${
    suspects.map((s) => `${str(s.name) ?? "?"} (${num(s.confidence) ?? "?"})`).join(", ") || "none"
  }</dd>
    </dl>
    <h3>Phases</h3>${phaseTimeline(transitions)}
    <h3>Steps</h3>${steps.length ? steps.map(stepBlock) : html`<p class="muted">No step was recorded.</p>`}
  </section>`;
}
