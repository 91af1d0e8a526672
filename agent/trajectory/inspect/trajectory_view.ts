/**
 * What the inspect page shows of one trajectory, read from the saved
 * document (`graphplan-1`, see ../mod.ts) without trusting its shape: every
 * field is optional, so a trajectory cut off by a crash, written by an older
 * version, or carrying fields of later ones (`info.plan.source` and `tiers`
 * from lift, `info.gate` from the gate) still renders.
 *
 * Plans are rebuilt per attempt from the phase records: `plan` (the steps
 * the model wrote), `lift` (hunks lifted from a diff), `verify` (issues)
 * and `execute` (result, rollback), matched by their `attempt`.
 *
 * @module
 */

import type { Issue } from "../../../engine/base/issue.ts";
import { detectTier } from "../../../engine/plan/tiers.ts";
import { stepOperator, stepTarget } from "./locator_words.ts";

/** A JSON object as read. */
export type Dict = Record<string, unknown>;

/** One phase record, with its duration and (for the model's phases) cost and steps. */
export interface PhaseView {
  name: string;
  status: string;
  attempt?: number;
  seconds?: number;
  /** The record's other fields (files, reason, method, ...). */
  details: Dict;
}

/** Totals of the messages tagged with one phase name. */
export interface PhaseUsage {
  steps: number;
  cost: number;
}

/** A tool call and the output that answered it. */
export interface CallView {
  id: string;
  command: string;
  output?: string;
  /** The index of the tool message that answered the call. */
  outputIndex?: number;
}

/** One message of the conversation. */
export interface MessageView {
  index: number;
  role: string;
  phase: string;
  /** The text ("" when absent or null; JSON for content that is not a string). */
  content: string;
  /** Fields a message should have but this one lacks (`role`, `content`). */
  missing: string[];
  cost?: number;
  calls: CallView[];
  /** Tool messages answering a call of an earlier assistant message are folded into it. */
  folded: boolean;
}

/** One step of a plan with the issues verification and execution attached to it. */
export interface StepView {
  index: number;
  raw: unknown;
  /** 0-3: recorded in the trajectory when it says, else detected from the step. */
  tier: number;
  operator: string;
  target: string;
  issues: Issue[];
}

/** A verification or execution result. */
export interface CheckView {
  status: string;
  method?: string;
  errors: Issue[];
  warnings: Issue[];
  failedStep?: number;
  filesChanged?: string[];
  recovery?: Dict;
}

/** One plan attempt. */
export interface PlanView {
  attempt: number;
  /** `written` or `lifted` when known. */
  origin?: string;
  /** Where the text came from: `file`, `message`, `diff`, `search_replace`. */
  source?: string;
  status: string;
  nudges?: number;
  steps: StepView[];
  /** Issues without a step (plan-level), from verification and execution. */
  planIssues: Issue[];
  lift?: Dict;
  verify?: CheckView;
  execute?: CheckView;
}

/** The page's model of a trajectory. */
export interface TrajectoryView {
  /** Fields a trajectory should have but this one lacks or has of another type (`info`, `messages`, ...). */
  missing: string[];
  instanceId: string;
  format: string;
  task: string;
  exitStatus: string;
  submission: string;
  modelName?: string;
  modelStats: Dict;
  phases: PhaseView[];
  usage: Record<string, PhaseUsage>;
  fallback?: { point: string; reason: string };
  plans: PlanView[];
  messages: MessageView[];
  patchCheck?: Dict;
  gate?: Dict;
  /** The strategy that ran (`config.agent.strategy` as recorded; absent in a trajectory without it). */
  strategy?: string;
  /** `info` as recorded, for the part of the page a strategy draws itself (`inspectSection`). */
  info: Dict;
  error?: string;
  startedAt?: string;
  updatedAt?: string;
  version?: string;
  wallSeconds?: number;
}

/** A file is not a trajectory. */
export class TrajectoryFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TrajectoryFormatError";
  }
}

/** `value` when it is a plain object, else an empty one. */
export function dict(value: unknown): Dict {
  return value && typeof value === "object" && !Array.isArray(value) ? value as Dict : {};
}

/** `value` when it is a string. */
export function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** `value` when it is a finite number. */
export function num(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/** The issues in `value` (a list as recorded): objects only, each with a code, severity and message. */
export function readIssues(value: unknown): Issue[] {
  if (!Array.isArray(value)) return [];
  return value.filter((item) => item && typeof item === "object").map((item) => {
    const issue = item as Dict;
    return {
      ...issue,
      code: str(issue.code) ?? "unknown",
      severity: issue.severity === "warning" ? "warning" : "error",
      message: str(issue.message) ?? JSON.stringify(issue),
      candidates: Array.isArray(issue.candidates)
        ? issue.candidates.filter((candidate) => candidate && typeof candidate === "object")
        : undefined,
    } as Issue;
  });
}

function seconds(start: unknown, end: unknown): number | undefined {
  const a = Date.parse(String(start)), b = Date.parse(String(end));
  return Number.isFinite(a) && Number.isFinite(b) ? Math.max(0, (b - a) / 1000) : undefined;
}

/** The task: `info.task` when recorded, else the `<task>` of the first user message. */
function findTask(info: Dict, messages: Dict[]): string {
  if (typeof info.task === "string") return info.task;
  const first = messages.find((message) => message.role === "user");
  const content = str(first?.content) ?? "";
  const match = /<task>\n?([\s\S]*?)\n?<\/task>/.exec(content);
  return match ? match[1] : content;
}

/** The top-level fields of a trajectory: an object with none of them is something else. */
const TOP_FIELDS = ["instance_id", "info", "messages", "trajectory_format"] as const;

/**
 * Read a parsed trajectory document. Anything shaped like one (a JSON object
 * with any of its top-level fields) is read, what it lacks listed in
 * `missing`; anything else throws {@linkcode TrajectoryFormatError}.
 */
export function trajectoryView(doc: unknown): TrajectoryView {
  const root = dict(doc);
  if (!TOP_FIELDS.some((field) => Object.hasOwn(root, field))) {
    throw new TrajectoryFormatError('a trajectory is a JSON object with "info" and "messages"');
  }
  const missing: string[] = [];
  if (typeof root.instance_id !== "string") missing.push("instance_id");
  if (!root.info || typeof root.info !== "object" || Array.isArray(root.info)) missing.push("info");
  if (!Array.isArray(root.messages)) missing.push("messages");
  const info = dict(root.info);
  const rawMessages = (Array.isArray(root.messages) ? root.messages : []).map(dict);
  const phases: PhaseView[] = (Array.isArray(info.phases) ? info.phases : []).map(dict).map((record) => {
    const { name, status, attempt, started_at, ended_at, ...details } = record;
    return {
      name: str(name) ?? "?",
      status: str(status) ?? "?",
      attempt: num(attempt),
      seconds: seconds(started_at, ended_at),
      details,
    };
  });
  const messages = readMessages(rawMessages);
  const usage: Record<string, PhaseUsage> = {};
  for (const message of messages) {
    if (message.role !== "assistant") continue;
    const entry = usage[message.phase] ??= { steps: 0, cost: 0 };
    entry.steps += 1;
    entry.cost += message.cost ?? 0;
  }
  const fallback = dict(info.fallback);
  const config = dict(info.config);
  return {
    missing,
    instanceId: str(root.instance_id) ?? "(unnamed)",
    format: str(root.trajectory_format) ?? "?",
    task: findTask(info, rawMessages),
    exitStatus: str(info.exit_status) ?? "(running)",
    submission: str(info.submission) ?? "",
    modelName: str(dict(config.model).name),
    modelStats: dict(info.model_stats),
    phases,
    usage,
    fallback: typeof fallback.point === "string"
      ? { point: fallback.point, reason: str(fallback.reason) ?? "" }
      : undefined,
    plans: readPlans(phases, dict(info.plan)),
    messages,
    patchCheck: info.patch_check ? dict(info.patch_check) : undefined,
    gate: info.gate ? dict(info.gate) : undefined,
    strategy: str(dict(config.agent).strategy),
    info,
    error: str(info.error),
    startedAt: str(info.started_at),
    updatedAt: str(info.updated_at),
    version: str(info.version),
    wallSeconds: seconds(info.started_at, info.updated_at),
  };
}

function readMessages(raw: Dict[]): MessageView[] {
  const views: MessageView[] = [];
  const byCall = new Map<string, CallView>();
  raw.forEach((message, index) => {
    const extra = dict(message.extra);
    const role = str(message.role) ?? "?";
    const missing = [
      ...(typeof message.role === "string" ? [] : ["role"]),
      ...(Object.hasOwn(message, "content") ? [] : ["content"]),
    ];
    // null is what providers send beside tool calls: no text, nothing missing.
    const content = typeof message.content === "string"
      ? message.content
      : message.content === undefined || message.content === null
      ? ""
      : JSON.stringify(message.content);
    const callId = str(message.tool_call_id);
    const answered = role === "tool" && callId !== undefined ? byCall.get(callId) : undefined;
    if (answered && answered.output === undefined) {
      answered.output = content;
      answered.outputIndex = index;
    }
    const calls: CallView[] = (Array.isArray(message.tool_calls) ? message.tool_calls : []).map(dict).map(
      (call, k) => ({
        id: str(call.id) ?? `call-${index}-${k}`,
        command: str(call.command) ?? str(call.arguments) ?? JSON.stringify(call),
      }),
    );
    for (const call of calls) byCall.set(call.id, call);
    views.push({
      index,
      role,
      phase: str(extra.phase) ?? "",
      content,
      missing,
      cost: num(extra.cost),
      calls,
      folded: answered !== undefined && answered.output === content,
    });
  });
  return views;
}

function check(phase: PhaseView | undefined): CheckView | undefined {
  if (!phase) return undefined;
  const d = phase.details;
  return {
    status: phase.status,
    method: str(d.method),
    errors: readIssues(d.errors),
    warnings: readIssues(d.warnings),
    failedStep: num(d.failed_step),
    filesChanged: Array.isArray(d.files_changed) ? d.files_changed.map(String) : undefined,
    recovery: d.recovery ? dict(d.recovery) : undefined,
  };
}

function readPlans(phases: PhaseView[], finalPlan: Dict): PlanView[] {
  const attempts = [
    ...new Set(
      phases.filter((p) => ["plan", "lift", "verify", "execute"].includes(p.name)).map((p) => p.attempt ?? 1),
    ),
  ].sort((a, b) => a - b);
  const last = attempts[attempts.length - 1];
  return attempts.map((attempt) => {
    const of = (name: string) => phases.find((p) => p.name === name && (p.attempt ?? 1) === attempt);
    const planPhase = of("plan");
    const liftPhase = of("lift");
    let raw: unknown[] = Array.isArray(planPhase?.details.plan) ? planPhase.details.plan as unknown[] : [];
    if (!Array.isArray(planPhase?.details.plan) && planPhase?.details.plan) {
      raw = Array.isArray(dict(planPhase.details.plan).plan)
        ? dict(planPhase.details.plan).plan as unknown[]
        : [];
    }
    let tiers: unknown[] | undefined;
    let origin: string | undefined = liftPhase
      ? "lifted"
      : planPhase?.details.plan !== undefined
      ? "written"
      : undefined;
    if (attempt === last && Array.isArray(finalPlan.plan_steps)) {
      if (raw.length === 0) raw = finalPlan.plan_steps;
      if (Array.isArray(finalPlan.tiers) && finalPlan.tiers.length === raw.length) tiers = finalPlan.tiers;
      origin = str(finalPlan.source) ?? origin;
    }
    if (!tiers && liftPhase && Array.isArray(liftPhase.details.hunks)) {
      const byStep: unknown[] = [];
      for (const hunk of liftPhase.details.hunks.map(dict)) {
        const steps = Array.isArray(hunk.steps) ? hunk.steps : [];
        const hunkTiers = Array.isArray(hunk.tiers) ? hunk.tiers : [];
        steps.forEach((step, k) => {
          if (typeof step === "number") byStep[step] = hunkTiers[k];
        });
      }
      if (byStep.length > 0) tiers = byStep;
    }
    const verify = check(of("verify"));
    const execute = check(of("execute"));
    const all = [
      ...verify?.errors ?? [],
      ...verify?.warnings ?? [],
      ...execute?.errors ?? [],
      ...execute?.warnings ?? [],
    ];
    const steps: StepView[] = raw.map((step, index) => ({
      index,
      raw: step,
      // The tier recorded (lift, or the agent since lift), else the seed's rule applied to the step.
      tier: typeof tiers?.[index] === "number" ? tiers[index] as number : detectTier(step),
      operator: stepOperator(step),
      target: stepTarget(step),
      issues: all.filter((issue) => issue.step === index),
    }));
    const status = execute?.status ?? verify?.status ?? liftPhase?.status ?? planPhase?.status ?? "?";
    return {
      attempt,
      origin,
      source: str(planPhase?.details.source),
      status,
      nudges: num(planPhase?.details.nudges),
      steps,
      planIssues: all.filter((issue) =>
        issue.step === undefined || issue.step < 0 || issue.step >= steps.length
      ),
      lift: liftPhase ? { status: liftPhase.status, ...liftPhase.details } : undefined,
      verify,
      execute,
    };
  });
}
