/** sha256Hex: FIPS 180-2 test vectors, for strings (UTF-8) and bytes alike. */

import assert from "node:assert/strict";
import { sha256Hex } from "../../engine/base/node_builtins.ts";

Deno.test("sha256Hex matches the standard test vectors, for text and bytes", () => {
  const abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
  assert.equal(sha256Hex("abc"), abc);
  assert.equal(sha256Hex(new TextEncoder().encode("abc")), abc);
  assert.equal(sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  assert.equal(
    sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
    "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
  );
  // Text is hashed as UTF-8.
  assert.equal(sha256Hex("é"), sha256Hex(new Uint8Array([0xc3, 0xa9])));
});
