/**
 * Which file an import names: a module as written in an importing file
 * (`pkg.core`, `.core`, `..`, `./util`) matched against a repository path.
 * Python modules are dotted (absolute ones match as a path suffix, since the
 * package root may sit under `src/`; relative ones climb from the importer's
 * package), JS/TS modules are relative paths. `__init__`, `index` and `mod`
 * files stand for their directory.
 *
 * @module
 */

/** Whether `module` is a path (`./x`, `../x`, `a/b`) rather than a dotted name. */
export function isPathModule(module: string): boolean {
  return module.includes("/") || module.startsWith("./") || module.startsWith("../");
}

/** Whether `module`, as written in the file `importer`, names the file `target`. */
export function moduleIs(module: string, importer: string, target: string): boolean {
  const stem = target.replace(/\.[^./]+$/, "");
  const names = [stem];
  if (/\/(__init__|index|mod)$/.test(stem) || /^(__init__|index|mod)$/.test(stem)) {
    names.push(stem.slice(0, Math.max(0, stem.lastIndexOf("/"))));
  }
  const importerDir = importer.includes("/") ? importer.slice(0, importer.lastIndexOf("/")) : "";
  if (isPathModule(module)) {
    if (!module.startsWith(".")) return false;
    const resolved = normalize(`${importerDir}/${module}`).replace(/\.[^./]+$/, "");
    return names.includes(resolved);
  }
  const dots = /^\.*/.exec(module)![0].length;
  const rest = module.slice(dots).replaceAll(".", "/");
  if (dots > 0) {
    let base = importerDir;
    for (let i = 1; i < dots; i++) base = base.includes("/") ? base.slice(0, base.lastIndexOf("/")) : "";
    const resolved = normalize(rest ? `${base}/${rest}` : base);
    return names.includes(resolved);
  }
  if (!rest) return false;
  return names.some((candidate) => candidate === rest || candidate.endsWith(`/${rest}`));
}

/** The module `name` of the package `module` (`pkg` + `core` → `pkg.core`, `.` + `core` → `.core`). */
export function submodule(module: string, name: string): string {
  if (module.endsWith(".") || module.endsWith("/")) return module + name;
  return `${module}${isPathModule(module) ? "/" : "."}${name}`;
}

function normalize(path: string): string {
  const out: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") out.pop();
    else out.push(part);
  }
  return out.join("/");
}
