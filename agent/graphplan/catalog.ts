/**
 * The operator catalog shown in the PLAN prompt: `renderCatalog()` of
 * `engine/ops/catalog.ts`, generated from the template, surgery, fragment,
 * primitive, composed and legacy registries (names, summaries, typed
 * parameters, one worked example each), so prompt and engine cannot drift
 * apart.
 *
 * @module
 */

import { renderCatalog } from "../../engine/ops/catalog.ts";

/** The catalog text for the `plan` template. */
export function operatorCatalog(): string {
  return renderCatalog().trimEnd();
}
