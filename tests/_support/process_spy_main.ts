/**
 * A stand-in for main.ts that reports every read of the global `process` on
 * stderr (`process-read:` and the stack), in the main thread and in pool
 * workers alike (the pool starts workers from the main module, this one).
 * Reading `process` starts Deno's Node compatibility layer; see
 * tests/cli/node_compat_test.ts.
 */

const original = Object.getOwnPropertyDescriptor(globalThis, "process");
if (original?.get) {
  let reported = false;
  Object.defineProperty(globalThis, "process", {
    configurable: true,
    enumerable: original.enumerable,
    get() {
      if (!reported) {
        reported = true;
        console.error(`process-read: ${new Error().stack}`);
      }
      return original.get!.call(globalThis);
    },
    set(value) {
      original.set?.call(globalThis, value);
    },
  });
}

// Imported after the spy is in place; a worker serves the pool, the main thread runs the CLI.
const { maybeRunWorker } = await import("../../engine/graph/pool.ts");
if (!maybeRunWorker()) {
  const { main } = await import("../../main.ts");
  Deno.exit(await main(Deno.args));
}
