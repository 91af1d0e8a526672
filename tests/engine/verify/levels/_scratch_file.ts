import { corpusFile } from "./_support.ts";
const { text } = await corpusFile("psf__requests-5414", "requests/models.py");
const lines = text.split("\n");
console.log(lines.slice(580, 600).map((l, i) => `${581 + i}: ${l}`).join("\n"));
