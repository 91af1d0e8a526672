import { corpusFile } from "../_edit_support.ts";
const t = await corpusFile("psf__requests-1766", "requests/auth.py");
console.log(t);
