/**
 * Fake LLM servers for the client tests: a real HTTP server on 127.0.0.1
 * (port 0) that answers each request with the next scripted reply and
 * records what it was sent, and a raw TCP server that drops connections.
 *
 * @module
 */

/** One scripted reply. */
export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  /** JSON-serialised unless a string. */
  body?: unknown;
  /** Milliseconds to wait before answering. */
  delayMs?: number;
}

/** A request the server received. */
export interface Received {
  path: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

/** A running fake server. */
export interface FakeServer {
  /** `http://127.0.0.1:PORT`. */
  url: string;
  requests: Received[];
  close(): Promise<void>;
}

/** Serve `replies` in order; past the end, 500 with a message saying so. */
export function fakeServer(replies: Reply[]): FakeServer {
  const requests: Received[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (request) => {
    const text = await request.text();
    requests.push({
      path: new URL(request.url).pathname,
      headers: Object.fromEntries(request.headers),
      body: text ? JSON.parse(text) : {},
    });
    const reply = replies[requests.length - 1] ??
      { status: 500, body: { error: { message: "Script ended" } } };
    if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    const body = typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body ?? {});
    return new Response(body, {
      status: reply.status ?? 200,
      headers: { "content-type": "application/json", ...reply.headers },
    });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    requests,
    close: () => server.shutdown(),
  };
}

/**
 * A TCP server whose first `drops` connections are closed as soon as the
 * request arrives; later ones get `reply` as a hand-written HTTP answer.
 */
export function droppingServer(
  drops: number,
  reply: unknown,
): { url: string; connections: () => number; close(): Promise<void> } {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  let connections = 0;
  const loop = (async () => {
    for await (const conn of listener) {
      connections++;
      const buffer = new Uint8Array(65536);
      await conn.read(buffer).catch(() => null);
      if (connections <= drops) {
        conn.close();
        continue;
      }
      const body = JSON.stringify(reply);
      const head = `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${
        new TextEncoder().encode(body).length
      }\r\nconnection: close\r\n\r\n`;
      await conn.write(new TextEncoder().encode(head + body)).catch(() => 0);
      conn.close();
    }
  })().catch(() => {});
  return {
    url: `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}`,
    connections: () => connections,
    close: async () => {
      listener.close();
      await loop;
    },
  };
}

/** An OpenAI chat-completions answer with bash calls (`null` arguments: left out). */
export function openaiReply(
  content: string | null,
  calls: { id?: string; name?: string; arguments: string }[] = [],
  usage = { prompt_tokens: 1000, completion_tokens: 500 },
): Reply {
  return {
    body: {
      id: "chatcmpl-1",
      object: "chat.completion",
      choices: [{
        index: 0,
        finish_reason: calls.length ? "tool_calls" : "stop",
        message: {
          role: "assistant",
          content,
          ...(calls.length
            ? {
              tool_calls: calls.map((call, index) => ({
                id: call.id ?? `call_${index}`,
                type: "function",
                function: { name: call.name ?? "bash", arguments: call.arguments },
              })),
            }
            : {}),
        },
      }],
      usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
    },
  };
}

/** An Anthropic Messages answer. */
export function anthropicReply(
  blocks: Record<string, unknown>[],
  usage: Record<string, number> = { input_tokens: 1000, output_tokens: 500 },
): Reply {
  return {
    body: {
      id: "msg_1",
      type: "message",
      role: "assistant",
      model: "claude-sonnet-4-5",
      content: blocks,
      stop_reason: blocks.some((block) => block.type === "tool_use") ? "tool_use" : "end_turn",
      usage,
    },
  };
}

/** A retry policy that does not wait and records the waits it was asked for (ms). */
export function instantPolicy(): {
  sleep: (ms: number) => Promise<void>;
  random: () => number;
  waits: number[];
} {
  const waits: number[] = [];
  return {
    waits,
    sleep: (ms: number) => {
      waits.push(ms);
      return Promise.resolve();
    },
    random: () => 0.5,
  };
}
