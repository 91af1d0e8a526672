/**
 * A model command larger than Linux's 128 KiB limit on one argument: a
 * plan written with a heredoc, as the agent's PLAN phase asks for.
 */

/** A `cat > PATH <<'PLAN_EOF'` command whose JSON body is at least `bytes` long, then `wc -c PATH`. */
export function bigHeredoc(bytes: number, path = "plan.json"): { command: string; body: string } {
  const steps: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const step = JSON.stringify({
      op: "replace_code",
      params: {
        file: `pkg/module_${i % 97}.py`,
        old: `value_${i} = compute(${i})`,
        new: `value_${i} = compute(${i}) + 1`,
      },
    });
    steps.push(step);
    size += step.length + 2;
  }
  const body = `[\n${steps.join(",\n")}\n]`;
  return { command: `cat > ${path} <<'PLAN_EOF'\n${body}\nPLAN_EOF\nwc -c ${path}`, body };
}
