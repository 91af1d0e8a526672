import { corpusBeforeFiles } from "../_support/corpus.ts";
const files = await corpusBeforeFiles();
for (const f of files) console.log(f.text.split("\n").length, f.id, f.path);
