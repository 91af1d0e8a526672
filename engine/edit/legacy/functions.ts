/**
 * The legacy operators that find a function by name:
 * `modify_function_signature` and `replace_function_body`.
 *
 * `func_name` is a plain name (`save`) or qualified by its class
 * (`Model.save`), which picks one of several methods of that name. Several
 * matches are an error listing them with their lines.
 *
 * - `modify_function_signature` looks for `old_signature` in the function's
 *   header (from `def`/the return type to the start of its body): exactly,
 *   else ignoring whitespace (with a warning). It must occur once.
 * - `replace_function_body` replaces the body block. In Python that is
 *   everything after the header's `:` line (comments before the first
 *   statement included) and the new body is re-indented to the block's
 *   indentation; in brace languages it is the text between the braces (a
 *   new body given with its own braces loses them).
 *
 * @module
 */

import { kindNodeTypes } from "../../locate/kinds.ts";
import { fail, warning } from "../../base/issue.ts";
import type { Document } from "../../parse/documents.ts";
import { firstLine, type Node } from "../../parse/mod.ts";
import { looseMatches } from "../fuzzy.ts";
import { detectIndentUnit, lineIndent, lineStart, nextLineStart, reindent } from "../indent.ts";
import type { OperatorFn, StepContext } from "../operator.ts";
import { closestNames, didYouMean } from "../../base/suggest.ts";
import { at, prepare, preview } from "./_util.ts";

const CLASS_TYPE =
  /^(class_definition|class_declaration|class|class_specifier|struct_specifier|struct_item|impl_item|trait_item|interface_declaration|enum_declaration|module|abstract_class_declaration|object|record_declaration)$/;

/** A function found by name. */
interface FoundFunction {
  node: Node;
  name: string;
  /** Enclosing class-like names, outermost first. */
  owners: string[];
}

/** The name a function-like node defines, if any. */
function functionName(node: Node): string | undefined {
  const named = node.childForFieldName("name");
  if (named) return named.text;
  // C/C++: follow the declarator chain to the identifier.
  let declarator = node.childForFieldName("declarator");
  while (declarator) {
    if (/identifier$|^qualified_identifier$|^destructor_name$|^operator_name$/.test(declarator.type)) {
      const text = declarator.text;
      return text.slice(text.lastIndexOf("::") + (text.includes("::") ? 2 : 0));
    }
    declarator = declarator.childForFieldName("declarator") ?? declarator.namedChildren.find((c) =>
      c !== null
    ) ?? null;
  }
  // JS: `const f = () => ...`, `f: function () {...}`, `this.f = function () {...}`.
  const parent = node.parent;
  if (!parent) return undefined;
  if (parent.type === "variable_declarator") return parent.childForFieldName("name")?.text;
  if (parent.type === "pair") return parent.childForFieldName("key")?.text;
  if (parent.type === "assignment_expression") {
    const left = parent.childForFieldName("left");
    return left?.type === "member_expression" ? left.childForFieldName("property")?.text : left?.text;
  }
  return undefined;
}

function ownerName(node: Node): string | undefined {
  return (node.childForFieldName("name") ?? node.childForFieldName("type"))?.text;
}

/** Every function-like node of `doc` named `wanted` (`name` or `Class.name`). */
export function findFunctions(doc: Document, wanted: string): { found: FoundFunction[]; all: string[] } {
  // The locators' node types for "function" (methods included), per language.
  const types = new Set(kindNodeTypes("function", doc.file.language));
  const parts = wanted.split(".");
  const name = parts[parts.length - 1];
  const qualifier = parts.slice(0, -1);
  const found: FoundFunction[] = [];
  const all: string[] = [];
  const stack: { node: Node; owners: string[] }[] = [{ node: doc.tree.rootNode, owners: [] }];
  while (stack.length > 0) {
    const { node, owners } = stack.pop()!;
    let inner = owners;
    if (types.has(node.type)) {
      const fnName = functionName(node);
      if (fnName) {
        all.push(fnName);
        const qualified = qualifier.length === 0 ||
          qualifier.join(".") === owners.slice(owners.length - qualifier.length).join(".");
        if (fnName === name && qualified) found.push({ node, name: fnName, owners });
      }
    } else if (CLASS_TYPE.test(node.type)) {
      const owner = ownerName(node);
      if (owner) inner = [...owners, owner];
    }
    for (let i = node.namedChildCount - 1; i >= 0; i--) {
      const child = node.namedChild(i);
      if (child) stack.push({ node: child, owners: inner });
    }
  }
  found.sort((a, b) => a.node.startIndex - b.node.startIndex);
  return { found, all };
}

/** The single function named `funcName`, or an error (not found / ambiguous). */
function theFunction(doc: Document, funcName: string, ctx: StepContext, file: string): FoundFunction {
  const { found, all } = findFunctions(doc, funcName);
  if (found.length === 0) {
    fail("function-not-found", `Function '${funcName}' not found in "${file}"`, {
      ...at(ctx, file, "func_name"),
      hint: didYouMean(closestNames(funcName.split(".").pop()!, all)) ?? "check the name and the file",
    });
  }
  if (found.length > 1) {
    fail("function-ambiguous", `${found.length} functions named '${funcName}' in "${file}"`, {
      ...at(ctx, file, "func_name", found[0].node.startPosition.row + 1),
      hint: 'qualify the name with its class, e.g. "ClassName.method"',
      candidates: found.map((f) => ({
        file,
        line: f.node.startPosition.row + 1,
        kind: f.owners.length > 0 ? `method of ${f.owners.join(".")}` : "function",
        text: firstLine(f.node.text),
      })),
    });
  }
  return found[0];
}

/** The body node of a function, if it has one. */
function bodyOf(node: Node): Node | null {
  return node.childForFieldName("body");
}

/** The legacy `modify_function_signature` operator. */
export const modifyFunctionSignature: OperatorFn = async (params, ctx) => {
  const { p, doc, file } = await prepare<{
    file: string;
    func_name: string;
    old_signature: string;
    new_signature: string;
  }>("modify_function_signature", params, ctx);
  const fn = theFunction(doc, p.func_name, ctx, file);
  const text = doc.file.text;
  const headerStart = fn.node.startIndex;
  const headerEnd = bodyOf(fn.node)?.startIndex ?? fn.node.endIndex;
  const header = text.slice(headerStart, headerEnd);
  const exact: number[] = [];
  for (let i = header.indexOf(p.old_signature); i !== -1; i = header.indexOf(p.old_signature, i + 1)) {
    exact.push(i);
  }
  let start: number;
  let end: number;
  let replacement = p.new_signature;
  if (exact.length === 1) {
    start = headerStart + exact[0];
    end = start + p.old_signature.length;
  } else if (exact.length > 1) {
    fail(
      "signature-ambiguous",
      `Old signature occurs ${exact.length} times in the header of '${p.func_name}'`,
      {
        ...at(ctx, file, "old_signature", fn.node.startPosition.row + 1),
        hint: "give the whole signature",
      },
    );
  } else {
    const loose = looseMatches(header, p.old_signature, p.new_signature);
    if (loose.length !== 1) {
      fail(
        loose.length === 0 ? "signature-not-found" : "signature-ambiguous",
        `Old signature not found in function '${p.func_name}' of "${file}": ${preview(p.old_signature)}`,
        {
          ...at(ctx, file, "old_signature", fn.node.startPosition.row + 1),
          hint: `its header is ${preview(header.trimEnd(), 120)}`,
        },
      );
    }
    start = headerStart + loose[0].start;
    end = headerStart + loose[0].end;
    replacement = loose[0].replacement;
    ctx.warnings.push(warning(
      "match-whitespace",
      `Old signature not found exactly; matched ignoring whitespace in '${p.func_name}' of "${file}": ${
        preview(loose[0].text)
      }`,
      { step: ctx.step, file, line: fn.node.startPosition.row + 1, path: ["params", "old_signature"] },
    ));
  }
  await ctx.edit(file, "modify_function_signature", [{ start, end, replacement }]);
  return { file, line: fn.node.startPosition.row + 1 };
};

/** The legacy `replace_function_body` operator. */
export const replaceFunctionBody: OperatorFn = async (params, ctx) => {
  const { p, doc, file } = await prepare<{ file: string; func_name: string; new_body: string }>(
    "replace_function_body",
    params,
    ctx,
  );
  const fn = theFunction(doc, p.func_name, ctx, file);
  const body = bodyOf(fn.node);
  if (!body) {
    fail("function-body-not-found", `Function '${p.func_name}' in "${file}" has no body block`, {
      ...at(ctx, file, "func_name", fn.node.startPosition.row + 1),
    });
  }
  const text = doc.file.text;
  const eol = doc.file.eol;
  const unit = detectIndentUnit(text);
  const language = doc.file.language;
  const fnIndent = lineIndent(text, fn.node.startIndex);
  let start: number;
  let end: number;
  let replacement: string;
  const braced = text[body.startIndex] === "{" && text[body.endIndex - 1] === "}";
  if (braced) {
    let code = p.new_body.trim();
    if (code.startsWith("{") && code.endsWith("}")) {
      code = code.slice(1, -1).replace(/^[ \t]*\r?\n/, "").trimEnd();
    }
    const inner = await reindent(code, { indent: fnIndent + unit, unit, eol, language });
    start = body.startIndex + 1;
    end = body.endIndex - 1;
    replacement = inner.trim() === "" ? "" : `${eol}${inner}${eol}${fnIndent}`;
  } else {
    // Python-like: the block after the header's ':'.
    const colon = body.previousSibling;
    const headerEnd = colon ? colon.endIndex : body.startIndex;
    const sameLine = text.slice(headerEnd, body.startIndex).indexOf("\n") === -1;
    const indent = sameLine ? fnIndent + unit : lineIndent(text, body.startIndex);
    const code = await reindent(p.new_body, { indent, unit, eol, language });
    if (code.trim() === "") {
      fail("code-empty", `The new body of '${p.func_name}' is empty`, at(ctx, file, "new_body"));
    }
    if (sameLine) {
      start = headerEnd;
      replacement = eol + code;
    } else {
      start = nextLineStart(text, headerEnd);
      if (start > lineStart(text, body.startIndex)) start = lineStart(text, body.startIndex);
      replacement = code;
    }
    end = body.endIndex;
  }
  await ctx.edit(file, "replace_function_body", [{ start, end, replacement }]);
  return { file, line: fn.node.startPosition.row + 1 };
};
