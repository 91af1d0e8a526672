/**
 * Which grammar reads a `.h` file: C by its extension, C++ when the file or
 * its project says so. tree-sitter-c reads `namespace spdlog {` as an ERROR
 * and a call, so a C++ header parsed as C loses its classes and functions to
 * error recovery, and locating `basic_memory_buffer` fails.
 *
 * Two signs, either enough:
 * - the text, comments and strings left out, has a construct C lacks
 *   (`namespace x {`, `template <`, `class X {`/`class X :`, an access label,
 *   `std::`, `using namespace`, a standard header without `.h`);
 *   `extern "C"` inside `#ifdef __cplusplus` is not one: C headers write it
 *   for C++ callers;
 * - its directory holds C++ sources or headers (`.cpp`, `.cc`, `.cxx`,
 *   `.hpp`, `.hh`, `.hxx`) and no `.c` file.
 *
 * @module
 */

import type { LanguageId } from "./languages.ts";

const CPP_CONSTRUCTS = [
  /^\s*namespace\s+[\w:]*\s*\{/m,
  /^\s*(?:export\s+)?template\s*</m,
  /^\s*(?:class|struct)\s+(?:\w+\s+)?\w+(?:\s+final)?\s*:\s*(?:public|private|protected|virtual)\b/m,
  /^\s*class\s+(?:\w+\s+)?\w+(?:\s+final)?\s*(?:\{|$)/m,
  /^\s*(?:public|private|protected)\s*:/m,
  /\bstd::\w/,
  /^\s*using\s+namespace\b/m,
  /^\s*#\s*include\s*<(?:iostream|string|vector|memory|map|unordered_map|utility|functional|algorithm|atomic|mutex|thread|chrono|cstdio|cstdlib|cstring|cstdint|type_traits|array|sstream|ostream|istream|exception|stdexcept|initializer_list|tuple|limits|iterator|list|set|deque|condition_variable)>/m,
];

const CPP_SOURCES = /\.(?:cpp|cc|cxx|hpp|hh|hxx|ipp|tpp)$/i;

/** The language of a `.h` file from its text and, when `absPath` is given, its directory (see the module notes). */
export function headerLanguage(text: string, absPath?: string): LanguageId {
  const code = withoutCommentsAndStrings(text);
  if (CPP_CONSTRUCTS.some((pattern) => pattern.test(code))) return "cpp";
  if (absPath && directoryIsCpp(absPath.slice(0, absPath.lastIndexOf("/")))) return "cpp";
  return "c";
}

/** Whether `path` is a header whose language `headerLanguage` decides. */
export function isAmbiguousHeader(path: string): boolean {
  return /\.h$/i.test(path);
}

/** Directory verdicts, kept a few seconds: a graph of a large C project reads many headers of one directory. */
const directories = new Map<string, { at: number; cpp: boolean }>();
const TTL_MS = 5_000;

function directoryIsCpp(dir: string): boolean {
  const known = directories.get(dir);
  if (known && Date.now() - known.at < TTL_MS) return known.cpp;
  if (directories.size > 1_000) directories.clear();
  const cpp = listingIsCpp(dir);
  directories.set(dir, { at: Date.now(), cpp });
  return cpp;
}

function listingIsCpp(dir: string): boolean {
  let cpp = false;
  try {
    for (const entry of Deno.readDirSync(dir)) {
      if (!entry.isFile) continue;
      if (entry.name.endsWith(".c")) return false;
      if (CPP_SOURCES.test(entry.name)) cpp = true;
    }
  } catch {
    return false; // no directory to look at: the text decides alone
  }
  return cpp;
}

/** A C or C++ text with comments, string and character literals blanked (lengths kept). */
export function withoutCommentsAndStrings(text: string): string {
  return text.replace(
    /\/\*[\s\S]*?\*\/|\/\/[^\n]*|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'/g,
    (match) => match.replace(/[^\n]/g, " "),
  );
}
