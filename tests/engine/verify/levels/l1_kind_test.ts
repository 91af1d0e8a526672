import assert from "node:assert/strict";
import { compatibleKinds, kindCategory } from "../../../../engine/analysis/kind_compatibility.ts";
import { CORPUS_SKIP } from "../../../_support/corpus.ts";
import { corpusFile, editAndCheck, type EditFn, ofLevel, replace } from "./_support.ts";

const ignore = CORPUS_SKIP !== undefined;
if (CORPUS_SKIP) console.log(`skipping L1 tests: ${CORPUS_SKIP}`);

const MODELS = ["psf__requests-5414", "requests/models.py"] as const;

const PREPARE_METHOD = `    def prepare_method(self, method):
        """Prepares the given HTTP method."""
        self.method = method
        if self.method is not None:
            self.method = to_native_string(self.method.upper())`;

async function kindIssues(edit: EditFn, kinds: string[]) {
  const { path, text } = await corpusFile(...MODELS);
  const step = await editAndCheck({ [path]: text }, path, edit, kinds);
  await Deno.remove(step.dir, { recursive: true });
  return ofLevel(step.errors, "L1");
}

/** Replace the whole `prepare_method` definition (without its leading indentation). */
function replaceDefinition(replacement: string): EditFn {
  return replace(PREPARE_METHOD.trimStart(), replacement);
}

Deno.test({
  name: "L1: a call replaced by a call, a function by a function, a decorated function by a plain one pass",
  ignore,
  async fn() {
    assert.deepEqual(
      await kindIssues(replace("to_native_string(self.method.upper())", "str(self.method)"), ["call"]),
      [],
    );
    assert.deepEqual(
      await kindIssues(replace("to_native_string(self.method.upper())", "self.method.upper()"), ["call"]),
      [],
    );
    assert.deepEqual(
      await kindIssues(
        replaceDefinition(
          "def prepare_method(self, method):\n        self.method = (method or 'GET').upper()",
        ),
        ["function_definition"],
      ),
      [],
    );
    assert.deepEqual(
      await kindIssues(
        (text) => {
          const start = text.indexOf("@staticmethod\n    def _get_idna_encoded_host(host):");
          const end = text.indexOf("return host\n", start) + "return host".length;
          return [{
            start,
            end,
            replacement: "def _get_idna_encoded_host(self, host):\n        return host.lower()",
          }];
        },
        ["decorated_definition"],
      ),
      [],
    );
    // one statement replaced by two statements
    assert.deepEqual(
      await kindIssues(
        replace("self.method = method\n", "method = method or 'GET'\n        self.method = method\n"),
        ["expression_statement"],
      ),
      [],
    );
  },
});

Deno.test({
  name: "L1: a function replaced by an assignment, or a statement by a function, is a kind change",
  ignore,
  async fn() {
    const toAssignment = await kindIssues(replaceDefinition("prepare_method = None"), [
      "function_definition",
    ]);
    assert.equal(toAssignment.length, 1);
    assert.equal(toAssignment[0].code, "kind-changed");
    assert.equal(toAssignment[0].severity, "error");
    assert.equal(toAssignment[0].line, 344);
    assert.match(toAssignment[0].message, /"function_definition" with an "expression_statement"/);

    const toFunction = await kindIssues(
      replace("self.method = method\n", "def method_helper(): return method\n"),
      ["expression_statement"],
    );
    assert.equal(toFunction.length, 1);
    assert.equal(toFunction[0].code, "kind-changed");

    const exprToStatements = await kindIssues(
      replace("to_native_string(self.method.upper())", "1\n            pass"),
      ["call"],
    );
    assert.equal(exprToStatements[0]?.code, "kind-changed");
  },
});

Deno.test("L1: compatibility classes for Python, JS/TS and the generic rule", () => {
  assert.equal(compatibleKinds("python", "call", "attribute"), true);
  assert.equal(compatibleKinds("python", "attribute", "keyword_argument"), true);
  assert.equal(compatibleKinds("python", "keyword_argument", "identifier"), true);
  assert.equal(compatibleKinds("javascript", "identifier", "spread_element"), true);
  assert.equal(compatibleKinds("python", "keyword_argument", "expression_statement"), false);
  assert.equal(compatibleKinds("python", "if_statement", "for_statement"), true);
  assert.equal(compatibleKinds("python", "function_definition", "class_definition"), false);
  assert.equal(compatibleKinds("python", "expression_statement", "function_definition"), false);
  assert.equal(compatibleKinds("typescript", "arrow_function", "function_expression"), true);
  assert.equal(compatibleKinds("javascript", "lexical_declaration", "expression_statement"), true);
  assert.equal(compatibleKinds("javascript", "call_expression", "if_statement"), false);
  assert.equal(kindCategory("java", "method_declaration"), "function");
  assert.equal(kindCategory("go", "if_statement"), "statement");
  assert.equal(compatibleKinds("rust", "call_expression", "binary_expression"), true);
  assert.equal(compatibleKinds("rust", "function_item", "struct_item"), false);
});

const COMPONENT_TS = `import { Component, HostListener, Input } from "@angular/core";

@Component({ selector: "app-counter", template: "<b>{{ count }}</b>" })
export class CounterComponent {
  @Input() step = 1;
  count = 0;

  @HostListener("click", ["$event"])
  onClick(event: MouseEvent): void {
    this.count += this.step;
  }

  reset(): void {
    this.count = 0;
  }
}

export function makeCounter(): CounterComponent {
  return new CounterComponent();
}
`;

async function tsKindIssues(edit: EditFn, kinds: (string | undefined)[]) {
  const step = await editAndCheck({ "src/counter.ts": COMPONENT_TS }, "src/counter.ts", edit, kinds);
  await Deno.remove(step.dir, { recursive: true });
  return ofLevel(step.errors, "L1");
}

/** The text of a member from its first decorator to its closing brace. */
function memberSpan(text: string, first: string, last: string): [number, number] {
  const start = text.indexOf(first);
  return [start, text.indexOf(last, start) + last.length];
}

Deno.test("L1: TypeScript members with sibling decorators are judged as one member with its decorators", async () => {
  // swapping two methods, one decorated (the grammar keeps decorators as class-body siblings)
  const decorated = memberSpan(COMPONENT_TS, '@HostListener("click"', "this.step;\n  }");
  const plain = memberSpan(COMPONENT_TS, "reset(): void {", "this.count = 0;\n  }");
  const swap: EditFn = (text) => [
    { start: decorated[0], end: decorated[1], replacement: text.slice(plain[0], plain[1]) },
    { start: plain[0], end: plain[1], replacement: text.slice(decorated[0], decorated[1]) },
  ];
  assert.deepEqual(await tsKindIssues(swap, ["method_definition", "method_definition"]), []);
  // a decorated field for a decorated method is a different kind of member
  const field = memberSpan(COMPONENT_TS, "@Input() step", "step = 1;");
  const fieldForMethod = await tsKindIssues(
    (text) => [{ start: decorated[0], end: decorated[1], replacement: text.slice(field[0], field[1]) }],
    ["method_definition"],
  );
  assert.equal(fieldForMethod[0]?.code, "kind-changed");
  assert.doesNotMatch(fieldForMethod[0].message, /decorator/);
});

Deno.test("L1: a decorated class where a function stood is a kind change, whatever its decorators", async () => {
  const fn = memberSpan(COMPONENT_TS, "function makeCounter", "CounterComponent();\n}");
  const issues = await tsKindIssues(
    (_text) => [{ start: fn[0], end: fn[1], replacement: '@Component({ selector: "x" })\nclass Other {}' }],
    ["function_declaration"],
  );
  assert.equal(issues[0]?.code, "kind-changed", JSON.stringify(issues));
  assert.match(issues[0].message, /"class_declaration"/);
});
