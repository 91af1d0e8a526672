/**
 * The closed list of issue codes (`engine/base/issue_codes.ts`) against the
 * source that emits them: every code literal an issue is made with is in
 * the list, every entry of the list is emitted somewhere, the published page
 * (`docs/issue_codes.md`) and `graphplan schema --issue-codes` show the list
 * as it is, and the constructors refuse a code outside it at type-check time.
 *
 * The type checker is the first guard (a literal outside the list does not
 * compile); this test reads the source as well, so a constructor loosened back
 * to `string`, or a code spelt in an object typed some other way, still fails
 * here with the file and line to mend.
 */

import assert from "node:assert/strict";
import { error, warning } from "../../engine/base/issue.ts";
import { isIssueCode, ISSUE_CODES } from "../../engine/base/issue_codes.ts";
import { ISSUE_CODES_PAGE } from "../../tools/issue_codes_doc.ts";
import { runCli } from "../_support/cli.ts";
import { slow } from "../_support/quick.ts";

const SLOW = slow("tests that start processes (the CLI, a helper, pytest, podman, the bundle)");

const ROOT = new URL("../../", import.meta.url).pathname;
const SOURCE_ROOTS = ["engine", "agent", "cli", "tools", "main.ts"];
const LIST_FILE = "engine/base/issue_codes.ts";
/** zod's own issue code for a refinement (`ctx.addIssue({code: "custom"})`), not one of ours. */
const ZOD_CODES = new Set(["custom"]);
const KEBAB = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Repository-relative paths of the non-test TypeScript files under `SOURCE_ROOTS`. */
function sourceFiles(): string[] {
  const out: string[] = [];
  const visit = (rel: string) => {
    const info = Deno.statSync(`${ROOT}${rel}`);
    if (info.isFile) {
      if (rel.endsWith(".ts") && !rel.endsWith("_test.ts")) out.push(rel);
      return;
    }
    for (const entry of Deno.readDirSync(`${ROOT}${rel}`)) visit(`${rel}/${entry.name}`);
  };
  SOURCE_ROOTS.forEach(visit);
  return out.sort();
}

/** One code literal found in the source. */
interface Found {
  code: string;
  file: string;
  line: number;
}

/** The text of one call argument starting at `from`: up to the first `,` or `)` outside brackets and strings. */
function argumentAt(text: string, from: number): string {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || c === "'" || c === "`") {
      const end = text.indexOf(c, i + 1);
      if (end === -1) return text.slice(from);
      i = end;
    } else if ("([{".includes(c)) depth++;
    else if (")]}".includes(c)) {
      if (depth === 0) return text.slice(from, i);
      depth--;
    } else if (c === "," && depth === 0) return text.slice(from, i);
  }
  return text.slice(from);
}

/**
 * The code literals of `text`: the first argument of every call to an issue
 * constructor in `constructors` (the whole argument, or either branch of a
 * ternary, or the fallback of `??`), and every `code: "..."`, `code ?? "..."`,
 * `code === "..."` or `code !== "..."`.
 */
export function codeLiterals(text: string, file: string, constructors: ReadonlySet<string>): Found[] {
  const out: Found[] = [];
  const lineOf = (index: number) => text.slice(0, index).split("\n").length;
  const add = (code: string, index: number) => {
    if (KEBAB.test(code) && !ZOD_CODES.has(code)) out.push({ code, file, line: lineOf(index) });
  };
  for (const call of text.matchAll(/(?<![\w.$])([A-Za-z_]\w*)\(\s*/g)) {
    if (!constructors.has(call[1])) continue;
    const start = call.index + call[0].length;
    const arg = argumentAt(text, start).trim();
    const whole = /^"([^"]*)"$/.exec(arg);
    if (whole) add(whole[1], start);
    for (const branch of arg.matchAll(/(?:\?\??|:)\s*"([^"]*)"/g)) add(branch[1], start);
  }
  for (const m of text.matchAll(/(?<!typeof\s+[\w.?]*)\bcode(?::|\s*\?\?|\s*[!=]==)\s*"([^"]*)"/g)) {
    add(m[1], m.index);
  }
  const seen = new Set<string>();
  return out.filter((found) => {
    const key = `${found.code}:${found.line}`;
    return !seen.has(key) && seen.add(key);
  });
}

/** Names of the functions whose first parameter is `code: IssueCode`: the issue constructors and their helpers. */
export function constructorNames(texts: readonly string[]): Set<string> {
  const names = new Set(["error", "warning", "fail"]);
  for (const text of texts) {
    for (const m of text.matchAll(/function\s+(\w+)\(\s*code\??:\s*IssueCode\b/g)) names.add(m[1]);
    for (const m of text.matchAll(/\b(\w+)\s*=\s*\(\s*code\??:\s*IssueCode\b/g)) names.add(m[1]);
  }
  return names;
}

const FILES = sourceFiles().filter((file) => file !== LIST_FILE);
const TEXTS = new Map(FILES.map((file) => [file, Deno.readTextFileSync(`${ROOT}${file}`)]));
const CONSTRUCTORS = constructorNames([...TEXTS.values()]);

Deno.test("issue codes: the scanner finds codes in calls, ternaries, fallbacks and objects", () => {
  const names = constructorNames(["export function overLimit(\n  code: IssueCode,\n  key: string) {}"]);
  assert.ok(names.has("overLimit") && names.has("fail"));
  const text = [
    'fail("file-not-found", `File "${rel}" does not exist`);',
    'return overLimit(\n    kind === "a" ? "plan-too-deep" : "plan-too-large",\n    "x");',
    'error(details.code ?? "template-precondition", message);',
    'return { code: "usage-error", severity: "error", message };',
    'if (issue.code === "import-unused") {}',
    'const given = typeof params.code === "string" ? params.code : undefined;',
    'ctx.addIssue({ code: "custom", message });',
    'console.error("not-a-code", x); notAConstructor("also-not", y);',
  ].join("\n");
  assert.deepEqual(
    codeLiterals(text, "x.ts", names).map((found) => `${found.code}@${found.line}`).sort(),
    [
      "file-not-found@1",
      "import-unused@7",
      "plan-too-deep@3",
      "plan-too-large@3",
      "template-precondition@5",
      "usage-error@6",
    ],
  );
});

Deno.test("issue codes: every code the source emits is in engine/base/issue_codes.ts", () => {
  assert.ok(CONSTRUCTORS.has("overLimit"), `constructors found: ${[...CONSTRUCTORS].join(", ")}`);
  const found = FILES.flatMap((file) => codeLiterals(TEXTS.get(file)!, file, CONSTRUCTORS));
  // The scan sees the bulk of the emitting code, not a corner of it.
  assert.ok(new Set(found.map((f) => f.code)).size > 150, `only ${found.length} code literals found`);
  const missing = found.filter((f) => !isIssueCode(f.code));
  assert.deepEqual(
    missing.map((f) =>
      `"${f.code}" (${f.file}:${f.line}) is not in ${LIST_FILE}: add \`"${f.code}": "<one line of meaning>",\` ` +
      `to ISSUE_CODES in alphabetical order, then run "deno run -A tools/issue_codes_doc.ts"`
    ),
    [],
  );
});

Deno.test("issue codes: every entry of the list is emitted somewhere in the source", () => {
  const all = [...TEXTS.values()].join("\n");
  const unused = Object.keys(ISSUE_CODES).filter((code) => !all.includes(`"${code}"`));
  assert.deepEqual(
    unused.map((code) =>
      `"${code}" is listed in ${LIST_FILE} but no file under ${SOURCE_ROOTS.join(", ")} emits it: ` +
      `remove the entry, then run "deno run -A tools/issue_codes_doc.ts"`
    ),
    [],
  );
});

Deno.test("issue codes: the list is in alphabetical order with one line of meaning each", () => {
  const codes = Object.keys(ISSUE_CODES);
  assert.deepEqual(codes, [...codes].sort(), `keep ${LIST_FILE} in alphabetical order (merges stay clean)`);
  for (const [code, meaning] of Object.entries(ISSUE_CODES)) {
    assert.match(code, KEBAB, `"${code}" is not kebab-case`);
    assert.ok(
      meaning.length > 10 && !meaning.includes("\n"),
      `"${code}": one line of meaning, got "${meaning}"`,
    );
    assert.ok(!meaning.endsWith("."), `"${code}": no trailing period`);
  }
});

Deno.test("issue codes: the constructors and the Issue type accept only listed codes", () => {
  const issueTs = Deno.readTextFileSync(`${ROOT}engine/base/issue.ts`);
  assert.match(issueTs, /\n\s+code: IssueCode;/, "Issue.code must be typed IssueCode");
  for (const name of ["error", "warning", "fail"]) {
    assert.match(
      issueTs,
      new RegExp(`function ${name}\\(code: IssueCode`),
      `${name}() must take an IssueCode`,
    );
  }
  // A misspelt code does not type-check (deno test checks this file): the directive fails if it would.
  // @ts-expect-error "locator-ambigous" is not an IssueCode
  assert.equal(error("locator-ambigous", "Misspelt").code, "locator-ambigous");
  assert.equal(warning("locator-ambiguous", "Spelt right").code, "locator-ambiguous");
  assert.equal(isIssueCode("locator-ambiguous"), true);
  assert.equal(isIssueCode("constructor"), false, "an Object.prototype member is no code");
});

Deno.test("issue codes: docs/issue_codes.md lists exactly the codes and meanings of the list", () => {
  const page = Deno.readTextFileSync(`${ROOT}${ISSUE_CODES_PAGE}`);
  const rows = [...page.matchAll(/^\|\s*`([^`]+)`\s*\|\s*(.*?)\s*\|\s*$/gm)].map((m) => [m[1], m[2]]);
  assert.deepEqual(
    rows,
    Object.entries(ISSUE_CODES),
    `${ISSUE_CODES_PAGE} is stale: run "deno run -A tools/issue_codes_doc.ts"`,
  );
  const readme = Deno.readTextFileSync(`${ROOT}README.md`);
  assert.ok(readme.includes(ISSUE_CODES_PAGE), `the README links ${ISSUE_CODES_PAGE}`);
});

Deno.test("graphplan schema --issue-codes prints the list; --json as an object", SLOW, async () => {
  const json = await runCli(["schema", "--issue-codes", "--json"]);
  assert.equal(json.code, 0, json.stderr);
  assert.deepEqual(JSON.parse(json.stdout), ISSUE_CODES);
  const text = await runCli(["schema", "--issue-codes"]);
  assert.equal(text.code, 0, text.stderr);
  const lines = text.stdout.trimEnd().split("\n");
  assert.equal(lines.length, Object.keys(ISSUE_CODES).length);
  assert.match(
    lines.find((line) => line.startsWith("locator-ambiguous "))!,
    /locator-ambiguous\s+A locator matches/,
  );
  const both = await runCli(["schema", "--issue-codes", "--check", "-"]);
  assert.equal(both.code, 2, "--check and --issue-codes exclude each other");
});
