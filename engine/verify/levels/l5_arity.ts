/**
 * L5 beyond Python: a free function whose fixed parameter count the edit
 * changed, still called in its file with the old count
 * (`analysis/names/arity.ts`: TypeScript, Go, Rust, Ruby, PHP, C). Each
 * such call is an `interface-mismatch` warning, as in Python.
 *
 * @module
 */

import { breaks, callsOf, fixedArities } from "../../analysis/names/arity.ts";
import { type Issue, warning } from "../../base/issue.ts";
import type { CheckEnv, FileChange } from "./mod.ts";
import { clip } from "./quote.ts";

/** L5 for the other languages: calls that fitted the old parameter count but not the new one. */
export function checkArity(change: FileChange, env: CheckEnv): Issue[] {
  if (change.before.file.text === change.after.file.text) return [];
  const language = change.after.file.language;
  const was = fixedArities(language, change.before.tree);
  if (was.size === 0) return [];
  const now = fixedArities(language, change.after.tree);
  const issues: Issue[] = [];
  for (const [name, arity] of now) {
    const old = was.get(name);
    if (old === undefined || old === arity) continue;
    for (const call of callsOf(language, change.after.tree, name)) {
      if (call.count !== old || !breaks(language, call.count, arity)) continue;
      const line = call.node.startPosition.row + 1;
      issues.push(warning(
        "interface-mismatch",
        `Call at "${change.path}:${line}" breaks: "${clip(name)}" now takes ${arity} argument${
          arity === 1 ? "" : "s"
        }, the call passes ${call.count}`,
        {
          level: "L5",
          step: env.step,
          file: change.path,
          line,
          hint: `update the call or keep ${old} parameter${old === 1 ? "" : "s"} of "${clip(name)}"`,
        },
      ));
    }
  }
  return issues;
}
