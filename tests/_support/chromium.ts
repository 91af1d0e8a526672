/**
 * Headless Chromium driven over the DevTools protocol (a WebSocket from
 * Deno, no library), for tests of the HTML pages GraphPlan writes. The
 * browser runs with a fresh profile and no network: a proxy that refuses,
 * a resolver that finds no host, and the page's network emulated offline;
 * every request that is not `file:` or `data:` is recorded, as is every
 * console error, uncaught exception and log entry of level error.
 *
 * Tests skip, saying why, where Chromium is absent (`CHROMIUM_SKIP`, recorded
 * for the skip summary of `deno task test`).
 *
 * @module
 */

import { QUICK, quickSkip } from "./quick.ts";
import { skipReason } from "./skips.ts";

const CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];

function findChromium(): string | undefined {
  const fromEnv = Deno.env.get("CHROMIUM");
  for (const path of fromEnv ? [fromEnv, ...CANDIDATES] : CANDIDATES) {
    try {
      if (Deno.statSync(path).isFile) return path;
    } catch { /* absent */ }
  }
  return undefined;
}

/** The Chromium executable, if any. */
export const CHROMIUM = QUICK ? undefined : findChromium();

/** Reason to skip a browser test, or undefined. */
export const CHROMIUM_SKIP = skipReason(
  quickSkip("browser tests") ??
    (CHROMIUM ? undefined : `Chromium not found (looked at ${CANDIDATES.join(", ")})`),
);

type Json = Record<string, unknown>;

/** A browser with one page. */
export class Browser {
  readonly #child: Deno.ChildProcess;
  readonly #socket: WebSocket;
  readonly #profile: string;
  #next = 1;
  readonly #pending = new Map<number, { resolve: (value: Json) => void; reject: (err: Error) => void }>();
  readonly #waiters: { method: string; resolve: (params: Json) => void }[] = [];
  #session = "";
  /** Console errors, uncaught exceptions and error log entries, as text. */
  readonly errors: string[] = [];
  /** URLs the page requested that are neither `file:` nor `data:`. */
  readonly requests: string[] = [];

  private constructor(child: Deno.ChildProcess, socket: WebSocket, profile: string) {
    this.#child = child;
    this.#socket = socket;
    this.#profile = profile;
    socket.onmessage = (event) => this.#receive(JSON.parse(String(event.data)));
  }

  /** Start Chromium and open one page with its protocol domains enabled. */
  static async launch(options: { width?: number; height?: number } = {}): Promise<Browser> {
    if (!CHROMIUM) throw new Error(CHROMIUM_SKIP);
    const profile = await Deno.makeTempDir({ prefix: "gp_chromium_" });
    const child = new Deno.Command(CHROMIUM, {
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--no-default-browser-check",
        "--disable-dev-shm-usage",
        `--user-data-dir=${profile}`,
        "--remote-debugging-port=0",
        "--proxy-server=127.0.0.1:9",
        "--host-resolver-rules=MAP * ~NOTFOUND",
        "--allow-file-access-from-files",
        "about:blank",
      ],
      stdout: "null",
      stderr: "piped",
    }).spawn();
    const url = await devtoolsUrl(child.stderr);
    const socket = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      socket.onopen = () => resolve();
      socket.onerror = () => reject(new Error(`Cannot connect to Chromium at ${url}`));
    });
    const browser = new Browser(child, socket, profile);
    const { targetId } = await browser.send("Target.createTarget", { url: "about:blank" });
    const { sessionId } = await browser.send("Target.attachToTarget", { targetId, flatten: true });
    browser.#session = String(sessionId);
    for (const domain of ["Page", "Runtime", "Log", "Network"]) await browser.send(`${domain}.enable`);
    await browser.send("Network.emulateNetworkConditions", {
      offline: true,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    await browser.send("Emulation.setDeviceMetricsOverride", {
      width: options.width ?? 1280,
      height: options.height ?? 900,
      deviceScaleFactor: 1,
      mobile: false,
    });
    return browser;
  }

  /** Send a protocol command (to the page's session once attached). */
  send(method: string, params: Json = {}): Promise<Json> {
    const id = this.#next++;
    const message: Json = { id, method, params };
    if (this.#session) message.sessionId = this.#session;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#socket.send(JSON.stringify(message));
    });
  }

  #receive(message: Json): void {
    if (typeof message.id === "number") {
      const waiting = this.#pending.get(message.id);
      this.#pending.delete(message.id);
      const error = message.error as Json | undefined;
      if (error) waiting?.reject(new Error(`DevTools: ${String(error.message)}`));
      else waiting?.resolve((message.result ?? {}) as Json);
      return;
    }
    const method = String(message.method);
    const params = (message.params ?? {}) as Json;
    if (method === "Runtime.exceptionThrown") {
      const details = params.exceptionDetails as Json;
      this.errors.push(
        `exception: ${String((details.exception as Json | undefined)?.description ?? details.text)}`,
      );
    } else if (
      method === "Runtime.consoleAPICalled" && (params.type === "error" || params.type === "assert")
    ) {
      this.errors.push(`console.${params.type}: ${JSON.stringify(params.args)}`);
    } else if (method === "Log.entryAdded") {
      const entry = params.entry as Json;
      if (entry.level === "error") this.errors.push(`log: ${String(entry.text)} ${String(entry.url ?? "")}`);
    } else if (method === "Network.requestWillBeSent") {
      const url = String((params.request as Json).url);
      if (!/^(file|data|about):/.test(url)) this.requests.push(url);
    }
    for (let i = 0; i < this.#waiters.length; i++) {
      if (this.#waiters[i].method === method) {
        this.#waiters.splice(i, 1)[0].resolve(params);
        i--;
      }
    }
  }

  /** Resolves at the next event `method`. */
  waitFor(method: string): Promise<Json> {
    return new Promise((resolve) => this.#waiters.push({ method, resolve }));
  }

  /** Load a file and wait for its load event. */
  async open(path: string): Promise<void> {
    const loaded = this.waitFor("Page.loadEventFired");
    await this.send("Page.navigate", { url: new URL(`file://${path}`).href });
    await loaded;
  }

  /** Evaluate `expression` in the page; its value (JSON-able) or a thrown error. */
  async evaluate<T = unknown>(expression: string): Promise<T> {
    const result = await this.send("Runtime.evaluate", {
      expression,
      returnByValue: true,
      awaitPromise: true,
      userGesture: true,
    });
    if (result.exceptionDetails) {
      const details = result.exceptionDetails as Json;
      throw new Error(
        `In the page: ${String((details.exception as Json | undefined)?.description ?? details.text)}`,
      );
    }
    return (result.result as Json).value as T;
  }

  /** Click the element `selector` names with a real mouse event at its centre. */
  async click(selector: string): Promise<void> {
    const box = await this.evaluate<{ x: number; y: number } | null>(`(() => {
      const el = document.querySelector(${JSON.stringify(selector)});
      if (!el) return null;
      el.scrollIntoView({ block: "center" });
      const r = el.getBoundingClientRect();
      return { x: r.left + Math.min(r.width / 2, 40), y: r.top + r.height / 2 };
    })()`);
    if (!box) throw new Error(`No element matches ${JSON.stringify(selector)}`);
    for (const type of ["mousePressed", "mouseReleased"]) {
      await this.send("Input.dispatchMouseEvent", {
        type,
        x: box.x,
        y: box.y,
        button: "left",
        clickCount: 1,
      });
    }
  }

  /** A PNG of the page from its top, at most `maxHeight` CSS pixels tall. */
  async screenshot(maxHeight = 2400): Promise<Uint8Array> {
    await this.evaluate("window.scrollTo(0, 0)");
    const metrics = await this.send("Page.getLayoutMetrics");
    const size = (metrics.cssContentSize ?? metrics.contentSize) as { width: number; height: number };
    const shot = await this.send("Page.captureScreenshot", {
      format: "png",
      captureBeyondViewport: true,
      clip: {
        x: 0,
        y: 0,
        width: Math.min(size.width, 1280),
        height: Math.min(size.height, maxHeight),
        scale: 1,
      },
    });
    return Uint8Array.from(atob(String(shot.data)), (ch) => ch.charCodeAt(0));
  }

  /** Close the browser and remove its profile. */
  async close(): Promise<void> {
    try {
      this.#session = "";
      await Promise.race([this.send("Browser.close"), new Promise((resolve) => setTimeout(resolve, 2000))]);
    } catch { /* already gone */ }
    this.#socket.close();
    try {
      this.#child.kill("SIGKILL");
    } catch { /* exited */ }
    await this.#child.status;
    await Deno.remove(this.#profile, { recursive: true }).catch(() => {});
  }
}

/** Read Chromium's stderr until it prints its DevTools WebSocket URL (the rest is drained). */
async function devtoolsUrl(stderr: ReadableStream<Uint8Array>): Promise<string> {
  const reader = stderr.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  const deadline = setTimeout(() => reader.cancel("timeout"), 30_000);
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`Chromium exited before listening: ${seen.slice(-2000)}`);
      seen += value;
      const match = /DevTools listening on (ws:\/\/\S+)/.exec(seen);
      if (match) {
        void (async () => {
          try {
            while (!(await reader.read()).done) { /* drain */ }
          } catch { /* closed */ }
        })();
        return match[1];
      }
    }
  } finally {
    clearTimeout(deadline);
  }
}
