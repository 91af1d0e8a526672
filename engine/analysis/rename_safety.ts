/**
 * Safety checks for renames, shared with the rename operators:
 *
 * - `checkNewName(name, language)`: the new name is an identifier and not
 *   a reserved word (an error otherwise);
 * - `bindingCollisions(doc, bindingNode, newName)` (Python): renaming the
 *   binding at `bindingNode` to `newName` must not merge it with a binding
 *   already visible where it is used, nor capture existing uses of
 *   `newName` (errors); shadowing an outer or builtin `newName`, or being
 *   shadowed by an inner one, is a warning.
 *
 * @module
 */

import { error, type Issue, warning } from "../base/issue.ts";
import type { Document } from "../parse/documents.ts";
import type { LanguageId, Node } from "../parse/mod.ts";
import {
  bindingAt,
  innerScopeNodes,
  occurrencesOf,
  referencesTo,
  resolveName,
  type Scope,
  scopeOfNode,
} from "./scope.ts";
import { clip } from "./quote.ts";

// deno-fmt-ignore
const PYTHON_KEYWORDS = [
  "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue", "def",
  "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is",
  "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with", "yield",
];
// deno-fmt-ignore
const JS_KEYWORDS = [
  "break", "case", "catch", "class", "const", "continue", "debugger", "default", "delete", "do", "else",
  "enum", "export", "extends", "false", "finally", "for", "function", "if", "import", "in", "instanceof",
  "new", "null", "return", "super", "switch", "this", "throw", "true", "try", "typeof", "var", "void",
  "while", "with", "yield", "let", "static", "implements", "interface", "package", "private", "protected",
  "public", "await",
];
const KEYWORDS: Record<LanguageId, string[]> = {
  text: [],
  python: PYTHON_KEYWORDS,
  javascript: JS_KEYWORDS,
  typescript: JS_KEYWORDS,
  tsx: JS_KEYWORDS,
  // deno-fmt-ignore
  java: [
    "abstract", "assert", "boolean", "break", "byte", "case", "catch", "char", "class", "const",
    "continue", "default", "do", "double", "else", "enum", "extends", "final", "finally", "float", "for",
    "goto", "if", "implements", "import", "instanceof", "int", "interface", "long", "native", "new",
    "package", "private", "protected", "public", "return", "short", "static", "strictfp", "super",
    "switch", "synchronized", "this", "throw", "throws", "transient", "try", "void", "volatile", "while",
    "true", "false", "null", "_",
  ],
  // deno-fmt-ignore
  go: [
    "break", "case", "chan", "const", "continue", "default", "defer", "else", "fallthrough", "for", "func",
    "go", "goto", "if", "import", "interface", "map", "package", "range", "return", "select", "struct",
    "switch", "type", "var",
  ],
  // deno-fmt-ignore
  rust: [
    "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern",
    "false", "fn", "for", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref",
    "return", "self", "Self", "static", "struct", "super", "trait", "true", "type", "unsafe", "use",
    "where", "while",
  ],
  // deno-fmt-ignore
  ruby: [
    "BEGIN", "END", "alias", "and", "begin", "break", "case", "class", "def", "defined?", "do", "else",
    "elsif", "end", "ensure", "false", "for", "if", "in", "module", "next", "nil", "not", "or", "redo",
    "rescue", "retry", "return", "self", "super", "then", "true", "undef", "unless", "until", "when",
    "while", "yield",
  ],
  // deno-fmt-ignore
  php: [
    "abstract", "and", "array", "as", "break", "callable", "case", "catch", "class", "clone", "const",
    "continue", "declare", "default", "do", "echo", "else", "elseif", "empty", "enddeclare", "endfor",
    "endforeach", "endif", "endswitch", "endwhile", "extends", "final", "finally", "fn", "for", "foreach",
    "function", "global", "goto", "if", "implements", "include", "instanceof", "insteadof", "interface",
    "isset", "list", "match", "namespace", "new", "or", "print", "private", "protected", "public",
    "require", "return", "static", "switch", "throw", "trait", "try", "unset", "use", "var", "while",
    "xor", "yield",
  ],
  // deno-fmt-ignore
  c: [
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum",
    "extern", "float", "for", "goto", "if", "inline", "int", "long", "register", "restrict", "return",
    "short", "signed", "sizeof", "static", "struct", "switch", "typedef", "union", "unsigned", "void",
    "volatile", "while",
  ],
  // deno-fmt-ignore
  cpp: [
    "alignas", "alignof", "auto", "bool", "break", "case", "catch", "char", "class", "const", "constexpr",
    "const_cast", "continue", "decltype", "default", "delete", "do", "double", "dynamic_cast", "else",
    "enum", "explicit", "export", "extern", "false", "float", "for", "friend", "goto", "if", "inline",
    "int", "long", "mutable", "namespace", "new", "noexcept", "nullptr", "operator", "private",
    "protected", "public", "register", "reinterpret_cast", "return", "short", "signed", "sizeof", "static",
    "static_assert", "static_cast", "struct", "switch", "template", "this", "throw", "true", "try",
    "typedef", "typeid", "typename", "union", "unsigned", "using", "virtual", "void", "volatile", "while",
  ],
};

const IDENTIFIER: Partial<Record<LanguageId, RegExp>> = {
  python: /^[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]*$/u,
  javascript: /^[\p{L}\p{Nl}_$][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}$]*$/u,
  typescript: /^[\p{L}\p{Nl}_$][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}$]*$/u,
  tsx: /^[\p{L}\p{Nl}_$][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}$]*$/u,
  ruby: /^[\p{L}_][\p{L}\p{Nd}_]*[?!=]?$/u,
  php: /^\$?[\p{L}_][\p{L}\p{Nd}_]*$/u,
};
const DEFAULT_IDENTIFIER = /^[\p{L}_][\p{L}\p{Nd}_]*$/u;

/** Errors when `name` is not a valid, non-reserved identifier in `language` (empty when it is). */
export function checkNewName(name: string, language: LanguageId): Issue[] {
  const pattern = IDENTIFIER[language] ?? DEFAULT_IDENTIFIER;
  if (typeof name !== "string" || !pattern.test(name)) {
    return [error("rename-invalid-name", `New name "${clip(name)}" is not a valid ${language} identifier`)];
  }
  if (KEYWORDS[language].includes(name.replace(/^\$/, ""))) {
    return [error("rename-keyword", `New name "${clip(name)}" is a reserved word in ${language}`)];
  }
  return [];
}

function within(inner: Scope, outer: Scope): boolean {
  return inner !== outer && inner.node.startIndex >= outer.node.startIndex &&
    inner.node.endIndex <= outer.node.endIndex;
}

/**
 * Problems with renaming the binding at `bindingNode` (an identifier that
 * binds a name: a definition, parameter, assignment target or import alias)
 * to `newName`. Python only; other languages return no findings.
 */
export function bindingCollisions(doc: Document, bindingNode: Node, newName: string): Issue[] {
  if (doc.file.language !== "python") return [];
  const file = doc.file.path;
  const found = bindingAt(doc, bindingNode);
  if (!found) {
    return [
      error("rename-not-binding", `Cannot rename "${clip(bindingNode.text)}": it does not bind a name here`, {
        file,
        line: bindingNode.startPosition.row + 1,
      }),
    ];
  }
  const { scope, binding } = found;
  const issues: Issue[] = [];
  const at = (node: Node | number) => typeof node === "number" ? node : node.startPosition.row + 1;
  const same = scope.bindings.get(newName);
  if (same && same.length > 0) {
    issues.push(
      error(
        "rename-collision",
        `Cannot rename "${clip(binding.name)}" to "${clip(newName)}": "${
          clip(newName)
        }" is already bound in the same scope`,
        {
          file,
          line: same[0].line,
        },
      ),
    );
    return issues;
  }
  const references = referencesTo(doc, binding);
  // an inner binding of newName between a use and the renamed binding captures the use
  for (const reference of references) {
    const resolution = resolveName(doc, newName, reference);
    if (resolution.status === "bound" && resolution.scope && within(resolution.scope, scope)) {
      issues.push(
        error(
          "rename-collision",
          `Cannot rename "${clip(binding.name)}" to "${clip(newName)}": the use at line ${
            at(reference)
          } would refer to the "${clip(newName)}" bound at line ${resolution.binding?.line ?? "?"}`,
          {
            file,
            line: at(reference),
          },
        ),
      );
      return issues;
    }
  }
  // existing uses of an outer newName inside the scope would be captured by the renamed binding
  const from = scope.kind === "module" ? 0 : scope.node.startIndex;
  const to = scope.kind === "module" ? doc.file.text.length : scope.node.endIndex;
  for (const { node, role } of occurrencesOf(doc, newName, { from, to })) {
    if (role !== "reference") continue;
    const now = resolveName(doc, newName, node);
    if (now.scope && (now.scope === scope || within(now.scope, scope))) continue;
    const old = resolveName(doc, binding.name, node);
    if (old.scope !== scope) continue;
    issues.push(
      error(
        "rename-collision",
        `Cannot rename "${clip(binding.name)}" to "${clip(newName)}": the existing use of "${
          clip(newName)
        }" at line ${at(node)} would refer to the renamed binding`,
        {
          file,
          line: at(node),
        },
      ),
    );
    return issues;
  }
  // shadowing an outer binding or a builtin
  const outer = scope.parent ? resolveName(doc, newName, scope.node) : resolveName(doc, newName, bindingNode);
  if (outer.status === "builtin" || (outer.status === "bound" && outer.scope !== scope)) {
    issues.push(
      warning(
        "rename-shadows",
        `Renaming "${clip(binding.name)}" to "${clip(newName)}" shadows ${
          outer.status === "builtin" ? "the builtin" : "an outer"
        } "${clip(newName)}"`,
        {
          file,
          line: binding.line,
        },
      ),
    );
  }
  // being shadowed by an inner binding
  for (const inner of innerScopeNodes(scope)) {
    const innerScope = scopeOfNode(doc, inner);
    const shadow = innerScope.bindings.get(newName);
    if (shadow && shadow.length > 0) {
      issues.push(
        warning(
          "rename-shadowed",
          `Renamed "${clip(newName)}" is shadowed by the "${clip(newName)}" bound at line ${shadow[0].line}`,
          {
            file,
            line: shadow[0].line,
          },
        ),
      );
      break;
    }
  }
  return issues;
}
