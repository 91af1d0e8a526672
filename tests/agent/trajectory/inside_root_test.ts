/** `pathInside`: the one check of paths built from data before a write or a removal. */

import assert from "node:assert/strict";
import { OutsideRootError, pathInside, trajectoryPath } from "../../../agent/trajectory/mod.ts";

Deno.test("pathInside: a path strictly below the root is returned absolute; anything else is refused", () => {
  assert.equal(pathInside("/srv/runs/lite", "a__b-1"), "/srv/runs/lite/a__b-1");
  assert.equal(
    pathInside("/srv/runs/lite/", "a__b-1", "a__b-1.traj.json"),
    "/srv/runs/lite/a__b-1/a__b-1.traj.json",
  );
  // A name that merely starts with ".." is a name, and a sibling with the root as prefix is outside.
  assert.equal(pathInside("/srv/runs/lite", "..a"), "/srv/runs/lite/..a");
  const refused: [string[], RegExp][] = [
    [[".."], /it leads outside the root/],
    [["."], /it is the root itself/],
    [[""], /a part is empty/],
    [["../../x"], /it leads outside the root/],
    [["../lite2"], /it leads outside the root/],
    [["a/../.."], /it leads outside the root/],
    [["/etc"], /a part is an absolute path/],
    [["a\0b"], /a part holds a NUL character/],
    [["a", ".."], /it is the root itself/],
  ];
  for (const [parts, why] of refused) {
    assert.throws(() => pathInside("/srv/runs/lite", ...parts), (err: Error) => {
      assert.ok(err instanceof OutsideRootError, String(err));
      assert.match(err.message, /^Refusing the path made of "\/srv\/runs\/lite" and /);
      assert.match(err.message, why, JSON.stringify(parts));
      return true;
    });
  }
});

Deno.test("trajectoryPath: an id that would leave the output directory is refused", () => {
  assert.equal(trajectoryPath("/o", "x__y-1"), "/o/x__y-1/x__y-1.traj.json");
  for (const id of ["..", ".", "", "../x"]) assert.throws(() => trajectoryPath("/o", id), OutsideRootError);
});
