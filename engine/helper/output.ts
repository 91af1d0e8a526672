/**
 * Keeping huge outputs small: the first and last halves of the limit are
 * kept and the middle is replaced by a line saying how much was cut. The
 * collector works on the byte stream as it arrives (cutting between UTF-8
 * characters, never inside one), so a command that prints
 * gigabytes costs a few kilobytes of memory.
 *
 * @module
 */

const decoder = () => new TextDecoder("utf-8", { fatal: false });

/** The line put where output was cut. */
export function cutNotice(cut: number, total: number, unit = "bytes"): string {
  return `\n[... ${cut} of ${total} ${unit} of output cut here; narrow the command (grep, head, tail, sed -n) to see less at once ...]\n`;
}

/** Collects a stream's bytes, keeping at most `limit` (half head, half tail). */
export class OutputCollector {
  readonly #headLimit: number;
  readonly #tailLimit: number;
  readonly #head: Uint8Array[] = [];
  #headLength = 0;
  #tail: Uint8Array[] = [];
  #tailLength = 0;
  #total = 0;

  constructor(limit: number) {
    this.#headLimit = Math.ceil(limit / 2);
    this.#tailLimit = Math.floor(limit / 2);
  }

  /** Bytes seen so far. */
  get total(): number {
    return this.#total;
  }

  /** Add a chunk. */
  push(chunk: Uint8Array): void {
    this.#total += chunk.length;
    if (this.#headLength < this.#headLimit) {
      const take = Math.min(this.#headLimit - this.#headLength, chunk.length);
      this.#head.push(chunk.slice(0, take));
      this.#headLength += take;
      chunk = chunk.subarray(take);
    }
    if (chunk.length === 0) return;
    this.#tail.push(chunk.slice());
    this.#tailLength += chunk.length;
    while (this.#tail.length > 1 && this.#tailLength - this.#tail[0].length >= this.#tailLimit) {
      this.#tailLength -= this.#tail[0].length;
      this.#tail.shift();
    }
  }

  /** The collected text and whether its middle was cut. */
  result(): { text: string; truncated: boolean } {
    const head = concat(this.#head);
    const tail = concat(this.#tail);
    const kept = this.#headLength + this.#tailLength;
    if (kept === this.#total && this.#total <= this.#headLimit + this.#tailLimit) {
      return { text: decoder().decode(concat([head, tail])), truncated: false };
    }
    const keptBytes = {
      head: head.subarray(0, utf8HeadEnd(head)),
      tail: tail.subarray(utf8TailStart(tail, Math.max(0, tail.length - this.#tailLimit))),
    };
    const cut = this.#total - keptBytes.head.length - keptBytes.tail.length;
    return {
      text: decoder().decode(keptBytes.head) + cutNotice(cut, this.#total) + decoder().decode(keptBytes.tail),
      truncated: true,
    };
  }
}

/** Cut the middle out of `text` when it is longer than `limit` characters. */
export function truncateOutput(text: string, limit: number): { text: string; truncated: boolean } {
  if (text.length <= limit) return { text, truncated: false };
  const head = Math.ceil(limit / 2);
  const tail = Math.floor(limit / 2);
  const cut = text.length - head - tail;
  return {
    text: text.slice(0, head) + cutNotice(cut, text.length, "characters") + text.slice(text.length - tail),
    truncated: true,
  };
}

/** Where `bytes` ends without a partial UTF-8 character at its end. */
function utf8HeadEnd(bytes: Uint8Array): number {
  for (let back = 1; back <= Math.min(4, bytes.length); back++) {
    const byte = bytes[bytes.length - back];
    if ((byte & 0xc0) === 0x80) continue; // continuation byte: keep looking for the lead
    const need = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return need > back ? bytes.length - back : bytes.length;
  }
  return bytes.length;
}

/** The first index at or after `start` that begins a UTF-8 character. */
function utf8TailStart(bytes: Uint8Array, start: number): number {
  let index = start;
  while (index < bytes.length && index < start + 3 && (bytes[index] & 0xc0) === 0x80) index++;
  return index;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const length = parts.reduce((sum, part) => sum + part.length, 0);
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
