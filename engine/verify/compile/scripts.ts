/**
 * The two compile loops the helper starts when the interpreters exist: each
 * greets with its name and version, then answers every request line
 * `{"path", "source"}` with `{"ok": true}` or `{"ok": false, "message",
 * "line"}`. They only compile (CPython's `compile(..., "exec")`, V8 through
 * `vm`); nothing of the repository is imported or run.
 *
 * @module
 */

/** CPython: `compile()` each source; warnings silenced; a Python 2 interpreter greets with `python2.x`. */
export const PYTHON_LOOP = `
import sys, json, warnings
warnings.simplefilter("ignore")
def out(obj):
    sys.stdout.write(json.dumps(obj) + "\\n")
    sys.stdout.flush()
out({"version": "python%d.%d" % sys.version_info[:2], "major": sys.version_info[0]})
while True:
    line = sys.stdin.readline()
    if not line:
        break
    try:
        req = json.loads(line)
        compile(req["source"], req["path"], "exec", dont_inherit=True)
        out({"ok": True})
    except SyntaxError as e:
        out({"ok": False, "message": e.msg, "line": e.lineno})
    except Exception as e:
        out({"ok": False, "message": "%s: %s" % (type(e).__name__, e), "line": None})
`;

/**
 * Node: what \`node --check\` does, in one process. A \`.mjs\` file is a module,
 * a \`.cjs\` file a script in CommonJS's function wrapper (where a top-level
 * \`return\` is legal), and a \`.js\` file either: a script first, a module when
 * only a module parses it (as Node's own module detection decides).
 */
export const NODE_LOOP = `
const vm = require("vm");
const readline = require("readline");
const out = (obj) => process.stdout.write(JSON.stringify(obj) + "\\n");
out({ version: "node" + process.versions.node });
const lineOf = (err, file) => {
  const m = new RegExp(file.replace(/[.*+?^\${}()|[\\]\\\\]/g, "\\\\$&") + ":(\\\\d+)").exec(String(err.stack));
  return m ? Number(m[1]) : null;
};
const asScript = (source, file) => {
  new vm.Script("(function (exports, require, module, __filename, __dirname) { " + source + "\\n})", { filename: file });
};
const asModule = (source, file) => {
  if (typeof vm.SourceTextModule !== "function") throw new SyntaxError("modules cannot be checked here");
  new vm.SourceTextModule(source, { identifier: file });
};
readline.createInterface({ input: process.stdin }).on("line", (line) => {
  let req;
  try { req = JSON.parse(line); } catch (e) { out({ ok: false, message: String(e), line: null }); return; }
  const kinds = req.path.endsWith(".mjs") ? [asModule] : req.path.endsWith(".cjs") ? [asScript] : [asScript, asModule];
  let first;
  for (const check of kinds) {
    try { check(req.source, req.path); out({ ok: true }); return; } catch (e) { first = first || e; }
  }
  out({ ok: false, message: String(first && first.message), line: lineOf(first, req.path) });
});
`;
