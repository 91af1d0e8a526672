/**
 * The run configuration: `config/graphplan.yaml` (embedded in the binary),
 * merged with user files and `key.path=value` overrides in the order given
 * (`-c FILE`, `-c agent.step_limit=100`), then validated with zod. Mappings
 * merge key by key; lists and scalars replace. Override values are read as
 * YAML, so `=100` is a number, `=null` clears, `=[a, b]` is a list. The
 * strategy `agent.strategy` names may own a section of its own (`rfsn:`)
 * whose defaults (`config/rfsn.yaml`) are merged over the base defaults
 * before the user's files and overrides. The names and sections come from
 * `config/strategy_sections.ts`, not from the strategies, which read the
 * `Config` built here. An unknown key, an unknown strategy or a value of the
 * wrong type is an error naming the key.
 *
 * @module
 */

import { parse, YAMLParseError } from "yaml";
import * as z from "zod";
import defaultText from "../config/graphplan.yaml" with { type: "text" };
import { DEFAULT_LIMITS, type Limits } from "../engine/base/limits.ts";
import { GatePolicySchema } from "../engine/gate/mod.ts";
import type { StrategySection } from "./config/section.ts";
import {
  isStrategyName,
  sectionOf,
  STRATEGY_SECTIONS,
  strategySections,
  unknownStrategyMessage,
} from "./config/strategy_sections.ts";
import { readFailure } from "../engine/base/read_failure.ts";
import { closestNames } from "../engine/base/suggest.ts";

/** Prompt templates every config has (see config/graphplan.yaml for their variables). */
export const TEMPLATE_NAMES = [
  "system",
  "instance",
  "explore",
  "graph_view",
  "plan",
  "nudge",
  "verify_feedback",
  "confirm_warnings",
  "execute_failure",
  "lifted",
  "lift_feedback",
  "submit",
  "fallback",
  "observation",
  "format_error",
  "limits_exceeded",
  "patch_rejected",
  "gate_refused",
] as const;

const count = z.number().int().min(0);
const seconds = z.number().min(0);
const envValue = z.union([z.string(), z.number(), z.boolean()]).transform(String);

const AgentSchema = z.strictObject({
  max_explore_steps: count,
  max_plan_revisions: count,
  max_plan_nudges: count,
  step_limit: count,
  cost_limit: z.number().min(0),
  wall_time_limit: seconds,
  plan_path: z.string().min(1),
  plan_input: z.enum(["plan", "diff", "any"]),
  ready_marker: z.string().min(1),
  submit_marker: z.string().min(1),
  max_format_errors: count,
  max_patch_rejections: count,
  strategy: z.string().refine(isStrategyName, {
    error: (issue) => unknownStrategyMessage(String(issue.input)),
  }),
});

const ModelSchema = z.strictObject({
  name: z.string().regex(/^[\w.-]+\/.+$/, 'Expected "provider/model", e.g. "openai/gpt-5-mini"'),
  base_url: z.string().url().nullable(),
  temperature: z.number().min(0).nullable(),
  max_tokens: z.number().int().positive().nullable(),
  timeout: z.number().positive(),
  retries: count,
  backoff_initial: seconds,
  backoff_max: seconds,
  cost_tracking: z.enum(["default", "ignore"]),
  price: z.strictObject({ input: z.number().min(0), output: z.number().min(0) }).nullable(),
  script: z.string().nullable(),
  extra: z.record(z.string(), z.unknown()),
});

const EnvironmentSchema = z.strictObject({
  type: z.enum(["local", "docker", "podman"]),
  image: z.string().nullable(),
  cwd: z.string().nullable(),
  timeout: z.number().positive(),
  output_limit: z.number().int().min(100),
  env: z.record(z.string(), envValue),
  run_args: z.array(z.string()),
  container_command: z.array(z.string()).min(1),
  executable: z.string().nullable(),
  image_template: z.string().min(1),
  helper_command: z.array(z.string()).min(1).nullable(),
  helper_mount: z.boolean(),
  helper_main: z.boolean(),
  shell: z.enum(["session", "exec"]),
  helper_timeout: z.number().positive(),
  helper_limits: z.partialRecord(z.enum(Object.keys(DEFAULT_LIMITS) as [keyof Limits]), z.number().min(0)),
});

const VerificationSchema = z.strictObject({
  strict: z.boolean(),
  strict_codes: z.array(z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, "Expected a kebab-case issue code")).min(
    1,
  ),
  confirm_warnings: z.boolean(),
});

const TemplatesSchema = z.strictObject(
  Object.fromEntries(TEMPLATE_NAMES.map((name) => [name, z.string()])) as Record<
    (typeof TEMPLATE_NAMES)[number],
    z.ZodString
  >,
);

/** The sections the registered strategies own, each optional, by key (`rfsn`). */
type SectionShapes<T> = {
  [N in keyof T as T[N] extends StrategySection<z.ZodType, infer K> ? K : never]: T[N] extends
    StrategySection<infer S, string> ? z.ZodOptional<S> : never;
};

function sectionShapes<T extends Record<string, StrategySection | null>>(sections: T): SectionShapes<T> {
  return Object.fromEntries(
    Object.values(sections).flatMap((section) => section ? [[section.key, section.schema.optional()]] : []),
  ) as SectionShapes<T>;
}

/** The schema of a complete configuration. */
export const ConfigSchema = z.strictObject({
  agent: AgentSchema,
  model: ModelSchema,
  environment: EnvironmentSchema.superRefine((env, ctx) => {
    if (env.type !== "local" && !env.image) {
      ctx.addIssue({ code: "custom", path: ["image"], message: `Required when "type" is "${env.type}"` });
    }
  }),
  verification: VerificationSchema,
  templates: TemplatesSchema,
  gate: z.strictObject({ mode: GatePolicySchema.shape.mode, allow: GatePolicySchema.shape.allow }),
  /** The strategies' own sections (`rfsn:`, config/rfsn.yaml), each set only when it applies. */
  ...sectionShapes(STRATEGY_SECTIONS),
});

/** A validated configuration. */
export type Config = z.infer<typeof ConfigSchema>;
/** The `templates` section. */
export type Templates = Config["templates"];

/** One problem found in a configuration: the dotted key and what is wrong. */
export interface ConfigProblem {
  key: string;
  message: string;
  /** The known key an unknown one is closest to (a misspelling's likely meaning). */
  didYouMean?: string;
}

/** A configuration that cannot be read or is invalid. */
export class ConfigError extends Error {
  readonly problems: ConfigProblem[];
  constructor(problems: ConfigProblem[], source = "config") {
    super(
      problems.length === 1
        ? `Invalid ${source}: ${formatProblem(problems[0])}`
        : `Invalid ${source}:\n${problems.map((problem) => `  - ${formatProblem(problem)}`).join("\n")}`,
    );
    this.name = "ConfigError";
    this.problems = problems;
  }
}

function formatProblem(problem: ConfigProblem): string {
  const message = problem.didYouMean
    ? `${problem.message} (did you mean "${problem.didYouMean}"?)`
    : problem.message;
  return problem.key ? `"${problem.key}": ${message}` : message;
}

/** The embedded default configuration, unvalidated. */
export function defaultConfigData(): Record<string, unknown> {
  return parse(defaultText) as Record<string, unknown>;
}

/** True when a `-c` argument is an override (`key.path=value`) rather than a file. */
export function isOverride(spec: string): boolean {
  return /^[A-Za-z_][\w-]*(\.[\w-]+)*=/.test(spec);
}

/**
 * Load the configuration: the defaults, then each spec in order, a file
 * path or a `key.path=value` override.
 */
export async function loadConfig(specs: string[] = []): Promise<Config> {
  return validateConfig(await mergeConfigSpecs(specs));
}

/**
 * The defaults with `specs` (files and overrides) merged in order, not yet
 * validated. The chosen strategy's defaults (config/rfsn.yaml for `rfsn`)
 * go between the base defaults and the specs; the section of another
 * strategy that the specs set is checked against that section's defaults
 * alone (unused: a file shared by both strategies stays valid).
 */
export async function mergeConfigSpecs(specs: string[]): Promise<Record<string, unknown>> {
  const layers: Record<string, unknown>[] = [];
  for (const spec of specs) {
    layers.push(isOverride(spec) ? applyOverride({}, spec) : await readConfigFile(spec));
  }
  const apply = (base: Record<string, unknown>) =>
    layers.reduce((data, layer) => mergeConfig(data, layer), base);
  const data = apply(defaultConfigData());
  const name = (data.agent as Record<string, unknown> | undefined)?.strategy;
  const chosen = typeof name === "string" ? sectionOf(name) : undefined;
  // The chosen strategy's defaults go under the user's files and overrides, whole (its gate and
  // verification settings too); another strategy's only as its section, where the specs set it.
  let base: Record<string, unknown> | undefined;
  for (const section of strategySections()) {
    const defaults = parseConfigText(section.defaults, section.file);
    if (chosen === section) base = mergeConfig(base ?? defaultConfigData(), defaults);
    else if (layers.some((layer) => section.key in layer)) {
      base = mergeConfig(base ?? defaultConfigData(), { [section.key]: defaults[section.key] });
    }
  }
  return base ? apply(base) : data;
}

/** Read a YAML config file (a mapping). */
export async function readConfigFile(path: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (err) {
    throw new ConfigError(
      [{ key: "", message: `Cannot read "${path}": ${readFailure(err)}` }],
      "config file",
    );
  }
  return parseConfigText(text, path);
}

/** Parse YAML config text; `source` names it in errors. */
export function parseConfigText(text: string, source: string): Record<string, unknown> {
  let data: unknown;
  try {
    data = parse(text);
  } catch (err) {
    const line = err instanceof YAMLParseError && err.linePos ? ` at line ${err.linePos[0].line}` : "";
    throw new ConfigError(
      [{ key: "", message: `Cannot parse "${source}"${line}: ${(err as Error).message.split("\n")[0]}` }],
      "config file",
    );
  }
  if (data === null || data === undefined) return {};
  if (!isMapping(data)) {
    throw new ConfigError(
      [{ key: "", message: `"${source}" must hold a mapping of sections` }],
      "config file",
    );
  }
  return data;
}

/** `override` merged into `base`: mappings key by key, everything else replaced. Neither is changed. */
export function mergeConfig(
  base: Record<string, unknown>,
  override: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(override)) {
    const current = out[key];
    out[key] = isMapping(current) && isMapping(value) ? mergeConfig(current, value) : value;
  }
  return out;
}

/** Apply `key.path=value` (value read as YAML) to a copy of `data`. */
export function applyOverride(data: Record<string, unknown>, spec: string): Record<string, unknown> {
  const eq = spec.indexOf("=");
  const key = spec.slice(0, eq);
  const rawValue = spec.slice(eq + 1);
  let value: unknown;
  try {
    value = rawValue === "" ? "" : parse(rawValue);
  } catch (err) {
    throw new ConfigError(
      [{
        key,
        message: `Cannot read the value ${JSON.stringify(rawValue)}: ${
          (err as Error).message.split("\n")[0]
        }`,
      }],
      "override",
    );
  }
  const parts = key.split(".");
  const patch: Record<string, unknown> = {};
  let cursor = patch;
  parts.forEach((part, index) => {
    if (index === parts.length - 1) cursor[part] = value;
    else cursor = (cursor[part] = {}) as Record<string, unknown>;
  });
  return mergeConfig(data, patch);
}

/** Validate merged data, naming every bad key. */
export function validateConfig(data: unknown): Config {
  const result = ConfigSchema.safeParse(data);
  if (result.success) return result.data;
  const problems = result.error.issues.flatMap((issue): ConfigProblem[] => {
    const key = issue.path.map(String).join(".");
    if (issue.code === "unrecognized_keys") {
      const known = keysAt(issue.path);
      return issue.keys.map((name) => {
        const near = closestNames(name, known, 1);
        return {
          key: key ? `${key}.${name}` : name,
          message: "Unknown key",
          ...(near.length > 0 ? { didYouMean: key ? `${key}.${near[0]}` : near[0] } : {}),
        };
      });
    }
    return [{ key, message: issue.message }];
  });
  throw new ConfigError(problems);
}

/** The keys the schema allows in the mapping at `path` (none where it is not a fixed mapping). */
function keysAt(path: PropertyKey[]): string[] {
  // deno-lint-ignore no-explicit-any
  const unwrap = (schema: any) => {
    while (schema && !schema.shape && schema._zod?.def?.innerType) schema = schema._zod.def.innerType;
    return schema;
  };
  // deno-lint-ignore no-explicit-any
  let schema: any = ConfigSchema;
  for (const part of path) schema = unwrap(schema)?.shape?.[part as string];
  return Object.keys(unwrap(schema)?.shape ?? {});
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
