import { loadCorpus } from "../../_support/corpus.ts";
const c = await loadCorpus();
const f = c.find(i => i.instance_id === "psf__requests-2931")!.files.find(f => f.path === "requests/models.py")!;
Deno.writeTextFileSync("/tmp/gp/models.py", f.before);
