/**
 * L5 interface compatibility (Python): when an edit changes a function's
 * signature (a parameter added without a default, removed, reordered) or
 * renames or deletes a method, its call sites in the file and its
 * importers elsewhere in the repository are checked, and each call that
 * fitted the old signature but not the new one (or uses a method that is
 * gone) is listed with its file and line. A module-level function that is
 * removed or renamed leaves dangling uses, which L3 reports as errors
 * (`l3_dangling.ts`).
 *
 * Other files are found through `CheckEnv.store`: the workspace's Python
 * files whose text mentions the name (see `analysis/repo_files.ts`). A
 * module-level function is checked where a file imports it from the changed
 * module; a method where a file imports its class (the receiver's type is
 * unknown, so any `.name(...)` call there counts).
 *
 * @module
 */

import { type Issue, warning } from "../../base/issue.ts";
import type { Document } from "../../parse/documents.ts";
import type { Node } from "../../parse/mod.ts";
import { type Binding, moduleScope, resolveName, wordOccurrences } from "../../analysis/scope.ts";
import { definitionsIn } from "./defs.ts";
import type { CheckEnv, FileChange } from "./mod.ts";
import { editSpans } from "./region.ts";
import { filesMentioning } from "../../analysis/repo_files.ts";
import {
  argumentsOf,
  callProblem,
  isStaticMethod,
  type Parameter,
  reordered,
  signatureOf,
} from "./signature.ts";
import { clip } from "./quote.ts";
import { checkArity } from "./l5_arity.ts";

/** A change to a callable's interface. */
interface InterfaceChange {
  qualname: string;
  name: string;
  /** The class name for a method. */
  className?: string;
  line: number;
  before?: Parameter[];
  after?: Parameter[];
  /** Deleted (and possibly renamed to `renamedTo`). */
  deleted: boolean;
  renamedTo?: string;
}

/** L5: callers of changed signatures and users of removed symbols. */
export async function checkInterface(change: FileChange, env: CheckEnv): Promise<Issue[]> {
  if (change.after.file.language !== "python") return checkArity(change, env);
  const changes = interfaceChanges(change);
  if (changes.length === 0) return [];
  const issues: Issue[] = [];
  const details = { level: "L5", step: env.step };
  const report = (file: string, node: Node, message: string, item: InterfaceChange) =>
    issues.push(warning("interface-mismatch", message, {
      ...details,
      file,
      line: node.startPosition.row + 1,
      hint: item.deleted
        ? `update the use at "${file}:${node.startPosition.row + 1}" or keep "${clip(item.name)}"`
        : `"${
          clip(item.qualname)
        }" is defined at "${change.path}:${item.line}"; update the call or give the new parameter a default`,
    }));
  const dotted = moduleName(change.path);
  for (const item of changes) {
    // a module-level function removed or renamed leaves dangling uses: L3's errors (`l3_dangling.ts`)
    if (item.deleted && !item.className) continue;
    const what = item.deleted
      ? `"${clip(item.qualname)}" was ${item.renamedTo ? `renamed to "${clip(item.renamedTo)}"` : "removed"}`
      : `the signature of "${clip(item.qualname)}" changed`;
    // this file
    for (const call of callSites(change.after, item.name, item.className !== undefined, !item.deleted)) {
      const problem = judgeCall(item, call);
      if (problem !== undefined) {
        report(
          change.path,
          call,
          `Call at "${change.path}:${call.startPosition.row + 1}" breaks: ${what}${problem}`,
          item,
        );
      }
    }
    // importers
    const words = item.className ? [item.name, item.className] : [item.name];
    for (const path of await filesMentioning(env.store, "python", words, change.path)) {
      const doc = await env.store.get(path);
      const imports = importsFrom(doc, item.className ?? item.name, dotted, path);
      if (imports.length === 0) continue;
      const names = item.className ? [item.name] : imports.map((binding) => binding.name);
      for (const name of names) {
        for (const call of callSites(doc, name, item.className !== undefined, false)) {
          const problem = judgeCall(item, call);
          if (problem !== undefined) {
            report(
              path,
              call,
              `Call at "${path}:${call.startPosition.row + 1}" breaks: ${what}${problem}`,
              item,
            );
          }
        }
      }
    }
  }
  return issues;
}

/** What is wrong with a call after the change (prefixed for the message), or undefined. */
function judgeCall(item: InterfaceChange, call: Node): string | undefined {
  if (item.deleted) return "";
  const args = argumentsOf(call);
  const before = callProblem(item.before!, args);
  if (before) return undefined;
  const after = callProblem(item.after!, args);
  if (after) return `: it ${after}`;
  if (reordered(item.before!, item.after!) && args.positional + (args.star ? 2 : 0) >= 2) {
    return ": it passes positional arguments to reordered parameters";
  }
  return undefined;
}

/** Changed or removed callables in the change's spans. */
function interfaceChanges(change: FileChange): InterfaceChange[] {
  const out: InterfaceChange[] = [];
  const afterText = change.after.file.text;
  for (const span of editSpans(change.before, change.after, change.records)) {
    const before = definitionsIn(change.before.tree, span.beforeStart, span.beforeEnd);
    const after = definitionsIn(change.after.tree, span.afterStart, span.afterEnd);
    const added = [...after.values()].filter((def) => !before.has(def.qualname));
    for (const [qualname, old] of before) {
      const className = old.method ? qualname.split(".").slice(-2, -1)[0] : undefined;
      const base = {
        qualname,
        name: old.name,
        className,
        line: old.node.startPosition.row + 1,
        deleted: false,
      };
      const current = after.get(qualname);
      if (current) {
        const dropOld = old.method && !isStaticMethod(old.node);
        const dropNew = current.method && !isStaticMethod(current.node);
        const sigBefore = signatureOf(old.node, dropOld);
        const sigAfter = signatureOf(current.node, dropNew);
        if (JSON.stringify(sigBefore) === JSON.stringify(sigAfter)) continue;
        out.push({ ...base, line: current.node.startPosition.row + 1, before: sigBefore, after: sigAfter });
        continue;
      }
      // gone from the span: moved elsewhere in the file, renamed, or deleted
      if (new RegExp(`\\bdef\\s+${old.name}\\s*\\(`).test(afterText)) continue;
      if (qualname.split(".").length > (className ? 2 : 1)) continue; // nested helper: private
      const prefix = qualname.slice(0, qualname.length - old.name.length);
      const renamed = added.filter((def) =>
        def.qualname.startsWith(prefix) && !def.qualname.slice(prefix.length).includes(".")
      );
      out.push({ ...base, deleted: true, renamedTo: renamed.length === 1 ? renamed[0].name : undefined });
    }
  }
  return out;
}

/**
 * Calls of `name` in a document: `name(...)` for a function, `x.name(...)`
 * for a method. With `moduleLevel`, a function call must resolve to the
 * module's binding (not a local that shadows it).
 */
function callSites(doc: Document, name: string, method: boolean, moduleLevel: boolean): Node[] {
  const out: Node[] = [];
  const root = doc.tree.rootNode;
  for (const offset of wordOccurrences(doc.file.text, name)) {
    const node = root.descendantForIndex(offset, offset + name.length);
    if (!node || node.type !== "identifier" || node.startIndex !== offset) continue;
    const parent = node.parent;
    if (!parent) continue;
    let call: Node | null = null;
    if (method) {
      if (parent.type === "attribute" && parent.childForFieldName("attribute")?.id === node.id) {
        const grand = parent.parent;
        if (grand?.type === "call" && grand.childForFieldName("function")?.id === parent.id) call = grand;
      }
    } else if (parent.type === "call" && parent.childForFieldName("function")?.id === node.id) {
      call = parent;
    }
    if (!call) continue;
    if (!method && moduleLevel) {
      const resolution = resolveName(doc, name, node);
      if (resolution.status === "bound" && resolution.scope?.kind !== "module") continue;
    }
    out.push(call);
  }
  return out;
}

/** The dotted module name of a repository path (`a/b/c.py` → `a.b.c`, `a/__init__.py` → `a`). */
export function moduleName(path: string): string {
  return path.replace(/\.py$/, "").replace(/\/__init__$/, "").replaceAll("/", ".");
}

/** Import bindings in `doc` of `symbol` from the module `dotted`. */
function importsFrom(doc: Document, symbol: string, dotted: string, path: string): Binding[] {
  const out: Binding[] = [];
  for (const bindings of moduleScope(doc).bindings.values()) {
    for (const binding of bindings) {
      if (binding.kind !== "import" || binding.imported !== symbol || !binding.module) continue;
      const module = absoluteModule(binding.module, path);
      if (module === dotted || dotted.endsWith(`.${module}`) || module.endsWith(`.${dotted}`)) {
        out.push(binding);
      }
    }
  }
  return out;
}

/** Resolve a relative module (`.utils`, `..`) against the importing file's package. */
function absoluteModule(module: string, importer: string): string {
  const dots = module.match(/^\.*/)![0].length;
  if (dots === 0) return module;
  const parts = importer.split("/").slice(0, -1);
  const base = parts.slice(0, Math.max(0, parts.length - (dots - 1)));
  const rest = module.slice(dots);
  return [...base, ...(rest ? [rest] : [])].join(".");
}
