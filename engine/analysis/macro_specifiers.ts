/**
 * Unknown macros in C and C++ declarations, which the grammar cannot see
 * through.
 *
 * Headers mark declarations with object-like macros defined elsewhere:
 * `SPDLOG_INLINE void f()`, `FMT_CONSTEXPR int g()`, `EXPORT_API struct s
 * *h()`. The preprocessor removes or expands them before the compiler reads
 * the line; tree-sitter, which has no preprocessor, reads the macro as a type
 * and what follows as an error. Whether that error appears depends on what
 * follows (`SPDLOG_INLINE void` gives an ERROR node, `SPDLOG_INLINE
 * std::string` a MISSING `::`), so a new declaration written exactly like its
 * neighbours can bring a "new" syntax problem the compiler would never see.
 *
 * The test: blank every *macro specifier* (an upper-case identifier of two
 * or more characters that opens a line, or follows a `template<...>`, an
 * attribute `[[...]]` or specifier keywords (`inline`, `static`, `virtual`,
 * ...) on it, as node-addon-api's `inline NAPI_NO_SANITIZE_VPTR T* f(`,
 * and is followed by a space and a name) and every *macro qualifier* (one
 * right after a parameter list's `)` and its `const`, before `{`, `;`, `:` or `->`, as in
 * `f() SPDLOG_NOEXCEPT {`, or function-like with its arguments, as CPython's
 * `f(void) Py_DEPRECATED(3.3);`, or before a declaration that keeps its type,
 * as `Py_DEPRECATED(3.10) PyAPI_FUNC(void) f(...)`) and every *macro class annotation* (one between
 * `class` or `struct` and the name of a class being defined, as in `class
 * TINYXML2_LIB XMLNode : public ...`) and every *calling convention* (one
 * between a function's return type and its name, on one line or at the end
 * of the type's line, as in `void PNGAPI\npng_set_sig_bytes(` or `static void
 * FASTCALL hashTableInit(`; the word before it is no storage class, so an
 * upper-case type name such as `static ELEMENT_TYPE f(` stays) and every
 * *lower-case macro qualifier* (a lower-case word opening a line right before
 * a builtin type or storage class, as less's `public int f()` and `constant
 * char *s;`: no keyword or type name stands there in C or C++, so the word
 * can only be a macro) and libstdc++'s annotations (an upper-case name alone
 * on its line, as `_GLIBCXX_BEGIN_NAMESPACE_VERSION` or `_GLIBCXX20_CONSTEXPR`
 * over a declaration, and a macro between a namespace's name and its brace,
 * as `namespace std _GLIBCXX_VISIBILITY(default) {`; names may open with
 * underscores), and C++'s explicit instantiations, which the grammar
 * cannot read (`extern template class __shared_ptr<_Dir>;` read as `class
 * __shared_ptr<_Dir>;`), and K&R prototype wrappers (`__P`, zlib's `OF`:
 * `extern void LMouseMode __P((struct layer *, int));`, the name with its
 * `(` and the matching `)`, the parameter list kept), with spaces of the same length, in
 * the text before and after the edit, and parse both again. When the edit
 * brings no new problem then, its problems were the macros'. Blanking keeps
 * every offset, so the edit's span is the same in both texts. Only that
 * pattern is blanked: a broken bracket, a missing `;` or a garbage token
 * stays an error, since blanking a macro does not mend them.
 *
 * @module
 */

import type { LanguageId, SyntaxProblem } from "../parse/mod.ts";
import { syntaxProblems, withTree } from "../parse/mod.ts";

const MACRO_SPECIFIER =
  /^([ \t]*(?:template[ \t]*<[^\n]*>[ \t]*)?(?:\[\[[^\]\n]*\]\][ \t]*)?(?:(?:inline|static|extern|constexpr|virtual|explicit|friend)[ \t]+)*)(_*[A-Z][A-Z0-9_]*[A-Z0-9])(?=[ \t]+[A-Za-z_:~])/gm;

const MACRO_QUALIFIER =
  /(\)(?:[ \t]*(?:const|volatile|override|final|noexcept|&&|&))*[ \t]*)(_*[A-Z][A-Z0-9_]*[A-Z0-9])(?=[ \t]*(?:[{;:]|->|$|[A-Z]))/gm;

const MACRO_CLASS_ANNOTATION =
  /(\b(?:class|struct)[ \t]+)([A-Z][A-Z0-9_]*[A-Z0-9])(?=[ \t]+[A-Za-z_]\w*[ \t]*(?:[:{]|final\b|$))/gm;

const MACRO_CALLING_CONVENTION =
  /(\b(?!(?:static|extern|inline|const|volatile|register|typedef|return|define|struct|union|enum|class|else|case|goto|new|delete|throw)\b)[A-Za-z_]\w*[ \t]+)([A-Z][A-Z0-9_]*[A-Z0-9])(?=[ \t]*\n?[ \t]*[A-Za-z_]\w*[ \t]*\()/g;

// a function-like macro after a parameter list (`) Py_DEPRECATED(3.3);`, `) _GLIBCXX_DEPRECATED_SUGGEST("x") {`):
// a name upper case after its first underscore (never a function such as `PyUnicode_Intern(x)`), its
// arguments on the line, brackets nested twice at most
const MACRO_QUALIFIER_CALL =
  /(\)(?:[ \t]*(?:const|volatile|override|final|noexcept|&&|&))*[ \t]*)(_*[A-Z][A-Za-z0-9]*_[A-Z0-9_]*[A-Z0-9][ \t]*\((?:[^()\n]|\((?:[^()\n]|\([^()\n]*\))*\))*\))(?=[ \t]*(?:[{;:=]|->|$))/gm;

// a function-like macro opening a declaration that still has its type after it
// (`Py_DEPRECATED(3.10) PyAPI_FUNC(void) f(...)`, never the `PyAPI_FUNC(void)` that is the type)
const MACRO_SPECIFIER_CALL =
  /^([ \t]*)(_*[A-Z][A-Za-z0-9]*_[A-Z0-9_]*[A-Z0-9]\((?:[^()\n]|\([^()\n]*\))*\))(?=[ \t]+[A-Za-z_]\w*(?:\([^()\n]*\))?[ \t*]+[A-Za-z_*])/gm;

// an upper-case name alone on its line (`_GLIBCXX_BEGIN_NAMESPACE_VERSION`, `_GLIBCXX20_CONSTEXPR` over a declaration)
const MACRO_LINE = /^([ \t]*)(_*[A-Z][A-Z0-9_]*[A-Z0-9])(?=[ \t]*$)/gm;

// a macro between a namespace's name and its brace (`namespace std _GLIBCXX_VISIBILITY(default) {`)
const MACRO_NAMESPACE =
  /(\bnamespace[ \t]+[A-Za-z_][\w:]*[ \t]+)(_*[A-Z][A-Z0-9_]*[A-Z0-9](?:[ \t]*\([^()\n]*\))?)(?=[ \t]*\n?[ \t]*\{)/g;

// C++ explicit instantiations, which the grammar misreads: `extern template class __shared_ptr<_Dir>;` and
// `extern template wostream& wostream::_M_insert(long);` read as the declarations after them, `template class
// A<int>;` as `class A<int>;` (never `template <` or `template<`, which open a template's declaration)
const EXTERN_TEMPLATE = /(^|[^\w])(extern[ \t]+template)(?=[ \t\n]+[^\s<])/gm;
const INSTANTIATION =
  /(^[ \t]*)(template)(?=[ \t\n]+(?:class|struct|union)[ \t\n]+[A-Za-z_][\w:]*[ \t\n]*<[^;{}]*>[ \t\n]*;)/gm;

// the words that may stand before a builtin type at a line's start are keywords and types, never macros
const LOWER_MACRO =
  /^([ \t]*)(?!(?:typedef|static|extern|register|inline|auto|const|volatile|restrict|signed|unsigned|long|short|char|int|float|double|void|bool|struct|union|enum|class|return|case|goto|sizeof|else|do|new|delete|throw|operator|typename|template|virtual|explicit|friend|mutable|constexpr|consteval|constinit|thread_local|using|co_return|co_yield|alignas|decltype|static_assert|noexcept)\b)([a-z][a-z0-9_]*)(?=[ \t]+(?:char|short|int|long|float|double|void|signed|unsigned|struct|union|enum|static|extern|inline)\b)/gm;

// a K&R prototype wrapper between a declared name and its parameter list, which it expands to or drops
// (`extern void LMouseMode __P((struct layer *, int));`, zlib's `OF((z_streamp strm))`, `PARAMS((...))`): the
// macro's name with its `(` and the matching `)` are blanked, the parameter list (over lines too) stays
const PROTOTYPE_WRAPPER =
  /(\b(?!(?:return|sizeof|case|else|goto|throw|new|delete|typedef|define|if|while|for|switch)\b)[A-Za-z_]\w*[ \t]+)(_*[A-Z][A-Z0-9_]*\()(\((?:[^()]|\([^()]*\))*\))\)(?=[ \t]*(?:[;,)]|__attribute__|$))/gm;

/** `text` with every macro specifier, qualifier, class annotation and calling convention (see the module notes) replaced by as many spaces. */
export function blankMacroSpecifiers(text: string): string {
  const blank = (_all: string, lead: string, name: string) => lead + " ".repeat(name.length);
  const declarations = [
    MACRO_SPECIFIER,
    MACRO_QUALIFIER,
    MACRO_SPECIFIER_CALL,
    MACRO_CLASS_ANNOTATION,
    MACRO_CALLING_CONVENTION,
    LOWER_MACRO,
    MACRO_LINE,
    MACRO_NAMESPACE,
    EXTERN_TEMPLATE,
    INSTANTIATION,
  ].reduce(
    (blanked, pattern) => blanked.replace(pattern, blank),
    // first: with the wrapper gone, a calling convention before the name is followed by its `(`
    text.replace(
      PROTOTYPE_WRAPPER,
      (_all: string, lead: string, name: string, parameters: string) =>
        lead + " ".repeat(name.length) + parameters + " ",
    ),
  );
  // a function-like qualifier never in a directive: `#define F(x) G_CALL(x)` is the macro's body, and
  // blanking it leaves an empty macro whose neighbours' errors could hide an edit's
  return declarations.replace(
    MACRO_QUALIFIER_CALL,
    (all: string, lead: string, name: string, offset: number, whole: string) =>
      inDirective(whole, offset) ? all : lead + " ".repeat(name.length),
  );
}

/** Whether `offset` is on a preprocessor directive's line or one of its continuation lines. */
export function inDirective(text: string, offset: number): boolean {
  let start = text.lastIndexOf("\n", offset - 1) + 1;
  for (;;) {
    if (/^[ \t]*#/.test(text.slice(start, start + 200))) return true;
    // the line before ends with a backslash (before its newline, or before "\r\n")
    const end = text[start - 2] === "\r" ? start - 3 : start - 2;
    if (start < 2 || text[end] !== "\\") return false;
    start = text.lastIndexOf("\n", start - 2) + 1;
  }
}

/**
 * The syntax problems of a C or C++ text once its macro specifiers are
 * blanked; undefined in other languages and when the text has none (its own
 * problems are the answer then).
 */
export async function problemsWithoutMacros(
  language: LanguageId,
  text: string,
): Promise<SyntaxProblem[] | undefined> {
  if (language !== "c" && language !== "cpp") return undefined;
  const blank = blankMacroSpecifiers(text);
  if (blank === text) return undefined;
  return await withTree(language, blank, (tree) => syntaxProblems(tree));
}
