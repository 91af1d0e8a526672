/**
 * Tier-1 surgery beyond Python and JavaScript (issue 27): `swap_nodes`,
 * `reorder_children`, `move_node` and `copy_node` on real Go, Rust and Java
 * files of the multilang corpus (`../shared/corpus/multilang-heldin.jsonl.gz`,
 * the `before` side of each commit's files), checked by the language's own
 * tools after the edit: `gofmt -e` (Go), `rustfmt` as Rust's parser, and
 * `javac`, whose errors on a file cut from its project (missing imports) are
 * compared with the original's, so only a new error counts.
 *
 * Each rearrangement must keep the file's definitions as they were, only in
 * another order (the multiset of their texts is unchanged), and a swap done
 * twice gives the file back byte for byte.
 */

import assert from "node:assert/strict";
import type { LanguageId, Node } from "../../../../engine/parse/mod.ts";
import { withTree } from "../../../../engine/parse/mod.ts";
import { loadMultilang, MULTILANG_SKIP, type MultilangFile } from "../../../_support/multilang.ts";
import { skipReason } from "../../../_support/skips.ts";
import { run } from "./_support.ts";

/** How many files per language (the first ones, by corpus order, with enough definitions). */
const FILES_PER_LANGUAGE = 3;

interface Target {
  /** Locators of the definitions, in file order. */
  members: Record<string, unknown>[];
  /** A reorder of a Java class's or a Rust impl's members: its methods in reverse, other members in place. */
  reorder?: { target: Record<string, unknown>; order: number[] };
}

/** The named members of a body as reorder_children counts them (no comments, no Rust attributes). */
function bodyMembers(body: Node): Node[] {
  return body.namedChildren.filter((child): child is Node =>
    child !== null && !/comment/.test(child.type) && child.type !== "attribute_item"
  );
}

/** Indices of `children` with those matching `member` reversed among themselves. */
function reversedMembers(children: Node[], member: RegExp): number[] {
  const picked = children.map((child, k) => member.test(child.type) ? k : -1).filter((k) => k >= 0);
  const reversed = [...picked].reverse();
  return children.map((_, k) => picked.includes(k) ? reversed[picked.indexOf(k)] : k);
}

const SETUP: Record<string, { ext: RegExp; tool: string[]; member: RegExp; kind: string }> = {
  go: { ext: /\.go$/, tool: ["gofmt", "-e", "-l"], member: /^function_declaration$/, kind: "function" },
  rust: { ext: /\.rs$/, tool: ["rustfmt", "--edition", "2021"], member: /^function_item$/, kind: "function" },
  java: { ext: /\.java$/, tool: ["javac"], member: /^method_declaration$/, kind: "method" },
};

function toolSkip(program: string): string | undefined {
  try {
    new Deno.Command(program, { args: ["--version"], stdout: "null", stderr: "null" }).outputSync();
    return undefined;
  } catch {
    return skipReason(`${program} not found on PATH: surgery results in its language are not compiled`);
  }
}

/** Uniquely named definitions directly in the file (Go, Rust) or the first class body (Java). */
async function targetOf(language: string, path: string, text: string): Promise<Target | undefined> {
  const { member, kind } = SETUP[language];
  return await withTree(language as LanguageId, text, (tree) => {
    let body: Node | null = tree.rootNode;
    let reorder: Target["reorder"];
    let parent = {};
    if (language === "java") {
      const cls = tree.rootNode.namedChildren.find((child) => child?.type === "class_declaration");
      body = cls?.childForFieldName("body") ?? null;
      const name = cls?.childForFieldName("name")?.text;
      if (!body || !name) return undefined;
      parent = { parent: { kind: "class", name } };
      reorder = {
        target: { file: path, kind: "class", name },
        order: reversedMembers(bodyMembers(body), member),
      };
    }
    if (language === "rust") {
      const impls = tree.rootNode.namedChildren.filter((child): child is Node => child?.type === "impl_item");
      const impl = impls.find((node) =>
        !node.childForFieldName("trait") && bodyMembers(node.childForFieldName("body")!).length >= 2
      );
      const type = impl?.childForFieldName("type")?.text;
      if (
        impl && type && /^\w+$/.test(type) &&
        impls.filter((i) => i.childForFieldName("type")?.text === type).length === 1
      ) {
        const order = reversedMembers(bodyMembers(impl.childForFieldName("body")!), member);
        reorder = { target: { file: path, kind: "impl", name: type }, order };
      }
    }
    const names = body.namedChildren
      .filter((child): child is Node => child !== null && member.test(child.type))
      .map((child) => child.childForFieldName("name")?.text ?? "");
    const unique = names.filter((name) => name !== "" && names.indexOf(name) === names.lastIndexOf(name));
    if (unique.length < 3) return undefined;
    return { reorder, members: unique.map((name) => ({ file: path, kind, name, ...parent })) };
  });
}

/** The tool's complaints about `text` (empty when it accepts it); javac's without line numbers. */
async function complaints(language: string, path: string, text: string): Promise<string[]> {
  const dir = await Deno.makeTempDir({ prefix: "graphplan-surgery-" });
  try {
    const name = path.slice(path.lastIndexOf("/") + 1);
    await Deno.writeTextFile(`${dir}/${name}`, text);
    const [program, ...args] = SETUP[language].tool;
    const command = language === "rust"
      ? new Deno.Command(program, { args, stdin: "piped", stdout: "null", stderr: "piped" })
      : new Deno.Command(program, {
        args: language === "java" ? ["-proc:none", "-d", `${dir}/out`, `${dir}/${name}`] : [...args, name],
        cwd: dir,
        stdout: "piped",
        stderr: "piped",
      });
    const child = command.spawn();
    if (language === "rust") {
      const writer = child.stdin.getWriter();
      await writer.write(new TextEncoder().encode(text));
      await writer.close();
    }
    const out = await child.output();
    if (out.success) return [];
    const stderr = new TextDecoder().decode(out.stderr);
    if (language !== "java") return [stderr];
    return stderr.split("\n").filter((line) => line.includes(": error:"))
      .map((line) => line.replace(/^.*?:\d+: error: /, "")).sort();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** The texts of the definitions `target` names, sorted (what a rearrangement must keep). */
async function memberTexts(language: string, text: string): Promise<string[]> {
  return await withTree(language as LanguageId, text, (tree) => {
    const out: string[] = [];
    const walk = (node: Node) => {
      if (SETUP[language].member.test(node.type)) out.push(node.text);
      for (const child of node.namedChildren) if (child) walk(child);
    };
    walk(tree.rootNode);
    return out.sort();
  });
}

async function files(language: string): Promise<MultilangFile[]> {
  const out: MultilangFile[] = [];
  for (const commit of await loadMultilang()) {
    if (commit.lang !== language) continue;
    for (const file of commit.files) {
      if (!SETUP[language].ext.test(file.path) || out.some((f) => f.path === file.path)) continue;
      if (await targetOf(language, file.path, file.before)) out.push(file);
    }
  }
  return out.slice(0, FILES_PER_LANGUAGE);
}

for (const language of Object.keys(SETUP)) {
  const reason = MULTILANG_SKIP ?? toolSkip(SETUP[language].tool[0]);
  Deno.test({
    name:
      `surgery in ${language}: swap, reorder, move and copy on corpus files leave code the compiler accepts`,
    ignore: !!reason,
    async fn() {
      const chosen = await files(language);
      assert.equal(chosen.length, FILES_PER_LANGUAGE, `${language}: corpus files with 3+ definitions`);
      for (const { path, before } of chosen) {
        const target = (await targetOf(language, path, before))!;
        const { members } = target;
        const base = await complaints(language, path, before);
        const kept = await memberTexts(language, before);
        const first = members[0];
        const last = members[members.length - 1];
        const accepted = async (op: string, text: string) => {
          assert.notEqual(text, before, `${path}: ${op} changed nothing`);
          assert.deepEqual(await complaints(language, path, text), base, `${path}: ${op}:\n${text}`);
        };

        const swapped = await run("swap_nodes", { target: first, other: last }, { [path]: before });
        await accepted("swap_nodes", swapped.text);
        assert.deepEqual(await memberTexts(language, swapped.text), kept, `${path}: swap lost a definition`);
        const back = await run("swap_nodes", { target: first, other: last }, { [path]: swapped.text });
        assert.equal(back.text, before, `${path}: a swap done twice is not the original`);

        if (target.reorder) {
          const reordered = await run("reorder_children", target.reorder, { [path]: before });
          await accepted("reorder_children", reordered.text);
          assert.deepEqual(await memberTexts(language, reordered.text), kept, `${path}: reorder`);
        }

        const moved = await run("move_node", { target: first, destination: last, position: "after" }, {
          [path]: before,
        });
        await accepted("move_node", moved.text);
        assert.deepEqual(await memberTexts(language, moved.text), kept, `${path}: move lost a definition`);

        // a copy duplicates a name, which only javac judges (Go and Rust are parsed): only that error is new
        const copied = await run("copy_node", { target: last, destination: first, position: "before" }, {
          [path]: before,
        });
        const texts = await memberTexts(language, copied.text);
        assert.equal(texts.length, kept.length + 1, `${path}: copy`);
        const now = await complaints(language, path, copied.text);
        const fresh = now.filter((line) => !base.includes(line));
        assert.ok(
          fresh.every((line) => /already defined/.test(line)),
          `${path}: copy_node:\n${fresh.join("\n")}`,
        );
      }
    },
  });
}
