/**
 * Reading Aider-style SEARCH/REPLACE blocks:
 *
 * ````text
 * src/app.py
 * ```python
 * <<<<<<< SEARCH
 *     return a + b
 * =======
 *     return a - b
 * >>>>>>> REPLACE
 * ```
 * ````
 *
 * The file name is the last non-blank line before the fence (or before the
 * `<<<<<<< SEARCH` line when there is no fence, or the first line inside the
 * fence); a block without one uses the previous block's file. Markers may
 * have 5 to 9 angle brackets or equals signs, as Aider accepts.
 *
 * @module
 */

import { error, type Issue } from "../base/issue.ts";

/** One SEARCH/REPLACE block. */
export interface SearchReplaceBlock {
  /** 0-based index among the blocks (the block's "hunk" index). */
  index: number;
  file: string;
  search: string;
  replace: string;
  /** 1-based line of the `<<<<<<< SEARCH` marker in the input. */
  inputLine: number;
}

/** Blocks and every problem found reading them. */
export interface ParsedSearchReplace {
  blocks: SearchReplaceBlock[];
  issues: Issue[];
}

const SEARCH = /^<{5,9} ?SEARCH\s*$/;
const DIVIDER = /^={5,9}\s*$/;
const REPLACE = /^>{5,9} ?REPLACE\s*$/;
const FENCE = /^(```|~~~)/;

/** Read SEARCH/REPLACE blocks (see the module notes). */
export function parseSearchReplace(text: string): ParsedSearchReplace {
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  const blocks: SearchReplaceBlock[] = [];
  const issues: Issue[] = [];
  let file: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    if (!SEARCH.test(lines[i])) continue;
    const named = fileNameBefore(lines, i);
    if (named) file = named;
    const start = i;
    const search: string[] = [];
    const replace: string[] = [];
    let j = i + 1;
    while (j < lines.length && !DIVIDER.test(lines[j])) search.push(lines[j++]);
    const dividerAt = j;
    j++;
    while (j < lines.length && !REPLACE.test(lines[j])) replace.push(lines[j++]);
    if (dividerAt >= lines.length || j >= lines.length) {
      issues.push(error("search-replace-invalid", `The block at line ${start + 1} is not closed`, {
        line: start + 1,
        hint: 'a block is "<<<<<<< SEARCH", the old lines, "=======", the new lines, ">>>>>>> REPLACE"',
      }));
      break;
    }
    i = j;
    if (!file) {
      issues.push(error("search-replace-invalid", `The block at line ${start + 1} names no file`, {
        line: start + 1,
        hint: "put the file's path on the line before the opening fence",
      }));
      continue;
    }
    blocks.push({
      index: blocks.length,
      file,
      search: joinLines(search),
      replace: joinLines(replace),
      inputLine: start + 1,
    });
  }
  if (blocks.length === 0 && issues.length === 0) {
    issues.push(error("search-replace-empty", "The input has no SEARCH/REPLACE block: nothing to lift", {
      hint: 'a block is "<<<<<<< SEARCH", the old lines, "=======", the new lines, ">>>>>>> REPLACE"',
    }));
  }
  return { blocks, issues };
}

function joinLines(lines: string[]): string {
  return lines.length === 0 ? "" : lines.join("\n") + "\n";
}

/** The file name written just before the block (skipping the fence), if any. */
function fileNameBefore(lines: string[], at: number): string | undefined {
  let k = at - 1;
  if (k >= 0 && FENCE.test(lines[k].trim())) {
    k--;
  } else if (k >= 0 && !REPLACE.test(lines[k]) && lines[k].trim() !== "" && k - 1 >= 0) {
    // The name as the first line inside the fence.
    if (FENCE.test(lines[k - 1].trim())) return cleanName(lines[k]);
  }
  while (k >= 0 && lines[k].trim() === "") k--;
  if (k < 0) return undefined;
  const candidate = lines[k].trim();
  if (REPLACE.test(candidate) || FENCE.test(candidate) || DIVIDER.test(candidate)) return undefined;
  return cleanName(candidate);
}

function cleanName(line: string): string | undefined {
  const name = line.trim().replace(/^[#*`\s]+|[*`:\s]+$/g, "");
  return name === "" || /\s{2,}/.test(name) ? undefined : name;
}
