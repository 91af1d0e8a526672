/**
 * The operator catalog shown in the PLAN prompt.
 *
 * TEMPORARY: `engine/edit/catalog.ts` (`renderCatalog()`, generated from
 * every registry with descriptions and examples) is being written; until it
 * lands, this renders a plainer catalog from the plan schema's operator
 * registry (`OPERATORS`: names, one-line summaries, required and optional
 * parameters), so prompt and engine still cannot drift apart. Replace the
 * body of {@linkcode operatorCatalog} with `renderCatalog()` then.
 *
 * @module
 */

import { OPERATORS, requiredParams } from "../../engine/plan/operators.ts";

const GROUP_TITLES: Record<string, string> = {
  primitive: "AST-node primitives (targets found by locators)",
  surgery: "Tree surgery (targets given as `target` locators)",
  composed: "Composed operators",
  legacy: "Legacy operators (text and line based; prefer the ones above)",
};

/** The catalog text for the `plan` template. */
export function operatorCatalog(): string {
  const groups = new Map<string, string[]>();
  for (const spec of OPERATORS.values()) {
    const required = requiredParams(spec);
    const optional = Object.keys(spec.params.shape).filter((name) => !required.includes(name));
    const params = [...required, ...optional.map((name) => `${name}?`)].join(", ");
    const line = `- ${spec.name} {${params}}: ${spec.summary}`;
    const list = groups.get(spec.kind) ?? [];
    list.push(line);
    groups.set(spec.kind, list);
  }
  const parts: string[] = [];
  for (const [kind, lines] of groups) parts.push(`${GROUP_TITLES[kind] ?? kind}:\n${lines.join("\n")}`);
  parts.push(
    'A locator is {"file", "kind", "name", "parent"?, "field"?, "nth_child"?, "index"?}; kinds: ' +
      "function, class, method, import, statement, ... (`?` marks an optional parameter).",
  );
  return parts.join("\n\n");
}
