/**
 * Names `verify --strict` used to pass although pyflakes finds them
 * undefined, each on a short excerpt of the real file and the real hunk of
 * the unseen v3 release pairs (`tests/bench/unseen_v3.ts`): an f-string
 * interpolation, an attribute name of the replaced code excusing a bare
 * new use, a class's own name in a method's annotation, a quoted type.
 * Each case is lifted from a unified diff and verified strictly, as a user
 * does; pyflakes, when present, confirms the verdict. Controls: the same
 * edits made correct pass.
 */

import assert from "node:assert/strict";
import { lift } from "../../../../engine/lift/mod.ts";
import { unifiedDiff } from "../../../../engine/exec/diff.ts";
import { DocumentStore } from "../../../../engine/parse/documents.ts";
import { Workspace } from "../../../../engine/workspace.ts";
import { verifyPlan } from "../../../../engine/verify/mod.ts";
import { DEFAULT_STRICT_CODES } from "../../../../engine/verify/strict.ts";
import { brokenByChange, PYFLAKES_SKIP } from "../../../_support/pyflakes.ts";

/** Lift `before` → `after` of `path` and verify the plan strictly: the strict refusals as `code name`. */
async function strictRefusals(path: string, before: string, after: string): Promise<string[]> {
  const dir = await Deno.makeTempDir({ prefix: "graphplan-hidden-names-" });
  try {
    await Deno.writeTextFile(`${dir}/${path}`, before);
    const lifted = await lift(new DocumentStore(Workspace.open(dir)), {
      diff: unifiedDiff(path, before, after),
    });
    assert.ok(lifted.success, JSON.stringify(lifted.errors));
    const verified = await verifyPlan(new DocumentStore(Workspace.open(dir)), lifted.plan, {
      strict: DEFAULT_STRICT_CODES,
    });
    return verified.errors.map((issue) => `${issue.code} ${/"([^"]+)"/.exec(issue.message)?.[1]}`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** pyflakes' and compile()'s new findings, or undefined without pyflakes. */
async function oracle(path: string, before: string, after: string): Promise<string[] | undefined> {
  if (PYFLAKES_SKIP) return undefined;
  return (await brokenByChange([{ path, before, after }]))[0];
}

async function expectVerdict(path: string, before: string, after: string, refused: string[]) {
  assert.deepEqual(await strictRefusals(path, before, after), refused);
  const found = await oracle(path, before, after);
  if (found) assert.equal(found.length > 0, refused.length > 0, JSON.stringify(found));
}

const TAGS_BEFORE = `import sys


def _cpython_abis(py_version, warn=False):
    abis = []
    version = _version_nodot(py_version[:2])
    debug = pymalloc = ucs4 = ""
    if hasattr(sys, "gettotalrefcount"):
        debug = "d"
    abis.insert(
        0,
        "cp{version}{debug}{pymalloc}{ucs4}".format(
            version=version, debug=debug, pymalloc=pymalloc, ucs4=ucs4
        ),
    )
    return abis


def _version_nodot(version):
    return "".join(map(str, version))
`;

Deno.test("L3 strict: a name in a new f-string interpolation is checked (packaging tags.py h9)", async () => {
  const after = (use: string) =>
    TAGS_BEFORE.replace(
      / {4}abis\.insert\([^]*?\),\n {4}\)\n/,
      `    abis.insert(0, f"cp{version}{${use}}{debug}{pymalloc}{ucs4}")\n`,
    );
  await expectVerdict("tags.py", TAGS_BEFORE, after("threading"), ["unbound-name threading"]);
  await expectVerdict("tags.py", TAGS_BEFORE, after("debug"), []);
});

const DECODER_BEFORE = `from pyasn1 import error
from pyasn1.codec.ber import eoo


class UniversalConstructedTypeDecoder(object):
    def indefLenValueDecoder(self, substrate, componentType, decodeFun, options):
        idx = 0

        while substrate:
            component, substrate = decodeFun(substrate, componentType, allowEoo=True, **options)

            if component is eoo.endOfOctets:
                break

            idx += 1

        else:
            raise error.SubstrateUnderrunError(
                'No EOO seen before substrate ends'
            )
        return idx
`;

Deno.test("L3 strict: an attribute name of the replaced code does not excuse a bare use (pyasn1 decoder.py h37)", async () => {
  const after = (type: string) =>
    DECODER_BEFORE.replace(
      `        while substrate:
            component, substrate = decodeFun(substrate, componentType, allowEoo=True, **options)
`,
      `        while True:

            for component in decodeFun(
                    substrate, componentType, allowEoo=True, **options):

                if isinstance(component, ${type}):
                    yield component

                if component is eoo.endOfOctets:
                    break
`,
    );
  await expectVerdict("decoder.py", DECODER_BEFORE, after("SubstrateUnderrunError"), [
    "unbound-name SubstrateUnderrunError",
  ]);
  await expectVerdict("decoder.py", DECODER_BEFORE, after("error.SubstrateUnderrunError"), []);
});

const TRACING_BEFORE = `class TagTracerSub:
    def __init__(self, root, tags):
        self.root = root
        self.tags = tags

    def __call__(self, *args):
        self.root._processmessage(self.tags, args)

    def get(self, name):
        return self.__class__(self.root, self.tags + (name,))
`;

Deno.test("L3 strict: a class's own name in its method's annotation is unbound (pluggy _tracing.py h4)", async () => {
  const annotate = (text: string, returns: string) =>
    text.replace("def get(self, name):", `def get(self, name: str) -> ${returns}:`);
  await expectVerdict("_tracing.py", TRACING_BEFORE, annotate(TRACING_BEFORE, "TagTracerSub"), [
    "unbound-name TagTracerSub",
  ]);
  // quoted, postponed by the __future__ import, or read in the body (later): all fine
  await expectVerdict("_tracing.py", TRACING_BEFORE, annotate(TRACING_BEFORE, '"TagTracerSub"'), []);
  const future = `from __future__ import annotations\n\n\n${TRACING_BEFORE}`;
  await expectVerdict("_tracing.py", future, annotate(future, "TagTracerSub"), []);
  const body = TRACING_BEFORE.replace("return self.__class__(", "return TagTracerSub(");
  await expectVerdict("_tracing.py", TRACING_BEFORE, body, []);
});

const MAC_BEFORE = `import subprocess
import sys
from typing import Tuple, cast

MacVersion = Tuple[int, int]


def mac_platforms(version=None):
    if version is None:
        version_str = subprocess.run(
            [sys.executable, "-sS", "-c", "import platform; print(platform.mac_ver()[0])"],
            check=True,
            stdout=subprocess.PIPE,
            text=True,
        ).stdout
        version = cast("MacVersion", tuple(map(int, version_str.split(".")[:2])))
    return version
`;

Deno.test("L3 strict: a quoted type names its head (pip's vendored packaging tags.py h5)", async () => {
  const renamed = (type: string) => MAC_BEFORE.replace('cast("MacVersion"', `cast("${type}"`);
  await expectVerdict("tags.py", MAC_BEFORE, renamed("AppleVersion"), ["unbound-name AppleVersion"]);
  const aliased = MAC_BEFORE.replace("MacVersion = ", "AppleVersion = ");
  await expectVerdict(
    "tags.py",
    aliased,
    renamed("AppleVersion").replace("MacVersion = ", "AppleVersion = "),
    [],
  );
  // an annotation's quoted head too; a string that is not a type position is no name
  const annotated = MAC_BEFORE.replace(
    "def mac_platforms(version=None):",
    'def mac_platforms(version: "Apple" = None):',
  );
  await expectVerdict("tags.py", MAC_BEFORE, annotated, ["unbound-name Apple"]);
  const message = MAC_BEFORE.replace("return version", 'print("Apple")\n    return version');
  await expectVerdict("tags.py", MAC_BEFORE, message, []);
});
