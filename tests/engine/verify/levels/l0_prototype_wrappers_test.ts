/**
 * L0 in C headers that declare their functions through a K&R prototype
 * wrapper, a macro that expands to its parameter list or drops it: zlib's
 * `OF((z_streamp strm, int flush))`, GNU screen's `__P((struct layer *,
 * int))`. The grammar reads the wrapper as the declarator and its doubled
 * parentheses as an error, so a declaration written exactly like its
 * neighbours was a "new" syntax problem (screen's Debian patch adding
 * `LBracketedPasteMode` to `extern.h` was refused). The wrapper is now
 * blanked with the other macros L0 reads through (`macro_specifiers.ts`),
 * its parameter list kept. The header is zlib's own (`/usr/include/zlib.h`)
 * without its `#include "zconf.h"`, so that, like screen's `extern.h`, it
 * compiles only after another header and the compiler oracle gives no
 * verdict on it; gcc, compiling a file that includes zconf.h and then the
 * edited copy, is the test's oracle.
 */

import assert from "node:assert/strict";
import { skipReason } from "../../../_support/skips.ts";
import { oracleAccepts } from "../../../_support/oracle.ts";
import { editAndCheck, ofLevel, readOrUndefined, replace, runs } from "./_support.ts";

const PATH = "/usr/include/zlib.h";
const INCLUDE = '#include "zconf.h"\n';
// as screen's extern.h, a header that compiles only after another (the includer includes zconf.h first):
// the compiler gives no verdict on it alone, so L0's own reading decides
const header = readOrUndefined(PATH)?.replace(INCLUDE, "");
const ANCHOR = "                                       int *bits));\n";

const ignore = skipReason(
  !runs("gcc")
    ? "gcc is not installed"
    : header === undefined || !header.includes(`deflatePending OF((z_streamp strm,\n`) ||
        !header.includes(ANCHOR)
    ? `zlib's header (with deflatePending declared through OF) is not at "${PATH}"`
    : undefined,
) !== undefined;

/** Whether gcc compiles a file that includes zconf.h, then `text` as `zlib.h`. */
function gccAccepts(text: string): Promise<boolean> {
  const use = '#include <zconf.h>\n#include "zlib.h"\nint main(void) { return deflateEnd(0); }\n';
  return oracleAccepts({ "zlib.h": text, "use.c": use }, "gcc", (dir) => ["-fsyntax-only", `${dir}/use.c`]);
}

async function check(insertion: string) {
  const step = await editAndCheck({ "zlib.h": header! }, "zlib.h", replace(ANCHOR, ANCHOR + insertion));
  await Deno.remove(step.dir, { recursive: true });
  return step;
}

Deno.test({
  name: "L0 C prototype wrappers (zlib.h): declarations written through OF((...)), on one line and over " +
    "three, pass as gcc compiles them",
  ignore,
  async fn() {
    for (
      const insertion of [
        "ZEXTERN int ZEXPORT deflateUsed OF((z_streamp strm, int *bits));\n",
        "ZEXTERN int ZEXPORT deflateWindow OF((z_streamp strm,\n                                      Bytef *window,\n" +
        "                                      uInt *length));\n",
      ]
    ) {
      assert.equal(await gccAccepts(header!.replace(ANCHOR, ANCHOR + insertion)), true, `gcc: ${insertion}`);
      const step = await check(insertion);
      assert.deepEqual(ofLevel(step.errors, "L0"), [], insertion);
    }
  },
});

Deno.test({
  name:
    "L0 C prototype wrappers (zlib.h): a lost parenthesis or a garbage token in the parameters is refused",
  ignore,
  async fn() {
    for (
      const insertion of [
        "ZEXTERN int ZEXPORT deflateUsed OF((z_streamp strm, int *bits);\n",
        "ZEXTERN int ZEXPORT deflateUsed OF((z_streamp strm int *bits));\n",
        "ZEXTERN int ZEXPORT deflateUsed OF((z_streamp strm, int *bits)) )\n",
      ]
    ) {
      assert.equal(await gccAccepts(header!.replace(ANCHOR, ANCHOR + insertion)), false, `gcc: ${insertion}`);
      const step = await check(insertion);
      assert.ok(
        ofLevel(step.errors, "L0").some((issue) => issue.code === "syntax-error"),
        `${insertion}: ${step.errors.map((issue) => issue.code).join(", ")}`,
      );
    }
  },
});
