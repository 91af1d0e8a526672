/**
 * Comments on lines of their own, added, re-worded, extended or deleted
 * beside code, and a module added to a plain `import a, b`: the tier-0
 * fallbacks of CPython's standard library between 3.9 and 3.10
 * (`tests/bench/unseen_dev_v4.ts`, dev part) whose change was in comments
 * or an import list, each on an excerpt of that code. The diff lifts to the
 * expected steps, tiers 1–3 only, the plan replays byte-exact, the real
 * executor gives the diff's result, and CPython's `ast` parses it.
 */

import { type ShapeCase, testShapeCases } from "./_support.ts";

// zipimport.py: the imports, each with a line comment saying what it is for.
const ZIPIMPORT = "import _frozen_importlib_external as _bootstrap_external\n" +
  "from _frozen_importlib_external import _unpack_uint16, _unpack_uint32\n" +
  "import _frozen_importlib as _bootstrap  # for _verbose_message\nimport _imp  # for check_hash_based_pycs\n" +
  "import _io  # for open\nimport marshal  # for loads\nimport sys  # for modules\nimport time  # for mktime\n\n" +
  "__all__ = ['ZipImportError', 'zipimporter']\n";

// importlib/_bootstrap_external.py: the module header's last note, then the imports.
const BOOTSTRAP_EXTERNAL = '"""Core implementation of path-based import."""\n' +
  "#\n# IMPORTANT: Whenever making changes to this module, be sure to run a top-level\n" +
  "# `make regen-importlib` followed by `make` in order to get the frozen version\n" +
  "# of the module updated. Not doing so will result in the Makefile to fail for\n" +
  "# all others who don't have a ./python around to freeze the module in the early\n# stages of compilation.\n#\n\n" +
  "# See importlib._setup() for what is injected into the global namespace.\n\n" +
  "# When editing this code be aware that code executed at import time CANNOT\n" +
  "# reference any injected objects! This includes not only global code but also\n" +
  "# anything specified at the class level.\n\n# Import builtin modules\nimport _imp\nimport _io\nimport sys\n";

// subprocess.py: a module global computed once, between a function and a class.
const SUBPROCESS =
  "def _use_posix_spawn():\n    return False\n\n\n_USE_POSIX_SPAWN = _use_posix_spawn()\n\n\n" +
  "class Popen:\n    def poll(self):\n        return self._internal_poll()\n";

// importlib/_bootstrap_external.py: the table of magic numbers, one comment line per bytecode change.
const MAGIC = "_code_type = type(_write_atomic.__code__)\n\n\n# Known values:\n" +
  "#     Python 3.9a0  3420 (add LOAD_ASSERTION_ERROR #34880)\n" +
  "#     Python 3.9a0  3421 (simplified bytecode for with blocks #32949)\n" +
  "#     Python 3.9a2  3424 (simplify bytecodes for *value unpacking)\n" +
  "#     Python 3.9a2  3425 (simplify bytecodes for **value unpacking)\n\n#\n" +
  "# MAGIC must change whenever the bytecode emitted by the compiler may no\n" +
  "# longer be understood by older implementations of the eval loop (usually\n" +
  "# due to the addition of new opcodes).\n\nMAGIC_NUMBER = (3425).to_bytes(2, 'little') + b'\\r\\n'\n";

// filecmp.py: a method's opening comment re-worded beside a changed call.
const FILECMP =
  "class dircmp:\n    def phase4(self): # Find out differences between common subdirectories\n" +
  "        # A new dircmp object is created for each common subdirectory,\n" +
  "        # these are stored in a dictionary indexed by filename.\n" +
  "        # The hide and ignore properties are inherited from the parent\n        self.subdirs = {}\n" +
  "        for x in self.common_dirs:\n            a_x = os.path.join(self.left, x)\n" +
  "            b_x = os.path.join(self.right, x)\n" +
  "            self.subdirs[x]  = dircmp(a_x, b_x, self.ignore, self.hide)\n";

// opcode.py: opcodes defined one per line, each with an aligned line comment.
const OPCODE = "def_op('DELETE_FAST', 126)      # Local variable number\nhaslocal.append(126)\n\n" +
  "def_op('RAISE_VARARGS', 130)    # Number of raise arguments (1, 2, or 3)\n" +
  "def_op('CALL_FUNCTION', 131)    # #args\ndef_op('MAKE_FUNCTION', 132)    # Flags\n";

// logging/handlers.py: the module's imports, several modules to a statement.
const HANDLERS = '"""Additional handlers for the logging package for Python."""\n\n' +
  "import logging, socket, os, pickle, struct, time, re\nfrom stat import ST_DEV, ST_INO, ST_MTIME\n" +
  "import queue\nimport threading\n";

const CASES: ShapeCase[] = [
  {
    name: "a module added first to a plain import of several modules",
    steps: ["add_import_name"],
    before: HANDLERS,
    after: HANDLERS.replace("import logging, socket", "import io, logging, socket"),
  },
  {
    name: "a module added last to a plain import of several modules",
    steps: ["add_import_name"],
    before: HANDLERS,
    after: HANDLERS.replace("time, re\n", "time, re, io\n"),
  },
  {
    // `spaces` is a count: the plan schema took it for a string and refused every such step.
    name: "a statement with an aligned line comment inserted",
    steps: ["fragment", "set_line_comment"],
    before: OPCODE,
    after: OPCODE.replace(
      "def_op('RAISE_VARARGS'",
      "def_op('GEN_START', 129)        # Kind of generator/coroutine\ndef_op('RAISE_VARARGS'",
    ),
  },
  {
    // `lines` is a count too: a run of three comment lines re-wrapped to two.
    name: "a paragraph of three comment lines re-wrapped to two",
    steps: ["rewrite_comment"],
    before: MAGIC,
    after: MAGIC.replace(
      "# MAGIC must change whenever the bytecode emitted by the compiler may no\n" +
        "# longer be understood by older implementations of the eval loop (usually\n" +
        "# due to the addition of new opcodes).\n",
      "# MAGIC must change whenever the bytecode emitted by the compiler may no longer\n" +
        "# be understood by older implementations of the eval loop (new opcodes).\n",
    ),
  },
  {
    name: "an import with its line comment inserted among commented imports",
    steps: ["fragment", "set_line_comment"],
    before: ZIPIMPORT,
    after: ZIPIMPORT.replace(
      "import time  # for mktime\n",
      "import time  # for mktime\nimport _warnings  # For warn()\n",
    ),
  },
  {
    name: "a module global inserted with a comment block above the globals",
    steps: ["fragment", "add_comment"],
    before: SUBPROCESS,
    after: SUBPROCESS.replace(
      "_USE_POSIX_SPAWN = _use_posix_spawn()\n",
      "# These are primarily fail-safe knobs for negatives. A True value does not\n" +
        "# guarantee the given libc/syscall API will be used.\n_USE_POSIX_SPAWN = _use_posix_spawn()\n" +
        "_USE_VFORK = True\n",
    ),
  },
  {
    name: "the same global and its comment block deleted",
    steps: ["delete_node", "delete_node"],
    before: BOOTSTRAP_EXTERNAL.replace(
      "# anything specified at the class level.\n\n",
      "# anything specified at the class level.\n\n# Module injected manually by _set_bootstrap_module()\n" +
        "_bootstrap = None\n\n",
    ),
    after: BOOTSTRAP_EXTERNAL,
  },
  {
    name: "lines appended to a table kept in a comment",
    steps: ["rewrite_comment"],
    before: MAGIC,
    after: MAGIC.replace(
      "**value unpacking)\n",
      "**value unpacking)\n#     Python 3.10a1 3430 (Make 'annotations' future by default)\n" +
        "#     Python 3.10a1 3431 (New line number table format -- PEP 626)\n",
    ),
  },
  {
    name: "a comment re-worded to two lines beside a changed call",
    steps: ["replace_expression", "rewrite_comment"],
    before: FILECMP,
    after: FILECMP.replace(
      "        # A new dircmp object is created for each common subdirectory,\n",
      "        # A new dircmp (or MyDirCmp if dircmp was subclassed) object is created\n" +
        "        # for each common subdirectory,\n",
    ).replace("= dircmp(a_x", "= self.__class__(a_x"),
  },
];

testShapeCases(CASES);
