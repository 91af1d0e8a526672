/**
 * Unified diffs (`git apply` compatible) of whole files, for `apply
 * --dry-run` and for the patch a run submits.
 *
 * Lines are compared with their line ending (a CRLF file's lines end in
 * `\r`, as git sees them). The line diff is Myers' O((N+M)·D) greedy
 * algorithm after trimming the common prefix and suffix, which for an edit
 * plan (a few localized changes) leaves a small middle. Hunks carry 3 lines
 * of context and merge when their contexts touch; a last line without a
 * newline is marked `\ No newline at end of file`.
 *
 * @module
 */

type Op = { kind: " " | "-" | "+"; line: string };

/** Options of `unifiedDiff`. */
export interface DiffOptions {
  /** Lines of context around each change (default 3). */
  context?: number;
  /** The file is new (`--- /dev/null`, `new file mode`). */
  created?: boolean;
  /** The file is deleted (`+++ /dev/null`, `deleted file mode`). */
  deleted?: boolean;
  /** Git modes before and after (`"100644"`, `"100755"`); a difference is an `old mode`/`new mode` header. */
  oldMode?: string | null;
  newMode?: string | null;
}

/**
 * The unified diff turning `before` into `after` for the file `path`
 * (repository-relative), with a `diff --git` header; empty when equal.
 */
export function unifiedDiff(path: string, before: string, after: string, options: DiffOptions = {}): string {
  const { created, deleted, oldMode, newMode } = options;
  const modeChanged = !created && !deleted && oldMode && newMode && oldMode !== newMode;
  if (before === after && !created && !deleted && !modeChanged) return "";
  const context = options.context ?? 3;
  const a = splitLines(before);
  const b = splitLines(after);
  const ops = diffLines(a, b);
  let out = `diff --git a/${path} b/${path}\n`;
  if (created) out += `new file mode ${newMode ?? "100644"}\n`;
  if (deleted) out += `deleted file mode ${oldMode ?? "100644"}\n`;
  if (modeChanged) out += `old mode ${oldMode}\nnew mode ${newMode}\n`;
  if (before === after) return out;
  out += `--- ${created ? "/dev/null" : `a/${path}`}\n+++ ${deleted ? "/dev/null" : `b/${path}`}\n`;
  // Positions of changed ops, grouped into hunks whose context windows touch.
  const changed: number[] = [];
  ops.forEach((op, i) => op.kind !== " " && changed.push(i));
  let g = 0;
  while (g < changed.length) {
    let last = g;
    while (last + 1 < changed.length && changed[last + 1] - changed[last] - 1 <= 2 * context) last++;
    const from = Math.max(0, changed[g] - context);
    const to = Math.min(ops.length, changed[last] + context + 1);
    let oldStart = 0;
    let newStart = 0;
    for (let i = 0; i < from; i++) {
      if (ops[i].kind !== "+") oldStart++;
      if (ops[i].kind !== "-") newStart++;
    }
    let oldCount = 0;
    let newCount = 0;
    let body = "";
    for (let i = from; i < to; i++) {
      const op = ops[i];
      if (op.kind !== "+") oldCount++;
      if (op.kind !== "-") newCount++;
      body += op.kind + op.line;
      body += op.line.endsWith("\n") ? "" : "\n\\ No newline at end of file\n";
    }
    out += `@@ -${range(oldStart, oldCount)} +${range(newStart, newCount)} @@\n${body}`;
    g = last + 1;
  }
  return out;
}

function range(start: number, count: number): string {
  if (count === 0) return `${start},0`;
  return count === 1 ? `${start + 1}` : `${start + 1},${count}`;
}

/** Split keeping each line's `\n` (a last line without one stays bare). */
export function splitLines(text: string): string[] {
  const lines: string[] = [];
  let from = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", from)) {
    lines.push(text.slice(from, i + 1));
    from = i + 1;
  }
  if (from < text.length) lines.push(text.slice(from));
  return lines;
}

/** The edit script from `a` to `b`: common lines, deletions and insertions in order. */
function diffLines(a: string[], b: string[]): Op[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]
  ) {
    tail++;
  }
  const ops: Op[] = a.slice(0, head).map((line) => ({ kind: " ", line }));
  for (const item of myers(a.slice(head, a.length - tail), b.slice(head, b.length - tail))) ops.push(item);
  for (const item of a.slice(a.length - tail).map((line): Op => ({ kind: " ", line }))) ops.push(item);
  return ops;
}

/**
 * Most differences (D) the minimal diff is searched for: the saved frontiers
 * take O(D²) memory. Beyond it (a file rewritten almost entirely) the middle
 * is emitted as one deletion and one insertion: still a correct patch.
 */
const MAX_EDIT_DISTANCE = 2000;

/** Myers' greedy shortest edit script, deletions before insertions within a change. */
function myers(a: string[], b: string[]): Op[] {
  const n = a.length;
  const m = b.length;
  const replaceAll = (): Op[] => [
    ...a.map((line): Op => ({ kind: "-", line })),
    ...b.map((line): Op => ({ kind: "+", line })),
  ];
  if (n === 0 || m === 0) return replaceAll();
  const max = n + m;
  const offset = max;
  const v = new Int32Array(2 * max + 2);
  // trace[d][k + d] = the furthest x on diagonal k after round d - 1, for k in [-d, d].
  const trace: Int32Array[] = [];
  let found = false;
  for (let d = 0; d <= max && !found; d++) {
    if (d > MAX_EDIT_DISTANCE) return replaceAll();
    trace.push(v.slice(offset - d, offset + d + 1));
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1])
        ? v[offset + k + 1]
        : v[offset + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = true;
        break;
      }
    }
  }
  // Walk back through the saved frontiers.
  const ops: Op[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d > 0; d--) {
    const vd = trace[d];
    const at = (k: number) => vd[k + d];
    const k = x - y;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const prevK = down ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) ops.push({ kind: " ", line: a[--x] }), y--;
    if (down) ops.push({ kind: "+", line: b[--y] });
    else ops.push({ kind: "-", line: a[--x] });
  }
  while (x > 0 && y > 0) ops.push({ kind: " ", line: a[--x] }), y--;
  ops.reverse();
  return groupChanges(ops);
}

/** Within each run of changes, put deletions before insertions (as diff tools print them). */
function groupChanges(ops: Op[]): Op[] {
  const out: Op[] = [];
  let i = 0;
  while (i < ops.length) {
    if (ops[i].kind === " ") {
      out.push(ops[i++]);
      continue;
    }
    const run: Op[] = [];
    while (i < ops.length && ops[i].kind !== " ") run.push(ops[i++]);
    out.push(...run.filter((op) => op.kind === "-"), ...run.filter((op) => op.kind === "+"));
  }
  return out;
}
