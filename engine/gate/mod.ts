/**
 * The gate: does a patch weaken the tests? Offline and deterministic, like
 * the rest of the engine: the patch is applied in memory to the files a
 * caller's `readFile` gives (`invariants.ts`), so `graphplan gate`, the
 * final patch of either strategy (`agent/common/final_gate.ts`) and the rfsn
 * proposal checks (`agent/rfsn/gate.ts`) all judge a patch the same way.
 *
 * ```ts
 * const report = await checkInvariants(patch, { readFile, policy: DEFAULT_POLICY });
 * if (report.refused) console.log(report.errors.map((issue) => issue.code));
 * ```
 *
 * @module
 */

export { checkInvariants, type FileRole, type InvariantOptions, type InvariantReport } from "./invariants.ts";
export { DEFAULT_POLICY, type GatePolicy, GatePolicySchema, parsePolicy, WEAKENING_CODES } from "./policy.ts";
export { DEFAULT_TEST_FILES, readTestFileRule, type TestFileRule, testFileRule } from "./test_files.ts";
