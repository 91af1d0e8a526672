/**
 * The compiler's own include directories (`compile/system_headers.ts`) on
 * this machine's headers: `<node_api.h>` lives in `/usr/include/node`,
 * which no compile searches unless told, so `g++ -fsyntax-only` on a file
 * that includes it stops at that line and gives no verdict. Found one
 * directory below a system root, it is added and the compile judges the
 * file; a file with a stray token still fails. libstdc++'s
 * `include/bits/fs_dir.h` is recognised as a copy of the installed
 * `bits/fs_dir.h`.
 */

import assert from "node:assert/strict";
import { skipReason } from "../../_support/skips.ts";
import { slow } from "../../_support/quick.ts";
import { readOrUndefined, runs } from "./levels/_support.ts";
import {
  compileFindingHeaders,
  installedCopyOf,
  systemIncludeRoots,
  uniqueSubdirHolding,
} from "../../../engine/verify/compile/system_headers.ts";
import { runTool } from "../../../engine/verify/compile/tool.ts";

const NODE_API = "/usr/include/node/node_api.h";
const FS_DIR = "/usr/include/c++/12/bits/fs_dir.h";
const SKIP = skipReason(
  !runs("g++")
    ? "g++ is not installed"
    : readOrUndefined(NODE_API) === undefined
    ? `node's headers are absent ("${NODE_API}")`
    : readOrUndefined(FS_DIR) === undefined
    ? `libstdc++ 12's headers are absent ("${FS_DIR}")`
    : undefined,
);
const SLOW = slow("tests that run g++");

/** A translation unit using node's C API the way an addon does. */
const ADDON = `#include <node_api.h>

static napi_value Hello(napi_env env, napi_callback_info info) {
  napi_value result;
  napi_create_string_utf8(env, "hello", NAPI_AUTO_LENGTH, &result);
  return result;
}
`;

/** `g++ -fsyntax-only` on `text`: plainly, and finding headers below the system roots. */
async function compileBoth(text: string) {
  const dir = await Deno.makeTempDir({ prefix: "graphplan-sysheaders-" });
  try {
    await Deno.writeTextFile(`${dir}/addon.cc`, text);
    const args = ["-fsyntax-only", "-std=gnu++17", `${dir}/addon.cc`];
    return {
      plain: await runTool("g++", args, { cwd: dir }),
      found: await compileFindingHeaders("g++", args, { cwd: dir }),
    };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test({
  name: "system headers: <node_api.h> is found one directory below a system root, and only there",
  ignore: SKIP !== undefined || SLOW.ignore,
  async fn() {
    const roots = await systemIncludeRoots("g++");
    assert.ok(roots.includes("/usr/include"), `the roots g++ lists: ${roots.join(", ")}`);
    assert.equal(uniqueSubdirHolding(roots, "node_api.h"), Deno.realPathSync("/usr/include/node"));
    // a name no root's subdirectory holds: no guess
    assert.equal(uniqueSubdirHolding(roots, "no_such_header_here.h"), undefined);
  },
});

Deno.test({
  name: "system headers: an addon including <node_api.h> gets a verdict, and a stray token is still refused",
  ignore: SKIP !== undefined || SLOW.ignore,
  async fn() {
    const valid = await compileBoth(ADDON);
    assert.equal(valid.plain?.success, false, "without -I /usr/include/node the compile stops");
    assert.match(valid.plain!.stderr, /node_api\.h: No such file or directory/);
    assert.equal(valid.found?.success, true, valid.found?.stderr);
    const garbage = await compileBoth(ADDON.replace("napi_value result;", "napi_value result stray;"));
    assert.equal(garbage.found?.success, false);
    assert.doesNotMatch(
      garbage.found!.stderr,
      /No such file or directory/,
      "it failed on the code, not a header",
    );
    assert.match(garbage.found!.stderr, /stray/);
  },
});

Deno.test({
  name: "system headers: libstdc++'s include/bits/fs_dir.h is a copy of the installed bits/fs_dir.h",
  ignore: SKIP !== undefined || SLOW.ignore,
  async fn() {
    const copy = await installedCopyOf("g++", "libstdc++-v3/include/bits/fs_dir.h");
    assert.deepEqual(copy, { root: "/usr/include/c++/12", rel: "bits/fs_dir.h" });
    assert.equal(await installedCopyOf("g++", "src/graphplan_no_such_header.h"), undefined);
  },
});
