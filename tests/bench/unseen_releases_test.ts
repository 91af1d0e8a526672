/**
 * The one-hunk instances of `unseen_releases.ts` (also used by
 * `unseen_multilang.ts`): a change whose diff is a single hunk yields that
 * change exactly. Before the fix, every hunk also deleted its last context
 * line (a Go import block lost its `)`), so an instance could break the file.
 */

import assert from "node:assert/strict";
import { loadMultilang, MULTILANG_SKIP } from "../_support/multilang.ts";
import { hunkInstances, unifiedDiff } from "./unseen_releases.ts";

Deno.test({
  name: "unseen releases: a one-hunk change of a real commit file comes back as that change exactly",
  ignore: MULTILANG_SKIP !== undefined,
  async fn() {
    let checked = 0;
    for (const commit of (await loadMultilang()).slice(0, 40)) {
      for (const file of commit.files) {
        const diff = await unifiedDiff(file.path, file.before, file.after);
        if (diff.match(/^@@ /gm)?.length !== 1) continue;
        const [hunk, ...rest] = await hunkInstances(file.path, file.before, file.after);
        assert.equal(rest.length, 0);
        assert.equal(hunk.after, file.after, `${commit.sha.slice(0, 8)} ${file.path}`);
        assert.equal(hunk.patch, diff);
        checked++;
      }
    }
    assert.ok(checked >= 10, `${checked} one-hunk files`);
  },
});
