import assert from "node:assert/strict";
import { OutputCollector, truncateOutput } from "../../../agent/env/mod.ts";

const encode = (text: string) => new TextEncoder().encode(text);

Deno.test("output: under the limit nothing is cut, whatever the chunking", () => {
  const collector = new OutputCollector(100);
  for (const piece of ["first line\n", "", "second line\n", "x".repeat(70)]) collector.push(encode(piece));
  assert.deepEqual(collector.result(), {
    text: "first line\nsecond line\n" + "x".repeat(70),
    truncated: false,
  });
});

Deno.test("output: over the limit the head and tail are kept and the cut is counted", () => {
  const collector = new OutputCollector(20);
  const lines = Array.from({ length: 500 }, (_, i) => `line ${i}\n`).join("");
  const bytes = encode(lines);
  for (let i = 0; i < bytes.length; i += 7) collector.push(bytes.subarray(i, i + 7));
  const { text, truncated } = collector.result();
  assert.equal(truncated, true);
  assert.ok(text.startsWith(lines.slice(0, 10)));
  assert.ok(text.endsWith(lines.slice(-10)));
  assert.match(
    text,
    new RegExp(`\\[\\.\\.\\. ${bytes.length - 20} of ${bytes.length} bytes of output cut here`),
  );
  assert.equal(collector.total, bytes.length);
});

Deno.test("output: multi-byte characters cut at the edge do not break decoding", () => {
  const collector = new OutputCollector(10);
  collector.push(encode("ééééééééééééééééééééé"));
  const { text } = collector.result();
  // 5 bytes each side hold two 2-byte characters; the half character is cut, not mangled.
  assert.ok(text.startsWith("éé\n[... 34 of 42 bytes"), text);
  assert.ok(text.endsWith("\néé"), text);
  assert.equal(text.includes("\uFFFD"), false);
});

Deno.test("truncateOutput: strings keep head and tail", () => {
  assert.deepEqual(truncateOutput("short", 10), { text: "short", truncated: false });
  const { text, truncated } = truncateOutput("a".repeat(50) + "b".repeat(50), 20);
  assert.equal(truncated, true);
  assert.ok(text.startsWith("a".repeat(10) + "\n[... 80 of 100 characters"));
  assert.ok(text.endsWith("b".repeat(10)));
});
