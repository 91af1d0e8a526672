/**
 * A minimal worker entry for the pool tests: what main.ts does first, and
 * nothing else (so a test's workers do not load the whole CLI).
 *
 * @module
 */

import { maybeRunWorker } from "../../../engine/graph/pool.ts";

if (!maybeRunWorker()) throw new Error("_pool_entry.ts only runs as a pool worker");
