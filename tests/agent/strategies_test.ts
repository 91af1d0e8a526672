/**
 * The strategy registry (agent/strategies.ts) and the table of names and
 * config sections beside the config (agent/config/strategy_sections.ts):
 * help and errors come from them, the two hold the same names, and the code
 * that runs a task never names a strategy.
 */

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import {
  ConfigError,
  defaultConfigData,
  loadConfig,
  parseConfigText,
  validateConfig,
} from "../../agent/config.ts";
import { STRATEGIES, strategyNamed } from "../../agent/strategies.ts";
import {
  DEFAULT_STRATEGY,
  STRATEGY_SECTIONS,
  strategyNames,
  strategySections,
} from "../../agent/config/strategy_sections.ts";
import type { Strategy } from "../../agent/common/strategy.ts";
import batch from "../../cli/batch.ts";
import run from "../../cli/run.ts";
import { parseCommandArgs, UsageError } from "../../cli/command.ts";
import { BATCH_OPTIONS_HELP, batchConfig } from "../../cli/batch_options.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const registered = Object.entries(STRATEGIES as Record<string, Strategy>);

Deno.test("strategies: an unknown agent.strategy is a config error listing the registered names and the closest", async () => {
  const problemsOf = async (spec: string) => {
    const err = await loadConfig([spec]).then(() => undefined, (e) => e);
    assert.ok(err instanceof ConfigError, `${spec} was accepted`);
    return err.problems;
  };
  assert.deepEqual(await problemsOf("agent.strategy=rfs"), [
    {
      key: "agent.strategy",
      message: 'Unknown strategy "rfs": use graphplan or rfsn (did you mean "rfsn"?)',
    },
  ]);
  assert.deepEqual(await problemsOf("agent.strategy=grahpplan"), [
    {
      key: "agent.strategy",
      message: 'Unknown strategy "grahpplan": use graphplan or rfsn (did you mean "graphplan"?)',
    },
  ]);
  // Nothing close: the names alone.
  assert.deepEqual(await problemsOf("agent.strategy=planner"), [
    { key: "agent.strategy", message: 'Unknown strategy "planner": use graphplan or rfsn' },
  ]);
  // An inherited property is no strategy.
  assert.deepEqual((await problemsOf("agent.strategy=toString"))[0].key, "agent.strategy");
  assert.throws(() => strategyNamed("constructor"), /Unknown strategy "constructor"/);
});

Deno.test("strategies: --strategy with a misspelt name is a usage error with did-you-mean", async () => {
  const args = parseCommandArgs(batch, ["--subset", "lite", "--strategy", "rfnn"]);
  await assert.rejects(
    () => batchConfig(args),
    (err) =>
      err instanceof UsageError &&
      /^Unknown strategy "rfnn": use graphplan or rfsn \(did you mean "rfsn"\?\)$/.test(err.message),
  );
});

Deno.test("strategies: the registry and the config's table hold the same names, in the same order", () => {
  assert.deepEqual(Object.keys(STRATEGIES), strategyNames());
});

Deno.test("strategies: each section a strategy registers is validated, and its defaults apply only when it is chosen", async () => {
  const withSection = Object.entries(STRATEGY_SECTIONS).filter(([, section]) => section);
  assert.ok(withSection.length > 0, "no strategy owns a section: the test would check nothing");
  const plain = await loadConfig();
  for (const [name, section] of withSection) {
    const key = section!.key;
    assert.equal(
      (plain as Record<string, unknown>)[key],
      undefined,
      `${key} is set without --strategy ${name}`,
    );
    const chosen = await loadConfig([`agent.strategy=${name}`]);
    const defaults = parseConfigText(section!.defaults, section!.file)[key];
    assert.deepEqual((chosen as Record<string, unknown>)[key], section!.schema.parse(defaults));
    // The section's schema is the config's: a wrong type in it is refused, naming the key.
    const data = structuredClone(chosen) as Record<string, Record<string, unknown>>;
    data[key] = { ...data[key], unknown_setting: 1 };
    assert.throws(
      () => validateConfig(data),
      (err) => err instanceof ConfigError && err.problems[0].key === `${key}.unknown_setting`,
    );
  }
});

Deno.test("strategies: run and batch help list every registered name with its summary, the default marked", () => {
  // The help marks the default without parsing config/graphplan.yaml: the two must agree.
  assert.equal((defaultConfigData().agent as { strategy: string }).strategy, DEFAULT_STRATEGY);
  assert.ok(BATCH_OPTIONS_HELP.includes(`--strategy NAME      ${DEFAULT_STRATEGY} (default)`));
  const runHelp = `${run.usage}\n${run.help}`;
  for (const [name, { summary }] of registered) {
    for (const help of [runHelp, BATCH_OPTIONS_HELP]) {
      assert.ok(help.includes(`${name}: ${summary}`), `help lacks "${name}: ${summary}"`);
    }
  }
  assert.ok(run.usage?.includes(`--strategy ${strategyNames().join("|")}`));
});

/** The files that run a task or a batch, which must read the registry's hooks and never a strategy's name. */
const NAME_BLIND = [
  "agent/run.ts",
  "agent/config.ts",
  "agent/swebench/batch.ts",
  "agent/swebench/slurm.ts",
  "agent/swebench/k8s.ts",
  "agent/swebench/launcher.ts",
  "cli/run.ts",
  "cli/batch.ts",
  "cli/batch_options.ts",
  "cli/slurm.ts",
  "cli/k8s.ts",
  "cli/preflight.ts",
];

Deno.test("strategies: run, config, batch, slurm and k8s never compare with a strategy's name or read its section", async () => {
  const names = strategyNames();
  const sections = strategySections().map((section) => section.key);
  const alternatives = (words: string[]) => words.map((word) => word.replace(/\W/g, "\\$&")).join("|");
  const compared = new RegExp(
    `(===|!==|==|!=|case)\\s*["'\`](${alternatives(names)})["'\`]|["'\`](${
      alternatives(names)
    })["'\`]\\s*(===|!==|==|!=)`,
  );
  const section = new RegExp(
    `\\.(${alternatives(sections)})\\b[?!]?\\.|\\[["'](${alternatives(sections)})["']\\]`,
  );
  // The patterns catch what run.ts and preflight.ts did before the registry.
  assert.match('if (config.agent.strategy === "rfsn") {', compared);
  assert.match("...(config.rfsn?.candidate_models ?? [])", section);
  for (const file of NAME_BLIND) {
    const lines = (await Deno.readTextFile(`${ROOT}${file}`)).split("\n");
    lines.forEach((line, index) => {
      const code = line.replace(/\/\/.*$/, "");
      assert.doesNotMatch(code, compared, `${file}:${index + 1} compares with a strategy's name`);
      assert.doesNotMatch(code, section, `${file}:${index + 1} reads a strategy's section`);
    });
  }
});
