/**
 * Deleting a method still called through a receiver (issue 27), judged
 * against each language's compiler or interpreter as the oracle: where the
 * name check refuses the plan (`dangling-reference`), the oracle rejects the
 * edited file too and accepts the unmodified one; where another definition
 * still answers the call (an overload, a trait default, a base class's
 * method, a superclass, an embedded struct), the oracle accepts the edited
 * file and the check passes it. The sources follow the shapes of the
 * multilang corpus's files (spdlog sinks, ripgrep's `Dir`, commons-lang's
 * `CharRange`, rack's `Cascade`, monolog's handlers, gin's router groups);
 * `l3_names_test.ts` deletes in the corpus files themselves. An oracle that
 * is not installed skips its language with a reason.
 */

import assert from "node:assert/strict";
import { writeTree } from "../../../_support/multilang.ts";
import { slow } from "../../../_support/quick.ts";
import { skipReason } from "../../../_support/skips.ts";
import { verifyIn } from "../plan/_support.ts";
import "../../exec/_support.ts";

/** One language: a file, the oracle's command on it, and deletions with the verdict both must give. */
interface Case {
  lang: string;
  path: string;
  text: string;
  /** The oracle's program and arguments, run in the file's directory. */
  oracle: string[];
  /** Text to delete → whether it must be refused (`true`: the call is left without any method). */
  deletions: [string, boolean][];
}

const CASES: Case[] = [
  {
    lang: "rust",
    path: "src/dir.rs",
    oracle: [
      "rustc",
      "--edition",
      "2021",
      "--crate-type",
      "lib",
      "--emit=metadata",
      "-o",
      "dir.rmeta",
      "dir.rs",
    ],
    text: `pub struct Dir {
    root: String,
    pcre2: bool,
}

pub trait Describe {
    fn describe(&self) -> String {
        String::from("dir")
    }
}

impl Dir {
    pub fn new(root: &str) -> Dir {
        Dir { root: root.to_string(), pcre2: false }
    }

    fn is_pcre2(&self) -> bool {
        self.pcre2
    }

    pub fn flags(&self) -> Vec<String> {
        let mut out = vec![self.root.clone()];
        if self.is_pcre2() {
            out.push("-P".to_string());
        }
        out
    }
}

impl Describe for Dir {
    fn describe(&self) -> String {
        format!("dir {}", self.root)
    }
}

pub fn summary(dir: &Dir) -> String {
    dir.describe()
}

pub fn make() -> Dir {
    Dir::new("tests")
}
`,
    deletions: [
      ["    fn is_pcre2(&self) -> bool {\n        self.pcre2\n    }\n", true],
      [
        "    pub fn new(root: &str) -> Dir {\n        Dir { root: root.to_string(), pcre2: false }\n    }\n",
        true,
      ],
      // the trait's default answers `dir.describe()`
      ['    fn describe(&self) -> String {\n        format!("dir {}", self.root)\n    }\n', false],
    ],
  },
  {
    lang: "java",
    path: "CharRange.java",
    oracle: ["javac", "-d", "classes", "CharRange.java"],
    text: `public final class CharRange {
    private final char start;
    private final char end;
    private final boolean negated;

    public CharRange(char start, char end, boolean negated) {
        this.start = start;
        this.end = end;
        this.negated = negated;
    }

    public boolean isNegated() {
        return negated;
    }

    public boolean contains(char ch) {
        return (ch >= start && ch <= end) != negated;
    }

    public boolean contains(CharRange range) {
        return contains(range.start) && contains(range.end);
    }

    public String describe(CharRange other) {
        String prefix = this.isNegated() ? "^" : "";
        return prefix + other.contains(start);
    }
}
`,
    deletions: [
      ["    public boolean isNegated() {\n        return negated;\n    }\n", true],
      // the overload taking a char still answers other.contains(start)
      [
        "    public boolean contains(CharRange range) {\n        return contains(range.start) && contains(range.end);\n    }\n",
        false,
      ],
    ],
  },
  {
    lang: "cpp",
    path: "sink.h",
    oracle: ["g++", "-fsyntax-only", "-x", "c++", "sink.h"],
    text: `#pragma once

namespace sinks {
class base_sink {
public:
    virtual ~base_sink() = default;
    void flush() { flush_(); }

protected:
    virtual void flush_() {}
};

class eventlog_sink : public base_sink {
public:
    int report() const { return this->event_log_handle() + 1; }

protected:
    void flush_() override {}

private:
    int event_log_handle() const { return handle_; }
    int handle_ = 0;
};
}  // namespace sinks
`,
    deletions: [
      ["    int event_log_handle() const { return handle_; }\n", true],
      // the base class's flush_ answers flush()
      ["    void flush_() override {}\n", false],
    ],
  },
  {
    lang: "go",
    path: "routergroup.go",
    oracle: ["go", "vet", "./routergroup.go"],
    text: `package gin

type HandlerFunc func() int

type Engine struct{ routes int }

func (engine *Engine) addRoute(path string) { engine.routes++ }

type RouterGroup struct {
	base   string
	engine *Engine
}

func (group *RouterGroup) handle(path string) *RouterGroup {
	group.engine.addRoute(group.base + path)
	return group
}

func (group *RouterGroup) GET(path string) *RouterGroup {
	return group.handle(path)
}

type Router struct {
	RouterGroup
}

func (router *Router) handle(path string) *RouterGroup {
	return router.RouterGroup.handle(path)
}

func (router *Router) Any(path string) *RouterGroup {
	return router.handle(path)
}
`,
    deletions: [
      [
        "func (group *RouterGroup) GET(path string) *RouterGroup {\n\treturn group.handle(path)\n}\n",
        false,
      ],
      [
        "func (engine *Engine) addRoute(path string) { engine.routes++ }\n",
        true,
      ],
      // RouterGroup's handle, embedded in Router, answers router.handle(path)
      [
        "func (router *Router) handle(path string) *RouterGroup {\n\treturn router.RouterGroup.handle(path)\n}\n",
        false,
      ],
    ],
  },
  {
    lang: "ruby",
    path: "cascade.rb",
    oracle: ["ruby", "cascade.rb"],
    text: `class Base
  def apps_count
    0
  end
end

class Cascade
  def initialize(apps)
    @apps = apps
  end

  def summary
    "#{self.apps_count} apps"
  end

  def apps_count
    @apps.size
  end
end

class Chain < Base
  def summary
    "#{self.apps_count} links"
  end

  def apps_count
    2
  end
end

puts Cascade.new([1, 2]).summary
puts Chain.new.summary
`,
    deletions: [
      // Base's apps_count answers self.apps_count in Chain
      ["  def apps_count\n    2\n  end\n", false],
    ],
  },
  {
    lang: "ruby",
    path: "utils.rb",
    oracle: ["ruby", "utils.rb"],
    text: `module Utils
  def self.build_query(params)
    params.map { |k, v| "#{Utils.escape(k)}=#{Utils.escape(v)}" }.join("&")
  end

  def self.escape(s)
    s.gsub(" ", "+")
  end
end

puts Utils.build_query({ "a b" => "c d" })
`,
    deletions: [['  def self.escape(s)\n    s.gsub(" ", "+")\n  end\n', true]],
  },
  {
    // the shape of Ant's Javac task and Guava's ByteStreams: private helpers of a class with a superclass
    // and static imports, called bare and through `this`
    lang: "java",
    path: "Javac.java",
    oracle: ["javac", "-d", "classes", "Javac.java"],
    text: `import static java.util.Objects.requireNonNull;

class MatchingTask {
    protected String log(Object message) {
        return "task: " + message;
    }

    public String execute() {
        return "done";
    }
}

public class Javac extends MatchingTask {
    private String release;

    private String assumedJavaVersion() {
        return release == null ? "1.8" : release;
    }

    private String log(String message) {
        return "javac: " + message;
    }

    private static <T> T requireNonNull(T value) {
        return value;
    }

    public String execute() {
        return "compiled";
    }

    public String describe() {
        String version = assumedJavaVersion();
        String again = this.assumedJavaVersion();
        return log(version + again) + requireNonNull(version) + execute();
    }
}
`,
    deletions: [
      // a private method overrides nothing: once it is gone nothing answers its calls
      [
        '    private String assumedJavaVersion() {\n        return release == null ? "1.8" : release;\n    }\n',
        true,
      ],
      // the superclass's log(Object) answers log(String)'s calls
      ['    private String log(String message) {\n        return "javac: " + message;\n    }\n', false],
      // the static import answers
      ["    private static <T> T requireNonNull(T value) {\n        return value;\n    }\n", false],
      // an override: the superclass's execute answers
      ['    public String execute() {\n        return "compiled";\n    }\n', false],
    ],
  },
  {
    // the shapes of nokogiri's VersionInfo (a core mixin) and Rails' nested classes in a module that takes
    // in a helper module, with metaprogramming in another class of the file
    lang: "ruby",
    path: "version_info.rb",
    oracle: ["ruby", "version_info.rb"],
    text: `module Helpers
  def helper
    "help"
  end
end

module Nokogiri
  include Helpers

  class VersionInfo
    include Comparable

    def initialize(version)
      @version = version
    end

    def libxml2?
      !@version.nil?
    end

    def <=>(other)
      to_s <=> other.to_s
    end

    def to_s
      @version.to_s
    end

    def loaded_libxml_version
      libxml2? ? "libxml #{@version}" : "none"
    end

    def first
      @version
    end

    def summary
      "#{self.loaded_libxml_version} #{first}"
    end
  end

  class Dynamic
    define_method(["wa", "ve"].join) { "waved" }

    def wave
      "wave"
    end

    def hello
      wave
    end
  end
end

puts Nokogiri::VersionInfo.new("2.9").summary
puts Nokogiri::Dynamic.new.hello
`,
    deletions: [
      // Comparable lacks libxml2?, and the module's mixin is not the class's
      ["    def libxml2?\n      !@version.nil?\n    end\n", true],
      ['    def loaded_libxml_version\n      libxml2? ? "libxml #{@version}" : "none"\n    end\n', true],
      // the class's own define_method may answer (and does)
      ['    def wave\n      "wave"\n    end\n', false],
    ],
  },
  {
    lang: "ruby",
    path: "sorted.rb",
    oracle: ["ruby", "sorted.rb"],
    text: `class Sorted
  include Enumerable

  def initialize(items)
    @items = items.sort
  end

  def each(&block)
    @items.each(&block)
  end

  def first
    @items[0]
  end

  def head
    first
  end
end

puts Sorted.new([3, 1, 2]).head
`,
    // Enumerable#first answers
    deletions: [["  def first\n    @items[0]\n  end\n", false]],
  },
  {
    lang: "php",
    path: "StreamHandler.php",
    oracle: ["php", "StreamHandler.php"],
    text: `<?php
class Handler
{
    public function close(): string
    {
        return 'base';
    }
}

class StreamHandler
{
    public function write(string $line): string
    {
        return $this->streamWrite($line);
    }

    private function streamWrite(string $line): string
    {
        return strtoupper($line);
    }
}

class BufferHandler extends Handler
{
    public function flush(): string
    {
        return $this->close();
    }

    public function close(): string
    {
        return 'buffer';
    }
}

echo (new StreamHandler())->write('x'), (new BufferHandler())->flush(), "\\n";
`,
    deletions: [
      [
        "    private function streamWrite(string $line): string\n    {\n        return strtoupper($line);\n    }\n",
        true,
      ],
      // Handler's close answers $this->close()
      ["    public function close(): string\n    {\n        return 'buffer';\n    }\n", false],
    ],
  },
  {
    // the shape of composer's and Symfony's test cases: private helpers of a class with a parent class
    lang: "php",
    path: "PerforceTest.php",
    oracle: ["php", "PerforceTest.php"],
    text: `<?php
class TestCase
{
    private function helper(): string
    {
        return 'base';
    }

    public function name(): string
    {
        return 'test';
    }
}

trait CreatesMocks
{
    public function createMock(string $type): string
    {
        return "mock of $type";
    }
}

class MockingTest extends TestCase
{
    use CreatesMocks;

    private function createMock(string $type): string
    {
        return "own mock of $type";
    }

    public function run(): string
    {
        return $this->createMock('io');
    }
}

class PerforceTest extends TestCase
{
    public function run(): string
    {
        return $this->createNewPerforce('x') . self::createNewPerforce('y');
    }

    private function createNewPerforce(string $flag): string
    {
        return $this->name() . $flag;
    }
}

echo (new PerforceTest())->run(), (new MockingTest())->run(), "\\n";
`,
    deletions: [
      // nothing answers: the parent's methods have other names
      [
        "    private function createNewPerforce(string $flag): string\n    {\n        return $this->name() . $flag;\n    }\n",
        true,
      ],
      // the trait's createMock answers
      [
        '    private function createMock(string $type): string\n    {\n        return "own mock of $type";\n    }\n',
        false,
      ],
    ],
  },
  {
    // the shape of Effect's Prompt and rxjs' actions: a class extending another, with private helpers
    lang: "typescript",
    path: "prompt.ts",
    oracle: ["tsc", "--noEmit", "--strict", "--target", "es2020", "prompt.ts"],
    text: `class Action {
  schedule(delay: number): string {
    return "scheduled " + delay;
  }
}

interface Renderer {
  render(): string;
}

class Prompt extends Action implements Renderer {
  private ordinalIndicator(n: number): string {
    return n === 1 ? "st" : "th";
  }

  schedule(delay: number): string {
    return "prompt " + delay;
  }

  render(): string {
    return this.ordinalIndicator(1) + this.schedule(2);
  }
}

class Plain implements Renderer {
  label(): string {
    return "plain";
  }

  render(): string {
    return this.label();
  }
}

console.log(new Prompt().render(), new Plain().render());
`,
    deletions: [
      // a private method's name the base class cannot have: nothing answers
      [
        '  private ordinalIndicator(n: number): string {\n    return n === 1 ? "st" : "th";\n  }\n',
        true,
      ],
      // an override: Action's schedule answers
      ['  schedule(delay: number): string {\n    return "prompt " + delay;\n  }\n', false],
      // \`implements\` gives no methods
      ['  label(): string {\n    return "plain";\n  }\n', true],
    ],
  },
  {
    lang: "javascript",
    path: "axios.js",
    oracle: ["node", "axios.js"],
    text: `class InterceptorManager {
  constructor() {
    this.handlers = [];
  }

  use(fulfilled) {
    this.handlers.push(fulfilled);
    return this.size();
  }

  size() {
    return this.handlers.length;
  }
}

const manager = new InterceptorManager();
console.log(manager.use(() => 1));
`,
    deletions: [["  size() {\n    return this.handlers.length;\n  }\n", true]],
  },
  {
    // the shape of @types/node's globals.d.ts: a global type augmented by the file, whose augmentation goes
    lang: "typescript",
    path: "types/globals.d.ts",
    oracle: ["tsc", "--noEmit", "--strict", "--target", "es2020", "globals.d.ts"],
    text: `interface RelativeIndexable<T> {
  at(index: number): T | undefined;
}

interface ReadonlyArray<T> extends RelativeIndexable<T> {}

declare function cloneDeep<T>(value: T, options?: { transfer: ReadonlyArray<object> }): T;

declare namespace NodeJS {
  interface Process {
    readonly argv0: string;
  }
}
`,
    deletions: [
      // TypeScript's own ReadonlyArray answers the remaining use
      ["interface ReadonlyArray<T> extends RelativeIndexable<T> {}\n", false],
      // nothing else declares RelativeIndexable
      ["interface RelativeIndexable<T> {\n  at(index: number): T | undefined;\n}\n", true],
    ],
  },
  {
    // the shape of undici's response.js: a destructured import removed while the module's own
    // member of that name is still called (`util.isDeepStrictEqual`), which no lexical binding answers
    lang: "javascript",
    path: "lib/response.js",
    oracle: ["node", "response.js"],
    text: `"use strict";

const util = require("node:util");
const { inspect } = require("node:util");
const { isDeepStrictEqual } = require("node:util");

class Response {
  constructor(body) {
    this.body = body;
  }

  same(other) {
    return util.isDeepStrictEqual(this.body, other.body);
  }

  describe() {
    return inspect(this.body) + this.status();
  }

  status() {
    return util.inspect(this.same(this)).length > 0 ? " ok" : "";
  }
}

console.log(new Response({ a: 1 }).describe());
`,
    deletions: [
      // only \`util.isDeepStrictEqual\` remains: the module answers it
      ['const { isDeepStrictEqual } = require("node:util");\n', false],
      // \`inspect(...)\` is still called by name
      ['const { inspect } = require("node:util");\n', true],
      // \`this.status()\` is left without its method
      ['  status() {\n    return util.inspect(this.same(this)).length > 0 ? " ok" : "";\n  }\n', true],
    ],
  },
];

function available(program: string): boolean {
  try {
    new Deno.Command(program, { args: ["--version"], stdout: "null", stderr: "null" }).outputSync();
    return true;
  } catch {
    return false;
  }
}

/** Whether the oracle accepts the file (exit 0) in `dir`. */
async function oracleAccepts(dir: string, command: string[]): Promise<boolean> {
  const output = await new Deno.Command(command[0], {
    args: command.slice(1),
    cwd: dir,
    stdout: "null",
    stderr: "null",
    env: { GOFLAGS: "-mod=mod", GO111MODULE: "off", GOCACHE: `${dir}/.gocache` },
  }).output();
  return output.success;
}

/** The oracles that are compilers: their half of a case is slow-marked (`tests/README.md`, "Two tiers"). */
const COMPILERS = new Set(["rustc", "javac", "g++", "go", "tsc"]);
const SLOW = slow("compilers (rustc, javac, g++, go vet, tsc) as the oracle of a deletion");

for (const { lang, path, text, oracle, deletions } of CASES) {
  const missing = available(oracle[0]) ? undefined : skipReason(`${oracle[0]} is not installed`);
  // The oracle's half: the verdict each deletion is listed with is the oracle's own.
  Deno.test({
    name: `names ${lang} (${path}): ${
      oracle[0]
    } accepts the file and rejects exactly the deletions listed as refused`,
    ignore: missing !== undefined || (COMPILERS.has(oracle[0]) && SLOW.ignore),
    async fn() {
      const file = path.split("/").pop()!;
      const plain = await writeTree({ [file]: text });
      try {
        assert.ok(await oracleAccepts(plain, oracle), `${oracle[0]} rejects the unmodified ${file}`);
      } finally {
        await Deno.remove(plain, { recursive: true });
      }
      for (const [cut, refused] of deletions) {
        assert.ok(text.includes(cut), cut);
        const edited = await writeTree({ [file]: text.replace(cut, "") });
        try {
          assert.equal(
            await oracleAccepts(edited, oracle),
            !refused,
            `${oracle[0]} on ${file} without:\n${cut}`,
          );
        } finally {
          await Deno.remove(edited, { recursive: true });
        }
      }
    },
  });
  // The check's half: it refuses exactly the deletions the oracle rejects.
  Deno.test(
    `names ${lang} (${path}): a deletion leaving a receiver call unanswered is refused, one another definition answers is not`,
    async () => {
      for (const [cut, refused] of deletions) {
        assert.ok(text.includes(cut), cut);
        const dir = await writeTree({ [path]: text });
        try {
          const result = await verifyIn(dir, [{
            op: "replace_code",
            params: { file: path, pattern: cut, replacement: "" },
          }]);
          const dangling = result.errors.filter((issue) => issue.code === "dangling-reference");
          assert.equal(dangling.length, refused ? 1 : 0, `${cut}\n${JSON.stringify(result.errors)}`);
          assert.equal(result.errors.length, dangling.length, JSON.stringify(result.errors));
        } finally {
          await Deno.remove(dir, { recursive: true });
        }
      }
    },
  );
}

/** A private method's overload in a superclass of another file of the workspace. */
const SPLIT = {
  "Base.java": `public class Base {
    protected String log(Object message) {
        return "base: " + message;
    }
}
`,
  "Task.java": `public class Task extends Base {
    private String log(String message) {
        return "task: " + message;
    }

    public String run() {
        return log("started");
    }
}
`,
};
const SPLIT_CUT = '    private String log(String message) {\n        return "task: " + message;\n    }\n';

Deno.test({
  name: "names java: javac accepts a private method's deletion its superclass in another file answers",
  ignore: !available("javac") || SLOW.ignore,
  async fn() {
    const dir = await writeTree({ ...SPLIT, "Task.java": SPLIT["Task.java"].replace(SPLIT_CUT, "") });
    try {
      assert.ok(await oracleAccepts(dir, ["javac", "-d", "classes", "Base.java", "Task.java"]));
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("names java: a private method's deletion another file's superclass may answer is not refused", async () => {
  const dir = await writeTree(SPLIT);
  try {
    const result = await verifyIn(dir, [{
      op: "replace_code",
      params: { file: "Task.java", pattern: SPLIT_CUT, replacement: "" },
    }]);
    assert.deepEqual(result.errors, []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
