/**
 * `lostNames` (engine/analysis/lost_names.ts): which uses a change leaves
 * without their binding, on two versions of one file.
 */

import assert from "node:assert/strict";
import { lostNames } from "../../../engine/analysis/lost_names.ts";
import { DocumentStore } from "../../../engine/parse/documents.ts";
import { Workspace } from "../../../engine/workspace.ts";
import { repoWith } from "../verify/plan/_support.ts";

const SOURCE = `import re

PATTERN = re.compile("a")


def first(text):
    total = len(text)
    return total


def second(text):
    total = 0
    for part in text:
        total += len(part)
    return total, PATTERN


class Reader:
    size = 4
    double = size * 2

    def read(self):
        return size
`;

async function lost(replace: [string, string]) {
  const dir = await repoWith({ "m.py": SOURCE });
  const store = new DocumentStore(Workspace.open(dir));
  const before = await store.get("m.py");
  assert.ok(SOURCE.includes(replace[0]), replace[0]);
  const after = await store.reparse(before, SOURCE.replace(replace[0], replace[1]));
  const found = lostNames(before, after);
  await Deno.remove(dir, { recursive: true });
  return {
    dangling: found.dangling.map(({ name, uses }) =>
      `${name}@${uses.map((u) => u.startPosition.row + 1).join(",")}`
    ),
    removed: found.removedModuleNames,
  };
}

Deno.test("lostNames: a local removed in one function dangles there only, matched by scope", async () => {
  assert.deepEqual(await lost(["    total = len(text)\n", ""]), { dangling: ["total@7"], removed: [] });
  // second() still binds total with `+=` after its `= 0` goes: nothing dangles
  assert.deepEqual(await lost(["    total = 0\n", ""]), { dangling: [], removed: [] });
});

Deno.test("lostNames: module names, a partly renamed word, and the class-body scope rule", async () => {
  assert.deepEqual(await lost(['PATTERN = re.compile("a")\n', ""]), {
    dangling: ["PATTERN@14"],
    removed: ["PATTERN"],
  });
  assert.deepEqual(await lost(["import re\n", ""]), { dangling: ["re@2"], removed: ["re"] });
  // `PATTERN` -> `XPATTERN` changes one character of the word: the old name is still the candidate
  assert.deepEqual(await lost(["PATTERN = re", "XPATTERN = re"]), {
    dangling: ["PATTERN@15"],
    removed: ["PATTERN"],
  });
  // the class attribute: `double = size * 2` loses it; read() never saw it (it reads a missing global already)
  assert.deepEqual(await lost(["    size = 4\n", ""]), { dangling: ["size@19"], removed: [] });
});
