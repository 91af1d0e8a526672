/** The lazy Node built-ins answer exactly as the modules they load. */

import assert from "node:assert/strict";
import * as path from "node:path";
import { fileURLToPath as nodeFileURLToPath } from "node:url";
import {
  basename,
  dirname,
  fileURLToPath,
  isAbsolute,
  join,
  resolve,
} from "../../engine/base/node_builtins.ts";

Deno.test("node_builtins: the path and url wrappers match node:path and node:url", () => {
  assert.equal(join("a", "b/../c", "d.py"), path.join("a", "b/../c", "d.py"));
  assert.equal(resolve("/repo", "x/../y"), path.resolve("/repo", "x/../y"));
  assert.equal(resolve("rel"), path.resolve("rel"));
  assert.equal(dirname("/a/b/c.py"), "/a/b");
  assert.equal(basename("/a/b/c.py", ".py"), "c");
  assert.equal(basename("/a/b/c.py"), "c.py");
  assert.equal(isAbsolute("/a"), true);
  assert.equal(isAbsolute("a/b"), false);
  assert.equal(fileURLToPath("file:///tmp/a%20b.js"), nodeFileURLToPath("file:///tmp/a%20b.js"));
});
