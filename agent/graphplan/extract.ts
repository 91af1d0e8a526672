/**
 * Reading the model's signals out of text: the file list after
 * `READY_TO_PLAN:`, a plan written as JSON, the submission after the
 * sentinel line. All lenient about surrounding noise, strict about content.
 *
 * @module
 */

/**
 * The files after the last `marker` in `text` (a JSON list, or failing that
 * quoted names up to the end of the line), repository-relative; null if the
 * marker is absent or names no file.
 */
export function findReadyFiles(
  text: string,
  marker: string,
  options: { cwd?: string } = {},
): string[] | null {
  const at = text.lastIndexOf(marker);
  if (at < 0) return null;
  // Quotes escaped once more than needed (`[\"a.py\"]`, as in a tool call's JSON arguments) are quotes.
  const rest = text.slice(at + marker.length).split("\n")[0].replace(/\\+(["'])/g, "$1");
  let names: unknown[] | undefined;
  const list = /^\s*(\[[^\]]*\])/.exec(rest);
  if (list) {
    try {
      const parsed = JSON.parse(list[1]);
      names = Array.isArray(parsed) ? parsed : undefined;
    } catch {
      names = undefined;
    }
  }
  if (!names) {
    names = [...rest.matchAll(/["']([^"']+)["']|([^\s,\[\]"'\\]+)/g)].map((match) => match[1] ?? match[2]);
  }
  const files = names
    .filter((name): name is string => typeof name === "string" && name.trim() !== "")
    .map((name) => relativeTo(name.trim(), options.cwd));
  const unique = [...new Set(files)];
  return unique.length > 0 ? unique : null;
}

function relativeTo(path: string, cwd?: string): string {
  let out = path;
  if (cwd) {
    const root = cwd.replace(/\/+$/, "") + "/";
    if (out.startsWith(root)) out = out.slice(root.length);
  }
  while (out.startsWith("./")) out = out.slice(2);
  return out;
}

/** The seed's `_is_valid_plan`: a non-empty list of steps, or `{plan: [...]}` around one. */
export function isValidPlan(plan: unknown): boolean {
  if (plan && typeof plan === "object" && !Array.isArray(plan) && "plan" in plan) {
    return isValidPlan((plan as { plan: unknown }).plan);
  }
  if (!Array.isArray(plan) || plan.length === 0) return false;
  const first = plan[0];
  return !!first && typeof first === "object" &&
    ("op" in first || "template" in first || "fragment" in first);
}

/** Parse `text` as a plan; undefined when it is not JSON or not a valid plan. */
export function parsePlanText(text: string): unknown | undefined {
  try {
    const plan = JSON.parse(text);
    return isValidPlan(plan) ? plan : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A plan written inline in a message, the fallback when the plan file was
 * not written: fenced code blocks first, then the widest `{...}` and `[...]`
 * spans.
 */
export function findPlanInText(text: string): unknown | undefined {
  const candidates: string[] = [];
  for (const match of text.matchAll(/```(?:json)?\s*\n([\s\S]*?)```/g)) candidates.push(match[1]);
  const heredoc = /<<\s*'?PLAN_EOF'?\s*\n([\s\S]*?)\n\s*PLAN_EOF/.exec(text);
  if (heredoc) candidates.push(heredoc[1]);
  // An object first: an array span inside `{"plan": [...]}` would lose the wrapper.
  for (const [open, close] of [["{", "}"], ["[", "]"]]) {
    const start = text.indexOf(open);
    const end = text.lastIndexOf(close);
    if (start >= 0 && end > start) candidates.push(text.slice(start, end + 1));
  }
  for (const candidate of candidates) {
    const plan = parsePlanText(candidate.trim());
    if (plan !== undefined) return plan;
  }
  return undefined;
}

/** A message as far as plans are concerned: its text and the commands of its tool calls. */
export interface PlanSource {
  content: string;
  tool_calls?: { command?: string; arguments?: string }[];
}

/**
 * A plan in the last `limit` of `messages`, newest first: each message's
 * text (tool outputs included, where models `cat` the plan they wrote),
 * then the commands it ran (a heredoc writing the plan).
 */
export function findPlanInMessages(messages: readonly PlanSource[], limit = 6): unknown | undefined {
  for (const message of messages.slice(-limit).reverse()) {
    const texts = [
      message.content,
      ...(message.tool_calls ?? []).map((call) => call.command ?? call.arguments ?? ""),
    ];
    for (const text of texts) {
      const plan = text ? findPlanInText(text) : undefined;
      if (plan !== undefined) return plan;
    }
  }
  return undefined;
}

/**
 * Whether `command` starts by echoing `marker` (`echo MARKER`, quoted or not,
 * alone or followed by `&&`, `;` or a new line): the model submits with it,
 * and when the orchestrator computes the patch itself the command is not run.
 */
export function isSubmitCommand(command: string, marker: string): boolean {
  const escaped = marker.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`^\\s*echo\\s+(['"]?)${escaped}\\1\\s*(?:$|&&|;|\\n)`).test(command);
}

/** The submission when `output`'s first line is `marker`: everything after that line; else null. */
export function findSubmission(output: string, marker: string): string | null {
  const lines = output.trimStart().split("\n");
  if (lines[0].trim() !== marker) return null;
  return lines.slice(1).join("\n");
}
