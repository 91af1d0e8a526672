/**
 * cli/args.ts against its oracle, node:util `parseArgs` (strict, positionals
 * allowed): on the same command lines both must return the same values and
 * positionals, or both refuse with the same message.
 */

import assert from "node:assert/strict";
import { parseArgs } from "node:util";
import { ArgsError, type OptionSpec, parseOptions } from "../../cli/args.ts";
import { COMMON_OPTIONS } from "../../cli/command.ts";
import { runCli } from "../_support/cli.ts";
import { slow } from "../_support/quick.ts";

const SLOW = slow("tests that start processes (the CLI, a helper, pytest, podman, the bundle)");

/** The option sets of real commands: the common ones, `graph`'s, `run`'s (short and multiple), `catalog`'s. */
const SPECS: Record<string, OptionSpec> = {
  graph: { ...COMMON_OPTIONS, workers: { type: "string" } },
  run: {
    ...COMMON_OPTIONS,
    config: { type: "string", short: "c", multiple: true },
    output: { type: "string", short: "o" },
    dry: { type: "boolean", short: "d" },
  },
  catalog: { ...COMMON_OPTIONS, language: { type: "string" }, group: { type: "string", multiple: true } },
};

type Outcome = { ok: true; values: Record<string, unknown>; positionals: string[] } | {
  ok: false;
  message: string;
};

function ours(args: string[], options: OptionSpec): Outcome {
  try {
    const { values, positionals } = parseOptions(args, options);
    return { ok: true, values: { ...values }, positionals };
  } catch (err) {
    assert.ok(err instanceof ArgsError, `not an ArgsError: ${err}`);
    return { ok: false, message: err.message };
  }
}

function oracle(args: string[], options: OptionSpec): Outcome {
  try {
    const { values, positionals } = parseArgs({ args, options, strict: true, allowPositionals: true });
    return { ok: true, values: { ...values }, positionals };
  } catch (err) {
    return { ok: false, message: (err as Error).message };
  }
}

function same(args: string[], spec: string): void {
  assert.deepEqual(ours(args, SPECS[spec]), oracle(args, SPECS[spec]), `${spec}: ${JSON.stringify(args)}`);
}

Deno.test("parseOptions answers like parseArgs on the command lines GraphPlan's users type", () => {
  const lines = [
    ["graph", ["a.py", "b.py", "--json", "--repo", "/r"]],
    ["graph", ["--repo=/r", ".", "--workers", "0"]],
    ["graph", ["-h"]],
    ["graph", ["--help", "--json"]],
    ["graph", ["--repo"]],
    ["graph", ["--repo", "-x"]],
    ["graph", ["--repo", "-"]],
    ["graph", ["--repo=-x", "f.py"]],
    ["graph", ["--repo=", "f.py"]],
    ["graph", ["--json=yes"]],
    ["graph", ["--bogus"]],
    ["graph", ["-x"]],
    ["graph", ["-hx"]],
    ["graph", ["-", "--", "--json", "-h"]],
    ["graph", ["--repo", "--", "a"]],
    ["graph", ["--repo", "a", "--repo", "b"]],
    ["graph", ["--=x"]],
    ["graph", ["---x"]],
    ["graph", ["-1"]],
    ["graph", ["--workers", "2", "--", "--workers"]],
    ["run", ["-c", "model.name=x", "-c", "a.b=1", "--task", "t"]],
    ["run", ["-cmodel.name=x", "-o", "out"]],
    ["run", ["-dc", "k=v"]],
    ["run", ["-dck=v"]],
    ["run", ["-hdc"]],
    ["run", ["-od"]],
    ["run", ["-c"]],
    ["run", ["-c", "-d"]],
    ["run", ["--config", "--output"]],
    ["run", ["-d=1"]],
    ["run", ["--dry=", "x"]],
    ["run", ["-hj"]],
    ["catalog", ["--group", "insert", "--group=delete", "--language", "python"]],
    ["catalog", ["--group"]],
    ["catalog", ["--__proto__"]],
    ["catalog", []],
  ] as const;
  for (const [spec, args] of lines) same([...args], spec);
});

Deno.test("parseOptions answers like parseArgs on 3000 random command lines", () => {
  const pieces = [
    "--json",
    "--help",
    "-h",
    "--repo",
    "--repo=r",
    "--repo=-r",
    "--workers",
    "--workers=1",
    "file.py",
    "dir/",
    "-",
    "--",
    "-x",
    "--bogus",
    "--json=",
    "-c",
    "-o",
    "-d",
    "-cd",
    "-dc",
    "-dco",
    "-dcvalue",
    "-cvalue",
    "--config",
    "--config=a=b",
    "--output=o",
    "--group",
    "--group=g",
    "--language",
    "-hd",
    "-hdx",
    "=",
    "--=",
    "---",
    "-1",
    "value",
    "-hh",
    "--dry",
  ];
  let seed = 20261123;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  let refused = 0;
  for (let i = 0; i < 3000; i++) {
    const args = Array.from({ length: random(6) }, () => pieces[random(pieces.length)]);
    const spec = Object.keys(SPECS)[i % 3];
    const expected = oracle(args, SPECS[spec]);
    if (!expected.ok) refused++;
    assert.deepEqual(ours(args, SPECS[spec]), expected, `${spec}: ${JSON.stringify(args)}`);
  }
  // Both kinds of answer were exercised.
  assert.ok(refused > 300 && refused < 2700, `refused ${refused} of 3000`);
});

Deno.test(
  "an unknown long option gets the declared names close to it; one letter or nothing close gets none",
  SLOW,
  async () => {
    const typo = await runCli(["run", "--mdoel", "openai/gpt-5-mini"]);
    assert.equal(typo.code, 2);
    assert.match(typo.stderr, /^graphplan: Unknown option '--mdoel': did you mean "--model"\?\n/);
    const two = await runCli(["run", "--task-fil", "x"]);
    assert.match(two.stderr, /Unknown option '--task-fil': did you mean "--task-file" or "--task"\?/);
    const batch = await runCli(["batch", "--worker", "3"]);
    assert.match(batch.stderr, /Unknown option '--worker': did you mean "--workers"\?/);
    for (const args of [["graph", "--xyzzy"], ["graph", "-q"]]) {
      const none = await runCli(args);
      assert.equal(none.code, 2);
      assert.doesNotMatch(none.stderr, /did you mean/, args.join(" "));
    }
  },
);
