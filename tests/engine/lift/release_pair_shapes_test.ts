/**
 * Shapes found behind the tier-0 fallbacks of the release-pair dev set
 * (`tests/bench/unseen_pair.ts --multi`: CPython's standard library
 * 3.10 → 3.11 and 3.12 → 3.13, pip 23.2 → 24.2 with its vendored
 * libraries), each on an excerpt of that code: the diff lifts to the
 * expected steps, tiers 1–3 only, the plan replays byte-exact, the real
 * executor gives the diff's result, and CPython's `ast` parses it.
 */

import assert from "node:assert/strict";
import { type ShapeCase, testShapeCases } from "./_support.ts";

// importlib/metadata/_meta.py of CPython 3.12: the imports a module starts with.
const META = "from typing import Protocol\n" +
  "from typing import Any, Dict, Iterator, List, Optional, TypeVar, Union, overload\n\n\n" +
  '_T = TypeVar("_T")\n\n\nclass PackageMetadata(Protocol):\n    def __len__(self) -> int:\n' +
  "        ...  # pragma: no cover\n";

// asyncio/__main__.py of CPython 3.12: the start of the `__main__` block.
const MAIN = "import asyncio\nimport sys\n\n\nif __name__ == '__main__':\n" +
  "    loop = asyncio.new_event_loop()\n    asyncio.set_event_loop(loop)\n";

// asyncio/exceptions.py of CPython 3.10: exception classes, one of which 3.11 makes an alias of the builtin.
const EXCEPTIONS = '"""asyncio exceptions."""\n\n\n' +
  "__all__ = ('CancelledError', 'InvalidStateError', 'TimeoutError',\n" +
  "           'IncompleteReadError', 'LimitOverrunError',\n           'SendfileNotAvailableError')\n\n\n" +
  'class CancelledError(BaseException):\n    """The Future or Task was cancelled."""\n\n\n' +
  'class TimeoutError(Exception):\n    """The operation exceeded the given deadline."""\n\n\n' +
  'class InvalidStateError(Exception):\n    """The operation is not allowed in this state."""\n';

// pip/_internal/metadata/pkg_resources.py of pip 23.2: a typing import black re-lays in pip 24.2.
const PKG_RESOURCES = "import os\nimport zipfile\n" +
  "from typing import Collection, Iterable, Iterator, List, Mapping, NamedTuple, Optional\n\n" +
  "from pip._vendor import pkg_resources\n";

// setuptools/glob.py of setuptools 66 (Debian): a generator that a later release types with overloads.
const GLOB =
  "import os\n\n\n# This helper function recursively yields relative pathnames inside a literal\n" +
  "# directory.\n\n\ndef glob2(dirname, pattern):\n    assert _isrecursive(pattern)\n    yield pattern[:0]\n" +
  "    for x in _rlistdir(dirname):\n        yield x\n";

const CASES: ShapeCase[] = [
  {
    name: "a __future__ import and another import inserted before a module's first import",
    steps: ["fragment", "fragment", "set_blank_lines"],
    before: META,
    after: "from __future__ import annotations\n\nimport os\n" + META,
    check: (plan) => {
      assert.deepEqual(plan[0].fragment, {
        kind: "import_from_statement",
        properties: { module: "__future__", names: ["annotations"] },
      });
      // Both go before the same statement, found again after the first insertion moved it.
      assert.deepEqual(plan[0].target, plan[1].target);
    },
  },
  {
    name: "the same in a module whose first line is blank (its tree's root starts after it)",
    steps: ["fragment", "fragment", "set_blank_lines"],
    before: "\n" + META,
    after: "\nfrom __future__ import annotations\n\nimport os\n" + META,
  },
  {
    name: "two statements inserted before the first statement of a block",
    steps: ["fragment", "fragment", "set_blank_lines"],
    before: MAIN,
    after: MAIN.replace(
      "    loop =",
      '    sys.audit("cpython.run_stdin")\n\n    return_code = 0\n    loop =',
    ),
  },
  {
    name: "a class replaced by an assignment whose line ends in a comment",
    steps: ["fragment", "delete_node", "set_line_comment"],
    before: EXCEPTIONS,
    after: EXCEPTIONS.replace(
      'class TimeoutError(Exception):\n    """The operation exceeded the given deadline."""\n',
      "TimeoutError = TimeoutError  # make local alias for the standard exception\n",
    ),
    check: (plan) => assert.equal((plan[0].fragment as { kind: string }).kind, "assignment"),
  },
  {
    name: "the same names of a from-import put in parentheses, one per line",
    steps: ["parenthesize_import"],
    before: PKG_RESOURCES,
    after: PKG_RESOURCES.replace(
      "Collection, Iterable, Iterator, List, Mapping, NamedTuple, Optional\n",
      "(\n    Collection,\n    Iterable,\n    Iterator,\n    List,\n    Mapping,\n    NamedTuple,\n    Optional,\n)\n",
    ),
    check: (plan) => assert.equal((plan[0].params as Record<string, unknown>).one_per_line, true),
  },
  {
    name: "one-line overload stubs inserted before a function whose parameters gain annotations",
    steps: ["change_signature", "insert_sibling"],
    before: GLOB,
    after: GLOB.replace(
      "def glob2(dirname, pattern):\n",
      "@overload\ndef glob2(dirname: StrPath, pattern: str) -> Iterator[str]: ...\n" +
        "@overload\ndef glob2(dirname: BytesPath, pattern: bytes) -> Iterator[bytes]: ...\n" +
        "def glob2(dirname: StrOrBytesPath, pattern: str | bytes) -> Iterator[str | bytes]:\n",
    ),
  },
];

testShapeCases(CASES);
