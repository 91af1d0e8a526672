/**
 * Where a code parameter is parsed, per language: the smallest file around
 * a value that puts it in its grammatical role (an expression in
 * parentheses, statements in a function body, a type where a variable's
 * type goes, a parameter list, an import at the top of a file). Python and
 * JavaScript keep their own contexts in `params.ts`; the other languages
 * are described here as data, so a new language is one entry.
 *
 * | language | expression              | statements                 | type                 |
 * | -------- | ----------------------- | -------------------------- | -------------------- |
 * | go       | `_ = (v)` in a func     | a func body                | `var __x T`          |
 * | rust     | `let __x = (v);` in a fn| a fn body                  | `let __x: T;`        |
 * | java     | `Object __x = (v);`     | a method body              | a field's type       |
 * | c, cpp   | `__x = (v);` in a func  | a function body            | a declaration's type |
 * | php      | `$__x = (v);`           | a function body            | a parameter's type   |
 * | ruby     | `__x = (v)`             | a method body              | none                 |
 *
 * @module
 */

import type { LanguageId } from "../parse/mod.ts";

/** How values of one language are wrapped to be parsed in their role. */
export interface SnippetContext {
  /** Text before and after an expression written inside `(` ... `)` (the parentheses are the context's). */
  expression: [string, string];
  /** Text before and after a body of statements. */
  statements: [string, string];
  /** Text before and after a type, when the language writes types. */
  type?: [string, string];
  /** Text before and after a parameter list's inside. */
  parameters: [string, string];
  /** Text before an import statement, and the node types one may be. */
  importPrefix: string;
  imports: string[];
  /** An example import for hints. */
  importExample: string;
  /** How statements start, to tell a statement given as an expression. */
  statementStart: RegExp;
}

const C_STATEMENTS =
  /^\s*(return|break|continue|goto|if|for|while|do|switch|int|char|void|struct|static|const)\b/;

/** The contexts of the languages `params.ts` does not handle itself. */
export const SNIPPET_CONTEXTS: Partial<Record<LanguageId, SnippetContext>> = {
  go: {
    expression: ["package p\nfunc _() {\n_ = (\n", "\n)\n}\n"],
    statements: ["package p\nfunc __f() {\n", "\n}\n"],
    type: ["package p\nvar __x ", "\n"],
    parameters: ["package p\nfunc __f(", ") {}\n"],
    importPrefix: "package p\n",
    imports: ["import_declaration"],
    importExample: 'import "strings"',
    statementStart: /^\s*(return|break|continue|goto|if|for|switch|select|go|defer|var|const|type|func)\b/,
  },
  rust: {
    expression: ["fn __f() {\nlet __x = (\n", "\n);\n}\n"],
    statements: ["fn __f() {\n", "\n}\n"],
    type: ["fn __f() {\nlet __x: ", ";\n}\n"],
    parameters: ["fn __f(", ") {}\n"],
    importPrefix: "",
    imports: ["use_declaration", "extern_crate_declaration"],
    importExample: "use std::collections::HashMap;",
    statementStart: /^\s*(return|break|continue|let|if|for|while|loop|match|fn|use|struct|enum|impl)\b/,
  },
  java: {
    expression: ["class __C {\nvoid __f() {\nObject __x = (\n", "\n);\n}\n}\n"],
    statements: ["class __C {\nvoid __f() {\n", "\n}\n}\n"],
    type: ["class __C {\n", " __x;\n}\n"],
    parameters: ["class __C {\nvoid __f(", ") {}\n}\n"],
    importPrefix: "",
    imports: ["import_declaration"],
    importExample: "import java.util.List;",
    statementStart:
      /^\s*(return|throw|break|continue|if|for|while|do|switch|try|var|final|int|long|boolean)\b/,
  },
  c: {
    expression: ["void __f(void) {\n__x = (\n", "\n);\n}\n"],
    statements: ["void __f(void) {\n", "\n}\n"],
    type: ["", " __x;\n"],
    parameters: ["void __f(", ") {}\n"],
    importPrefix: "",
    imports: ["preproc_include"],
    importExample: "#include <string.h>",
    statementStart: C_STATEMENTS,
  },
  cpp: {
    expression: ["void __f() {\n__x = (\n", "\n);\n}\n"],
    statements: ["void __f() {\n", "\n}\n"],
    type: ["", " __x;\n"],
    parameters: ["void __f(", ") {}\n"],
    importPrefix: "",
    imports: ["preproc_include", "using_declaration"],
    importExample: "#include <string>",
    statementStart: C_STATEMENTS,
  },
  php: {
    expression: ["<?php\n$__x = (\n", "\n);\n"],
    statements: ["<?php\nfunction __f() {\n", "\n}\n"],
    type: ["<?php\nfunction __f(", " $__x) {}\n"],
    parameters: ["<?php\nfunction __f(", ") {}\n"],
    importPrefix: "<?php\n",
    imports: ["namespace_use_declaration", "expression_statement"],
    importExample: "use Monolog\\Logger;",
    statementStart: /^\s*(return|throw|break|continue|if|for|foreach|while|do|switch|try|echo|function)\b/,
  },
  ruby: {
    expression: ["__x = (\n", "\n)\n"],
    statements: ["def __f\n", "\nend\n"],
    parameters: ["def __f(", ")\nend\n"],
    importPrefix: "",
    imports: ["call"],
    importExample: 'require "set"',
    statementStart: /^\s*(return|raise|break|next|if|unless|while|until|case|def|class|module|begin)\b/,
  },
};
