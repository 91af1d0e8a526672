/**
 * L0 in C and C++ where the grammar cannot read valid code: the compiler
 * decides. tree-sitter-cpp (2023) misreads constructs libstdc++ and other
 * template-heavy headers write on every page (`typedef value_type&
 * reference;` in a class template, `-> decltype(a, void(), true)`, `void
 * f(const T&&) = delete;`, `typename X::size_type = {}` as a default
 * argument), so an edit that writes such a declaration leaves an ERROR
 * node the comparison of error regions calls new, and no macro blanking
 * (`l0_macros.ts`) mends it. When problems remain after both, `gcc`/`g++
 * -fsyntax-only` (`verify/compile/native.ts`) judges the file before and
 * after the edit:
 *
 * - the file before the edit must compile on its own, and the file after it
 *   too; a header that needs other headers first is compiled through a file
 *   of the repository that includes it (`compile/includers.ts`), which must
 *   compile before and after the edit and demonstrably read the header
 *   where the grammar's problems are (a sentinel there is an error on that
 *   line); a header that is a copy of one installed with the compiler
 *   (libstdc++'s `bits/fs_dir.h`, whose `<filesystem>` is not in the
 *   repository) is also compiled through the installed headers that
 *   include it, which must compile as installed, then with the text after
 *   the edit, and read it where the problems are (the text before the edit
 *   may belong to another version: `experimental/bits/fs_dir.h` before, the
 *   standard one after); without such an includer the grammar's problems
 *   stand;
 * - a `<header>` none of these compiles can find is looked for one
 *   directory below the compiler's system roots (`<node_api.h>` in
 *   `/usr/include/node`, `compile/system_headers.ts`), so a library's
 *   usual `-I` does not stand between the compiler and a verdict;
 * - and what the compiler may not see must not have changed: the bracket
 *   balance of the whole file (comments and strings left out) stays the
 *   same, and the edit writes no character C and C++ never use outside a
 *   literal (`@`, `$`, a backquote). A branch of a conditional the compiler's
 *   configuration leaves out is not compiled, so garbage written there would
 *   otherwise pass.
 *
 * Then the grammar's problems were its own, and L0 reports none. Verdicts
 * are kept per text (a lift replays many candidates that end in the same
 * text), so one file costs the compiler once per distinct text.
 *
 * @module
 */

import { withoutCommentsAndStrings } from "../../base/header_language.ts";
import type { Document } from "../../parse/documents.ts";
import { editBetween } from "../../parse/documents.ts";
import { nativeCheck } from "../compile/native.ts";
import {
  compileThrough,
  type Includer,
  type IncluderRun,
  includersOf,
  installedIncludersOf,
  withSentinels,
} from "../compile/includers.ts";

/** At most this many verdicts are kept (a lift of a large header asks a few hundred times at most). */
const KEPT = 500;
const verdicts = new Map<string, Promise<boolean>>();

/** Whether the compiler clears a C or C++ edit the grammar refuses (see the module notes). */
export async function compilerClears(
  path: string,
  root: string,
  before: Document,
  after: Document,
  problemOffsets: number[] = [],
): Promise<boolean> {
  const language = after.file.language;
  if (language !== "c" && language !== "cpp") return false;
  if (!unchangedBeyondCompiler(before, after)) return false;
  const target = { root, path, language, findHeaders: true };
  if (await compiles(target, before.file.text)) return await compiles(target, after.file.text);
  return await includerClears(target, before.file.text, after.file.text, problemOffsets);
}

/**
 * A header that does not compile alone, judged through a file that includes
 * it (`compile/includers.ts`): the includer works as a context (it
 * compiles with the text before the edit; an installed includer, with the
 * installed header), it compiles with the text after the edit, and a
 * sentinel at each problem's place makes it report an error on that line
 * (it reads that text). The repository's includers are tried first, then,
 * for a copy of a header installed with the compiler, the installed ones.
 */
async function includerClears(
  target: { root: string; path: string; language: "c" | "cpp" },
  before: string,
  after: string,
  problemOffsets: number[],
): Promise<boolean> {
  if (problemOffsets.length === 0 || problemOffsets.some((offset) => onDirectiveLine(after, offset))) {
    return false;
  }
  const lists = [
    () => cachedIncluders(`${target.root}\0${target.path}`, () => includersOf(target.root, target.path)),
    () =>
      cachedIncluders(
        `\0${target.language}\0${target.path}`,
        () => installedIncludersOf(target.path, target.language),
      ),
  ];
  for (const list of lists) {
    for (const includer of await list()) {
      const run = (text: string) =>
        remembered(
          `through\0${target.language}\0${target.root}\0${target.path}\0${includer.path}\0${
            includer.installed ? "installed\0" : ""
          }${text}`,
          () => compileThrough(target.root, target.path, text, includer, target.language),
        );
      const context = includer.installed?.text ?? before;
      if ((await run(context))?.ok !== true || (await run(after))?.ok !== true) continue;
      const probe = withSentinels(after, problemOffsets);
      const probed = await run(probe.text);
      if (probed && !probed.ok && probe.lines.every((line) => probed.errorLines.has(line))) return true;
    }
  }
  return false;
}

function onDirectiveLine(text: string, offset: number): boolean {
  return /^[ \t]*#/.test(text.slice(text.lastIndexOf("\n", offset - 1) + 1));
}

const includerLists = new Map<string, Promise<Includer[]>>();
const runs = new Map<string, Promise<IncluderRun | null>>();

function cachedIncluders(key: string, find: () => Promise<Includer[]>): Promise<Includer[]> {
  let found = includerLists.get(key);
  if (!found) {
    if (includerLists.size >= 50) includerLists.delete(includerLists.keys().next().value!);
    found = find();
    includerLists.set(key, found);
  }
  return found;
}

function remembered(key: string, make: () => Promise<IncluderRun | null>): Promise<IncluderRun | null> {
  let run = runs.get(key);
  if (!run) {
    if (runs.size >= KEPT) runs.delete(runs.keys().next().value!);
    run = make();
    runs.set(key, run);
  }
  return run;
}

/** The bracket balance is kept and the edit writes no character foreign to C and C++ (see the module notes). */
function unchangedBeyondCompiler(before: Document, after: Document): boolean {
  const was = withoutCommentsAndStrings(before.file.text);
  const now = withoutCommentsAndStrings(after.file.text);
  for (const [open, close] of [["{", "}"], ["(", ")"], ["[", "]"]]) {
    if (balance(was, open, close) !== balance(now, open, close)) return false;
  }
  const edit = editBetween(before, after);
  if (!edit) return true;
  return !/[@$`]/.test(now.slice(edit.startIndex, edit.newEndIndex));
}

function balance(text: string, open: string, close: string): number {
  return text.split(open).length - text.split(close).length;
}

async function compiles(
  target: { root: string; path: string; language: "c" | "cpp"; findHeaders: boolean },
  text: string,
) {
  const key = `${target.language}\0${target.root}\0${target.path}\0${text}`;
  let verdict = verdicts.get(key);
  if (!verdict) {
    if (verdicts.size >= KEPT) verdicts.delete(verdicts.keys().next().value!);
    verdict = nativeCheck(target, text).then((found) => found?.ok === true);
    verdicts.set(key, verdict);
  }
  return await verdict;
}
