import assert from "node:assert/strict";
import { loadConfig } from "../../../agent/config.ts";
import { instanceConfig } from "../../../agent/swebench/mod.ts";

Deno.test("instance config: the SWE-bench image name and /testbed unless the config sets them", async () => {
  const config = { ...(await loadConfig(["environment.type=local"])) };
  config.environment = { ...config.environment, type: "podman", image: null };
  const django = instanceConfig(config, "django__django-11099");
  assert.equal(
    django.environment.image,
    "docker.io/swebench/sweb.eval.x86_64.django_1776_django-11099:latest",
  );
  assert.equal(django.environment.cwd, "/testbed");
  assert.equal(config.environment.image, null, "the batch's config is not changed");
  const templated = instanceConfig(
    {
      ...config,
      environment: { ...config.environment, image_template: "registry.local/{{instance_id}}:v1" },
    },
    "astropy__astropy-12907",
  );
  assert.equal(templated.environment.image, "registry.local/astropy__astropy-12907:v1");
  const fixed = instanceConfig(
    { ...config, environment: { ...config.environment, image: "one:image", cwd: "/repo" } },
    "x__y-1",
  );
  assert.equal(fixed.environment.image, "one:image");
  assert.equal(fixed.environment.cwd, "/repo");
});
