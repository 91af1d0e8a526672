/** The GraphPlan version, reported by `--version` and the helper's `version` method. */
export const VERSION = "0.1.0";
