/**
 * Layer 4 (seed 002), occurrence classification for `rename_symbol`: every
 * place the name appears in the file is one of
 *
 * | class | rule |
 * |---|---|
 * | `definitions` | an identifier that is the `name` field of a definition node |
 * | `references` | any other identifier token spelled so |
 * | `in_strings` | a word-boundary match inside a string literal |
 * | `in_comments` | a word-boundary match inside a comment |
 *
 * `rename_symbol` renames identifier tokens only, so matches in strings and
 * comments keep the old name (a message, a docstring, a `getattr(obj,
 * "name")` may need a manual look): they are a warning, with all four counts.
 *
 * @module
 */

import { preorder } from "../../parse/walk.ts";
import { type Issue, warning } from "../../base/issue.ts";
import type { Document } from "../../parse/documents.ts";
import type { Node } from "../../parse/mod.ts";
import type { NormalizedStep } from "../../plan/mod.ts";

/** Where a name occurs in a file. */
export interface Occurrences {
  definitions: number;
  references: number;
  in_strings: number;
  in_comments: number;
}

const STRING = /string|template|heredoc|regex|char_literal|character_literal/;
const DEFINITION =
  /definition|declaration|declarator|^(class|method|singleton_method|module|function_item|struct_item|enum_item|trait_item)$/;

/** Classify every occurrence of `name` in `doc` (see the module notes). */
export function classifyOccurrences(doc: Document, name: string): Occurrences {
  const counts: Occurrences = { definitions: 0, references: 0, in_strings: 0, in_comments: 0 };
  if (!name || !doc.file.text.includes(name)) return counts;
  const word = new RegExp(`(?<![\\p{L}\\p{N}_$])${escape(name)}(?![\\p{L}\\p{N}_$])`, "gu");
  preorder(doc.tree.rootNode, (node) => {
    const type = node.type;
    if (type.includes("comment")) {
      counts.in_comments += node.text.match(word)?.length ?? 0;
      return false;
    }
    if (node.childCount > 0) return true;
    if (isIdentifier(type) && node.text === name) {
      if (isDefinitionName(node)) counts.definitions++;
      else counts.references++;
    } else if (STRING.test(type) || STRING.test(node.parent?.type ?? "")) {
      counts.in_strings += node.text.match(word)?.length ?? 0;
    }
  });
  return counts;
}

/** Layer 4 for a `rename_symbol` step against the file before it. */
export function renameOccurrences(step: NormalizedStep, doc: Document): Issue[] {
  const name = step.params.old_name;
  if (step.op !== "rename_symbol" || typeof name !== "string") return [];
  const found = classifyOccurrences(doc, name);
  if (found.in_strings === 0 && found.in_comments === 0) return [];
  const file = doc.file.path;
  return [
    warning(
      "rename-in-strings",
      `Step ${step.index} (rename_symbol): '${name}' also appears in strings (${found.in_strings}x) and comments (${found.in_comments}x) of "${file}" -- rename_symbol renames code only, these keep the old name`,
      {
        step: step.index,
        layer: "4",
        file,
        path: [...step.path, "params", "old_name"],
        hint:
          `occurrences: ${found.definitions} definition(s), ${found.references} reference(s), ${found.in_strings} in strings, ${found.in_comments} in comments; change the strings and comments with replace_code if they name the symbol`,
      },
    ),
  ];
}

function isIdentifier(type: string): boolean {
  return type.endsWith("identifier") || type === "name" || type === "constant";
}

function isDefinitionName(node: Node): boolean {
  const parent = node.parent;
  if (!parent || !DEFINITION.test(parent.type)) return false;
  const named = parent.childForFieldName("name");
  return named !== null && named.startIndex === node.startIndex && named.endIndex === node.endIndex;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
