/**
 * Shapes found behind the tier-0 fallbacks of code the vocabulary was never
 * tuned on (CPython's standard library between two bug-fix releases, pip),
 * each on an excerpt of that code: the diff lifts to the expected steps,
 * tiers 1–3 only, the plan replays byte-exact, the real executor gives the
 * diff's result, and CPython's `ast` parses it.
 */

import assert from "node:assert/strict";
import { type ShapeCase, testShapeCases } from "./_support.ts";

// shutil.py of CPython 3.11: an error message continued as an implicitly joined string aligned under the call.
const SHUTIL = 'def _make_tarball(base_name, base_dir, compress="gzip"):\n    if compress is None:\n' +
  "        tar_compression = ''\n    elif compress == 'gzip':\n        tar_compression = 'gz'\n    else:\n" +
  "        raise ValueError(\"bad value for 'compress', or compression format not \"\n" +
  "                         \"supported : {0}\".format(compress))\n    return base_name + '.tar'\n";

// django tests/utils_tests/test_ipv6.py (4.2, CVE-2024-56374): a unittest module moved to Django's test case.
const TEST_IPV6 =
  "import unittest\n\nfrom django.utils.ipv6 import clean_ipv6_address, is_valid_ipv6_address\n\n\n" +
  "class TestUtilsIPv6(unittest.TestCase):\n\n    def test_validates_correct_plain_address(self):\n" +
  "        self.assertTrue(is_valid_ipv6_address('fe80::223:6cff:fe8a:2e8a'))\n" +
  "        self.assertTrue(is_valid_ipv6_address('2a02::223:6cff:fe8a:2e8a'))\n";

// email/base64mime.py of CPython 3.11: page breaks (form feed lines) between sections.
const BASE64MIME = "EMPTYSTRING = ''\n\n# See also Charset.py\nMISC_LEN = 7\n\n\n\f\n# Helpers\n" +
  'def header_length(bytearray):\n    """Return the length of s when it is encoded with base64."""\n' +
  "    groups_of_3, leftover = divmod(len(bytearray), 3)\n    return groups_of_3 * 4\n\n\n\f\n" +
  "def header_encode(header_bytes, charset='iso-8859-1'):\n    return header_bytes\n";

// pip/_internal/req/req_install.py of pip 22.3: imports the next release no longer uses.
const REQ_INSTALL = "from pip._internal.build_env import BuildEnvironment, NoOpBuildEnvironment\n" +
  "from pip._internal.exceptions import InstallationError, LegacyInstallFailure\n" +
  "from pip._internal.locations import get_scheme\nfrom pip._internal.metadata import (\n" +
  "    BaseDistribution,\n    get_default_environment,\n    get_directory_distribution,\n" +
  "    get_wheel_distribution,\n)\n\n\ndef check() -> None:\n" +
  "    raise InstallationError(get_scheme, get_default_environment, get_directory_distribution,\n" +
  "                            get_wheel_distribution, BuildEnvironment, NoOpBuildEnvironment)\n";

// pip/_internal/utils/misc.py: a sorted, one-per-line typing import.
const MISC = "from typing import (\n    Any,\n    Tuple,\n    Type,\n    TypeVar,\n    cast,\n)\n\n" +
  "from pip._vendor.tenacity import retry, stop_after_delay, wait_fixed\n\nT = TypeVar('T')\n";

// django tests/expressions/models.py (3.2): models appended to a module.
const MODELS = "from django.db import models\n\n\nclass UUIDPK(models.Model):\n" +
  "    id = models.UUIDField(primary_key=True)\n\n\nclass UUID(models.Model):\n" +
  "    uuid = models.UUIDField(null=True)\n    uuid_fk = models.ForeignKey(UUIDPK, models.CASCADE, null=True)\n";

// pip/_internal/models/link.py (pip 23): a dataclass inserted between two classes.
const LINK =
  "import dataclasses\nfrom typing import Dict, Optional\n\n\nclass LinkHash:\n    name: str\n\n\n" +
  "def _clean_url_path_part(part: str) -> str:\n    return part\n";
const METADATA_FILE = "@dataclasses.dataclass(frozen=True)\nclass MetadataFile:\n" +
  '    """Information about a core metadata file associated with a distribution."""\n\n' +
  "    hashes: Optional[Dict[str, str]]\n\n    def __post_init__(self) -> None:\n" +
  "        if self.hashes is not None:\n            assert all(name in _SUPPORTED for name in self.hashes)\n\n\n";

// pip/_internal/utils/misc.py (pip 22.3): a class attribute that loses its default.
const STREAM_WRAPPER =
  "from io import StringIO\nfrom typing import TextIO\n\n\nclass StreamWrapper(StringIO):\n" +
  '    orig_stream: TextIO = None\n\n    @classmethod\n    def from_stream(cls, orig_stream: TextIO) -> "StreamWrapper":\n' +
  "        cls.orig_stream = orig_stream\n        return cls()\n";

// django tests/aggregation/tests.py (3.2): a hand-wrapped import list ending in a trailing comma.
const DJANGO_TESTS = "from django.db.models import (\n" +
  "    Avg, Case, Count, DecimalField, DurationField, Exists, F, FloatField,\n" +
  "    IntegerField, Max, Min, OuterRef, Subquery, Sum, Value, When,\n)\nfrom django.test import TestCase\n";

// pip/_internal/cli/req_command.py (pip 23): a factory method's decorators.
const REQ_COMMAND = "class RequirementCommand(IndexGroupCommand):\n    @staticmethod\n" +
  '    def determine_resolver_variant(options: Values) -> str:\n        return "2020-resolver"\n\n' +
  "    @classmethod\n    @functools.lru_cache(maxsize=None)\n    def make_resolver(\n        cls,\n" +
  "        preparer: RequirementPreparer,\n    ) -> BaseResolver:\n        return cls(preparer)\n";

// dbm/gnu.py of CPython 3.11.2 (Debian): the import of the C module, wrapped to explain a missing package.
const DBM_GNU = '"""Provide the _gdbm module as a dbm submodule."""\n\ntry:\n    from _gdbm import *\n' +
  "except ImportError as msg:\n    raise ImportError(str(msg) + ', please install the python3-gdbm package')\n";

// http/cookies.py of CPython 3.11.2: the unquoting pattern and its helper, replaced in 3.11.7 by two patterns.
const COOKIES = "import re\n\n_is_legal_key = re.compile('[%s]+' % re.escape(_LegalChars)).fullmatch\n\n" +
  "def _quote(str):\n    if str is None or _is_legal_key(str):\n        return str\n\n\n" +
  "_unquote_sub = re.compile(r'\\\\(?:([0-3][0-7][0-7])|(.))').sub\n\ndef _unquote_replace(m):\n" +
  "    if m[1]:\n        return chr(int(m[1], 8))\n    else:\n        return m[2]\n\ndef _unquote(str):\n" +
  "    # If there aren't any doublequotes,\n    # then there can't be any special characters.\n" +
  "    if str is None or len(str) < 2:\n        return str\n";
const COOKIES_AFTER = COOKIES.replace(
  /_unquote_sub = [^]*?return m\[2\]\n/,
  '_OctalPatt = re.compile(r"\\\\[0-3][0-7][0-7]")\n_QuotePatt = re.compile(r"[\\\\].")\n',
);

// pip/_internal/commands/freeze.py of pip 23.0: a constant that became two functions in 23.1.
const FREEZE = "import sys\nfrom typing import AbstractSet, List\n\n" +
  "from pip._internal.utils.compat import stdlib_pkgs\n\n" +
  'DEV_PKGS = {"pip", "setuptools", "distribute", "wheel"}\n\n\nclass FreezeCommand(Command):\n' +
  '    """\n    Output installed packages in requirements format.\n    """\n\n    usage = "%prog [options]"\n';
const DEV_PKGS =
  "\ndef _should_suppress_build_backends() -> bool:\n    return sys.version_info < (3, 12)\n\n\n" +
  'def _dev_pkgs() -> AbstractSet[str]:\n    pkgs = {"pip"}\n\n    if _should_suppress_build_backends():\n' +
  '        pkgs |= {"setuptools", "distribute", "wheel"}\n\n    return pkgs\n';

// pip/_internal/req/req_install.py of pip 23.0: properties, and a comment heading the next group of them.
const REQ_PROPERTIES = "class InstallRequirement:\n    @property\n    def is_wheel(self) -> bool:\n" +
  "        if not self.link:\n            return False\n        return self.link.is_wheel\n\n" +
  "    # Things valid for sdists\n    @property\n    def unpacked_source_directory(self) -> str:\n" +
  "        return os.path.join(self.source_dir)\n";
const WHEEL_FROM_CACHE = "    @property\n    def is_wheel_from_cache(self) -> bool:\n" +
  "        # When True, it means that this InstallRequirement is a local wheel file in the\n" +
  "        # cache of locally built wheels.\n        return self.cached_wheel_source_link is not None\n\n";

// pip/_internal/network/auth.py of pip 23.0: a method whose parameters a formatter put one per line.
const AUTH = "class MultiDomainBasicAuth(AuthBase):\n    def __init__(self) -> None:\n" +
  "        self._credentials_to_save: Optional[Credentials] = None\n\n" +
  "    def _get_index_url(self, url: str) -> Optional[str]:\n        return None\n";
const KEYRING_AUTH = "    def _get_keyring_auth(\n        self,\n        url: Optional[str],\n" +
  "        username: Optional[str],\n    ) -> Optional[AuthInfo]:\n" +
  '        """Return the tuple auth for a given url from keyring."""\n        # Do nothing if no url was provided\n' +
  "        if not url:\n            return None\n        return None\n\n";

// pip/_internal/models/link.py of pip 23.0: a class and a function added together in 23.1.
const SUPPORTED_HASHES =
  "def supported_hashes(hashes: Optional[Dict[str, str]]) -> Optional[Dict[str, str]]:\n" +
  "    # Remove any unsupported hash types from the mapping. If this leaves no\n" +
  "    # supported hashes, return None\n    if hashes is None:\n        return None\n    return hashes\n\n\n";

// docs/conf.py of Django 3.2 (Sphinx's generated settings, most of them commented out).
const SPHINX_CONF = "html_additional_pages = {}\n\n# If false, no index is generated.\n" +
  "# html_use_index = True\n\n# If true, links to the reST sources are added to the pages.\n" +
  "# html_show_sourcelink = True\n\n" +
  '# If true, "Created using Sphinx" is shown in the HTML footer. Default is True.\n# html_show_sphinx = True\n';

// setuptools/_distutils/versionpredicate.py (setuptools 58 → 65, flake8 and black): a call joined onto one
// line, two spaces put before an inline comment.
const PREDICATE = "import re\n\n\n" +
  're_validPackage = re.compile(r"(?i)^\\s*([a-z_]\\w*(?:\\.[a-z_]\\w*)*)(.*)",\n    re.ASCII)\n# (package) (rest)\n\n' +
  're_paren = re.compile(r"^\\s*\\((.*)\\)\\s*$") # (list) inside of parentheses\n' +
  're_splitComparison = re.compile(r"^\\s*(<=|>=|<|>|!=|==)\\s*([^\\s,]+)\\s*$")\n';

// setuptools/_distutils/command/build_ext.py (setuptools 58 → 65): `# noqa: C901` on the def line, the
// call's arguments exploded one per line with the closing parenthesis on its own line.
const BUILD_EXT = "class build_ext(Command):\n    def finalize_options(self):\n" +
  "        from distutils import sysconfig\n\n        self.set_undefined_options('build',\n" +
  "                                   ('build_lib', 'build_lib'),\n" +
  "                                   ('build_temp', 'build_temp'),\n" +
  "                                   )\n\n        if self.package is None:\n" +
  "            self.package = self.distribution.ext_package\n";
// requests/cookies.py and models.py of pip 22.0.4's vendored requests: Python 2's `(object)` base.
const REQUESTS_COOKIES = "import copy\nimport time\n\n\nclass MockRequest(object):\n" +
  '    """Wraps a `requests.Request` to mimic a `urllib2.Request`."""\n\n' +
  "    def __init__(self, request):\n        self._r = request\n        self._new_headers = {}\n\n\n" +
  "class MockResponse(object, dict):\n    def __init__(self, headers):\n        self._headers = headers\n";

// urllib3/__init__.py of pip 22.0.4's vendored urllib3: a try / except / else block inserted, a line comment in it.
const URLLIB3 = "import warnings\nfrom .util.url import get_host\n\n" +
  '__author__ = "Andrey Petrov (andrey.petrov@shazow.net)"\n__license__ = "MIT"\n';
const SECURE_EXTRA =
  "try:\n    import urllib3_secure_extra  # type: ignore # noqa: F401\nexcept ImportError:\n" +
  "    pass\nelse:\n    warnings.warn(\n" +
  "        \"'urllib3[secure]' extra is deprecated and will be removed \"\n" +
  '        "in a future release of urllib3 2.x.",\n        category=DeprecationWarning,\n' +
  "        stacklevel=2,\n    )\n\n";

// shutil.py-like code: a with block and a try / finally inserted in a function body.
const WITH_TRY = "def copyfile(src, dst):\n    size = os.stat(src).st_size\n    return dst\n";

// importlib/abc.py of CPython 3.9: a protocol class appended, one method's body opening with a type comment.
const ABC = "import abc\n\n\nclass ResourceReader(metaclass=abc.ABCMeta):\n    pass\n\n\n" +
  "_register(ResourceReader, machinery.SourceFileLoader)\n";
const TRAVERSABLE = "\n\n@runtime_checkable\nclass Traversable(Protocol):\n" +
  '    """\n    An object with a subset of pathlib.Path methods.\n    """\n\n' +
  '    @abc.abstractmethod\n    def iterdir(self):\n        """\n        Yield Traversable objects in self\n' +
  '        """\n\n    @abc.abstractproperty\n    def name(self):\n        # type: () -> str\n' +
  '        """\n        The base name of this object without any parent references.\n        """\n';

// pkgutil.py of CPython 3.9: module constants, a `del` (no fragment says it) and a function appended.
const PKGUTIL = "import importlib\nimport re\n\n\ndef get_data(package, resource):\n" +
  "    return loader.get_data(resource_name)\n";
const RESOLVE_NAME = "\n\n_DOTTED_WORDS = r'(?!\\d)(\\w+)(\\.(?!\\d)(\\w+))*'\n" +
  "_NAME_PATTERN = re.compile(f'^(?P<pkg>{_DOTTED_WORDS})$', re.U)\ndel _DOTTED_WORDS\n\n" +
  "def resolve_name(name):\n    m = _NAME_PATTERN.match(name)\n    if not m:\n" +
  "        raise ValueError(f'invalid format: {name!r}')\n    return importlib.import_module(m.group(1))\n";

const CASES: ShapeCase[] = [
  {
    name: "a form feed page break dropped between a constant and a comment",
    steps: ["set_blank_lines"],
    before: BASE64MIME,
    after: BASE64MIME.replace("MISC_LEN = 7\n\n\n\f\n", "MISC_LEN = 7\n\n\n"),
  },
  {
    name: "a blank line dropped elsewhere while the file's form feed lines stay",
    steps: ["set_blank_lines"],
    before: BASE64MIME,
    after: BASE64MIME.replace("''\n\n# See", "''\n# See"),
  },
  {
    name: "names dropped from a one-line and a one-per-line from-import",
    steps: ["delete_node", "delete_node"],
    before: REQ_INSTALL,
    after: REQ_INSTALL.replace(", LegacyInstallFailure", "").replace("    BaseDistribution,\n", ""),
  },
  {
    name: "a name added inside a sorted one-per-line import list",
    steps: ["add_import_name"],
    before: MISC,
    after: MISC.replace("    TypeVar,\n", "    TypeVar,\n    Union,\n"),
    check: (plan) => assert.deepEqual((plan[0].params as Record<string, unknown>).after, "TypeVar"),
  },
  {
    name: "one name dropped from a one-line from-import and another added inside it",
    steps: ["delete_node", "add_import_name"],
    before: "from os.path import basename, exists, join, splitext\n\nSEP = '/'\n",
    after: "from os.path import basename, dirname, exists, join\n\nSEP = '/'\n",
  },
  {
    name: "a model class with a nested Meta class appended to a module",
    steps: ["fragment"],
    before: MODELS,
    after: MODELS +
      '\n\nclass JSONFieldModel(models.Model):\n    data = models.JSONField(null=True)\n\n    class Meta:\n        required_db_features = {"supports_json_field"}\n',
    check: (plan) => assert.equal((plan[0].fragment as { kind: string }).kind, "class_definition"),
  },
  {
    name: "a decorated class with a docstring, a declaration and a method inserted between definitions",
    steps: ["fragment"],
    before: LINK,
    after: LINK.replace("def _clean", METADATA_FILE + "def _clean"),
    check: (plan) => assert.equal((plan[0].fragment as { kind: string }).kind, "class_definition"),
  },
  {
    name: "a class attribute's default dropped, its annotation kept",
    steps: ["fragment"],
    before: STREAM_WRAPPER,
    after: STREAM_WRAPPER.replace("TextIO = None", "TextIO"),
  },
  {
    name: "a name appended to a parenthesised import whose trailing comma becomes its separator",
    steps: ["add_import_name"],
    before: DJANGO_TESTS,
    after: DJANGO_TESTS.replace("Sum, Value, When,\n", "Sum, Value, When,\n    Q\n"),
    check: (plan) => assert.equal((plan[0].params as Record<string, unknown>).trailing_comma, false),
  },
  {
    name: "a method's only decorator dropped (the definition is no longer decorated)",
    steps: ["delete_node"],
    before: REQ_COMMAND,
    after: REQ_COMMAND.replace("    @staticmethod\n", ""),
    check: (plan) =>
      assert.equal(
        ((plan[0].params as Record<string, unknown>).target as { kind: string }).kind,
        "decorator",
      ),
  },
  {
    name: "one of two decorators dropped",
    steps: ["delete_node"],
    before: REQ_COMMAND,
    after: REQ_COMMAND.replace("    @functools.lru_cache(maxsize=None)\n", ""),
  },
  {
    name: "a module-level try around an import replaced by the import alone",
    steps: ["fragment", "delete_node"],
    before: DBM_GNU,
    after: DBM_GNU.replace(/try:[^]*$/, "from _gdbm import *\n"),
  },
  {
    // The split pairs the two assignments (their value and target rewritten in place); the helper is the
    // run replaced by the new pattern.
    name: "a pattern and its helper function replaced by two patterns",
    steps: ["fragment", "delete_node", "set_blank_lines", "replace_expression", "replace_expression"],
    before: COOKIES,
    after: COOKIES_AFTER,
  },
  {
    name: "a constant replaced by two new functions",
    steps: ["fragment", "replace_function_body", "fragment", "replace_function_body", "delete_node"],
    before: FREEZE,
    after: FREEZE.replace('DEV_PKGS = {"pip", "setuptools", "distribute", "wheel"}\n', DEV_PKGS),
  },
  {
    name: "a property whose body starts with a comment inserted before a comment line",
    steps: ["fragment", "replace_function_body"],
    before: REQ_PROPERTIES,
    after: REQ_PROPERTIES.replace("    # Things", WHEEL_FROM_CACHE + "    # Things"),
  },
  {
    name: "a method with its parameters one per line inserted",
    steps: ["fragment", "replace_function_body"],
    before: AUTH,
    after: AUTH.replace("    def _get_index_url", KEYRING_AUTH + "    def _get_index_url"),
  },
  {
    name: "a new class and a new function inserted together between definitions",
    // Both before the next definition, in order (the anchor found again after the first insertion).
    steps: ["fragment", "fragment", "replace_function_body"],
    before: LINK,
    after: LINK.replace("def _clean", METADATA_FILE + SUPPORTED_HASHES + "def _clean"),
    check: (plan) => assert.equal((plan[0].fragment as { kind: string }).kind, "class_definition"),
  },
  {
    name: "a commented-out setting among comments replaced by two settings and a comment",
    steps: ["insert_sibling", "delete_node"],
    before: SPHINX_CONF,
    after: SPHINX_CONF.replace(
      "# html_show_sourcelink = True\n",
      "html_show_sourcelink = False\n\n# Do not ship a copy of the sources\nhtml_copy_source = False\n",
    ),
  },
  {
    name: "a name added first to a sorted one-per-line import list",
    steps: ["add_import_name"],
    before: MISC,
    after: MISC.replace("    Any,\n", "    AbstractSet,\n    Any,\n"),
    check: (plan) => assert.equal((plan[0].params as Record<string, unknown>).first, true),
  },
  {
    name: "a name added first to a one-line import list",
    steps: ["add_import_name"],
    before: MISC,
    after: MISC.replace("import retry,", "import RetryError, retry,"),
  },
  {
    name: "a call joined onto one line and an inline comment re-spaced (formatter layout)",
    steps: ["relayout_node", "relayout_node"],
    before: PREDICATE,
    after: PREDICATE.replace(",\n    re.ASCII)", ", re.ASCII)").replace(") # (list)", ")  # (list)"),
  },
  {
    name: "a noqa comment added to a def line and a call's arguments exploded",
    steps: ["relayout_node", "set_line_comment"],
    before: BUILD_EXT,
    after: BUILD_EXT.replace("(self):\n", "(self):  # noqa: C901\n").replace(
      "('build',\n                                   ('build_lib', 'build_lib'),\n" +
        "                                   ('build_temp', 'build_temp'),\n                                   )",
      "(\n            'build',\n            ('build_lib', 'build_lib'),\n" +
        "            ('build_temp', 'build_temp'),\n        )",
    ),
  },
  {
    name: "an implicitly joined message reworded, its continuation aligned under the call (one step)",
    steps: ["replace_expression"],
    before: SHUTIL,
    after: SHUTIL.replace(
      '"bad value for \'compress\', or compression format not "\n                         "supported : {0}"',
      '"bad value for \'compress\': {0!r}, or compression format "\n                         "not supported"',
    ),
  },
  {
    name: "a base class replaced by a name of another type (an attribute became a name)",
    steps: ["replace_expression"],
    before: TEST_IPV6,
    after: TEST_IPV6.replace("(unittest.TestCase)", "(SimpleTestCase)"),
  },
  {
    // The new import above pairs with no import of another module: the list re-laid is the same statement.
    name: "a from-import put in parentheses one per line with a name sorted first, a new import above it",
    steps: ["parenthesize_import", "add_import_name", "fragment"],
    before: TEST_IPV6,
    after: TEST_IPV6.replace(
      "from django.utils.ipv6 import clean_ipv6_address, is_valid_ipv6_address\n",
      "from django.core.exceptions import ValidationError\nfrom django.utils.ipv6 import (\n" +
        "    MAX_IPV6_ADDRESS_LENGTH,\n    clean_ipv6_address,\n    is_valid_ipv6_address,\n)\n",
    ),
  },
  {
    name: "a class's only base dropped (`(object)`), its body untouched",
    steps: ["delete_node"],
    before: REQUESTS_COOKIES,
    after: REQUESTS_COOKIES.replace("class MockRequest(object):", "class MockRequest:"),
  },
  {
    name: "one base of two dropped",
    steps: ["delete_node"],
    before: REQUESTS_COOKIES,
    after: REQUESTS_COOKIES.replace("class MockResponse(object, dict):", "class MockResponse(dict):"),
  },
  {
    name: "a try / except / else block inserted, a comment ending one of its lines",
    steps: ["fragment", "set_line_comment", "set_blank_lines"],
    before: URLLIB3,
    after: URLLIB3.replace("__author__", SECURE_EXTRA + "__author__"),
  },
  {
    name: "a with block and a try / finally inserted in a function body",
    steps: ["fragment", "fragment"],
    before: WITH_TRY,
    after: WITH_TRY.replace(
      "    return dst\n",
      "    with open(src, 'rb') as fsrc, open(dst, 'wb') as fdst:\n        fdst.write(fsrc.read())\n" +
        "    try:\n        os.chmod(dst, 0o644)\n    except OSError as exc:\n        raise Error(exc) from None\n" +
        "    finally:\n        size = 0\n    return dst\n",
    ),
  },
  {
    name: "a new class whose method's body opens with a comment (its header as a fragment, then its body)",
    steps: ["fragment", "replace_function_body"],
    before: ABC,
    after: ABC + TRAVERSABLE,
  },
  {
    name: "statements appended with a `del` among them (no fragment kind): insert_sibling",
    steps: ["insert_sibling"],
    before: PKGUTIL,
    after: PKGUTIL + RESOLVE_NAME,
  },
];

testShapeCases(CASES);
