/**
 * The repository on disk: confining paths to its root, and reading source
 * files into text without losing a byte (BOM, line endings) on the way back.
 *
 * @module
 */

import { fail, type Issue, IssueError } from "./base/issue.ts";
import { limits, overLimit } from "./base/limits.ts";
import { detectLanguage, type LanguageId, PLAIN_TEXT } from "./base/languages.ts";
import { headerLanguage, isAmbiguousHeader } from "./base/header_language.ts";
import { closestNames, didYouMean } from "./base/suggest.ts";

/** A source file read from the repository. */
export interface SourceFile {
  /** Repository-relative path with `/` separators. */
  path: string;
  /** Absolute, symlink-resolved path. */
  absPath: string;
  language: LanguageId;
  /** The text without a leading BOM. */
  text: string;
  /** Whether the file started with a UTF-8 BOM (it is written back). */
  bom: boolean;
  /** The file's dominant line ending, used for inserted code. */
  eol: "\n" | "\r\n";
  /**
   * The file ends its lines with a lone CR (classic Mac OS): `text` holds
   * them as LF, so parsing and every operator see ordinary lines, and they
   * are written back as CR.
   */
  cr?: boolean;
  /** File mode bits, kept on write. */
  mode: number | null;
}

/** A repository root, with path confinement. */
export class Workspace {
  /** Absolute, symlink-resolved root. */
  readonly root: string;

  private constructor(root: string) {
    this.root = root;
  }

  /** Open the repository at `dir` (must be an existing directory). */
  static open(dir = "."): Workspace {
    let real: string;
    try {
      real = Deno.realPathSync(dir);
    } catch (err) {
      if (err instanceof Deno.errors.NotCapable) throw err; // reported by the CLI as a permission issue
      fail("repo-not-found", `Repository directory not found: "${dir}"`, {
        hint: "pass an existing directory with --repo",
      });
    }
    if (!Deno.statSync(real).isDirectory) {
      fail("repo-not-directory", `Repository path is not a directory: "${dir}"`);
    }
    return new Workspace(real);
  }

  /**
   * The absolute path of a repository-relative `path`, refusing absolute
   * paths, `..` segments and symlinks that lead outside the root. A path
   * that does not exist yet is checked through its nearest existing parent.
   * `rel` is the path of the real file relative to the root: every name of
   * a file (through symlinks inside the repository) gives the same `rel`.
   */
  resolve(path: string): { rel: string; abs: string } {
    if (typeof path !== "string" || path.length === 0) {
      fail("path-invalid", "File path is empty", { hint: "give a path relative to the repository root" });
    }
    if (path.includes("\0")) fail("path-invalid", `File path contains a NUL byte: ${JSON.stringify(path)}`);
    if (path.startsWith("/") || /^[A-Za-z]:[\\/]/.test(path)) {
      fail("path-outside-repo", `Absolute paths are refused: "${path}"`, {
        file: path,
        hint: "give the path relative to the repository root",
      });
    }
    const parts = path.replace(/\\/g, "/").split("/").filter((part) => part !== "" && part !== ".");
    if (parts.includes("..")) {
      fail("path-outside-repo", `Paths with ".." are refused: "${path}"`, {
        file: path,
        hint: "give the path relative to the repository root",
      });
    }
    if (parts.length === 0) fail("path-invalid", `File path names the repository root: "${path}"`);
    const rel = parts.join("/");
    const abs = `${this.root}/${rel}`;
    // Follow symlinks: the real path must stay inside the root.
    let probe = abs;
    let suffix = "";
    for (;;) {
      try {
        const real = Deno.realPathSync(probe);
        const full = real + suffix;
        if (full !== this.root && !full.startsWith(this.root + "/")) {
          fail("path-outside-repo", `Path leads outside the repository through a symlink: "${path}"`, {
            file: path,
          });
        }
        // Keyed by the real path: two names of one file (a symlink alias
        // inside the repository) are one file to the store and the journal.
        return { rel: full === this.root ? rel : full.slice(this.root.length + 1), abs: full };
      } catch (err) {
        if (!(err instanceof Deno.errors.NotFound)) {
          if (err instanceof Error && err.name === "IssueError") throw err;
          // ENAMETOOLONG, ELOOP, ENOTDIR...: the path cannot name a file here.
          const shown = path.length > 80 ? `${path.slice(0, 77)}...` : path;
          fail("path-invalid", `Cannot resolve "${shown}": ${(err as Error).message.split(":")[0]}`, {
            file: shown,
          });
        }
        const slash = probe.lastIndexOf("/");
        if (slash <= this.root.length) return { rel, abs };
        suffix = probe.slice(slash) + suffix;
        probe = probe.slice(0, slash);
      }
    }
  }

  /** Throw `file-not-found` for `rel`, suggesting the existing path it most likely meant. */
  private notFound(rel: string): never {
    const meant = this.closestPath(rel);
    fail("file-not-found", `File "${rel}" does not exist`, {
      file: rel,
      ...(meant ? { hint: didYouMean([meant]) } : {}),
    });
  }

  /**
   * The existing file `rel` most likely means: each segment that does not
   * exist replaced by the closest name in its directory. Undefined when
   * there is none.
   */
  closestPath(rel: string): string | undefined {
    let current = "";
    for (const segment of rel.split("/")) {
      const dir = current === "" ? this.root : `${this.root}/${current}`;
      let name = segment;
      if (!exists(`${dir}/${segment}`)) {
        let entries: string[];
        try {
          entries = [...Deno.readDirSync(dir)].map((entry) => entry.name).filter((n) => !n.startsWith("."));
        } catch {
          return undefined;
        }
        [name] = closestNames(segment, entries, 1);
        if (name === undefined) return undefined;
      }
      current = current === "" ? name : `${current}/${name}`;
    }
    try {
      return current !== rel && Deno.statSync(`${this.root}/${current}`).isFile ? current : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * Read a source file, with clear errors for unknown, binary or non-UTF-8
   * files. With `plainText`, a file no grammar applies to (`CHANGES.rst`,
   * `setup.cfg`) is read as language `"text"`, which only the text
   * operators edit.
   */
  read(path: string, options: { plainText?: boolean } = {}): SourceFile {
    const { rel, abs } = this.resolve(path);
    const language = detectLanguage(rel) ?? (options.plainText ? PLAIN_TEXT : undefined);
    if (!language && !exists(abs)) this.notFound(rel);
    if (!language) {
      fail("unknown-language", `Unknown file extension: "${rel}"`, {
        file: rel,
        hint:
          "supported: .py .js .jsx .mjs .cjs .ts .tsx .java .go .rs .rb .php .c .h .cpp .cc .cxx .hpp .hxx",
      });
    }
    let bytes: Uint8Array;
    let mode: number | null = null;
    try {
      const info = Deno.statSync(abs);
      if (!info.isFile) fail("file-not-regular", `Not a regular file: "${rel}"`, { file: rel });
      mode = info.mode;
      const max = limits().max_file_bytes;
      if (info.size > max) throw new IssueError(fileTooLarge(rel, info.size, max));
      bytes = Deno.readFileSync(abs);
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) this.notFound(rel);
      if (err instanceof Error && err.name === "IssueError") throw err;
      fail("file-unreadable", `Cannot read "${rel}": ${(err as Error).message}`, { file: rel });
    }
    const decoded = decodeSource(bytes, rel);
    // a `.h` file of a C++ project is C++ (header_language.ts)
    const read = language === "c" && isAmbiguousHeader(rel) ? headerLanguage(decoded.text, abs) : language;
    return { path: rel, absPath: abs, language: read, mode, ...decoded };
  }
}

/** The issue for a file over `max_file_bytes` (tree-sitter's memory ends not far above 20 MB). */
export function fileTooLarge(rel: string, size: number, max: number): Issue {
  return overLimit("file-too-large", "max_file_bytes", `File "${rel}" has ${size} bytes, more than ${max}`, {
    file: rel,
    hint: "edit a smaller file, or the lines of this one with a text tool",
  });
}

function exists(abs: string): boolean {
  try {
    Deno.statSync(abs);
    return true;
  } catch {
    return false;
  }
}

const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Decode source bytes, rejecting binary and non-UTF-8 content. */
export function decodeSource(
  bytes: Uint8Array,
  path: string,
): { text: string; bom: boolean; eol: "\n" | "\r\n"; cr: boolean } {
  const probe = bytes.subarray(0, 8192);
  if (probe.includes(0)) {
    fail("binary-file", `File "${path}" looks binary (it contains NUL bytes)`, { file: path });
  }
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    const offset = firstInvalidUtf8(bytes);
    const line = countLines(bytes.subarray(0, offset));
    fail("not-utf8", `File "${path}" is not valid UTF-8 (first bad byte at offset ${offset})`, {
      file: path,
      line,
      hint: "convert the file to UTF-8",
    });
  }
  const bom = text.charCodeAt(0) === 0xfeff;
  if (bom) text = text.slice(1);
  // Only CR as line ending, no LF anywhere: every CR is a line break (as
  // Python and JavaScript read it); with no LF in the file the mapping back
  // restores every byte.
  const cr = !text.includes("\n") && text.includes("\r");
  if (cr) text = text.replaceAll("\r", "\n");
  return { text, bom, eol: dominantEol(text), cr };
}

/** Encode text for writing, restoring the BOM and, for a CR-only file (`cr`), its lone CR line endings. */
export function encodeSource(text: string, bom: boolean, cr = false): Uint8Array {
  if (cr) text = text.replace(/\r\n?|\n/g, "\r");
  return new TextEncoder().encode(bom ? "\ufeff" + text : text);
}

/** The line ending most lines of `text` end with (LF when tied or none). */
export function dominantEol(text: string): "\n" | "\r\n" {
  let lf = 0;
  let crlf = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) {
    if (i > 0 && text.charCodeAt(i - 1) === 13) crlf++;
    else lf++;
  }
  return crlf > lf ? "\r\n" : "\n";
}

function countLines(bytes: Uint8Array): number {
  let lines = 1;
  for (const b of bytes) if (b === 10) lines++;
  return lines;
}

/** Offset of the first byte that does not start or continue a valid UTF-8 sequence. */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i];
    const need = b < 0x80
      ? 0
      : b >= 0xc2 && b < 0xe0
      ? 1
      : b >= 0xe0 && b < 0xf0
      ? 2
      : b >= 0xf0 && b < 0xf5
      ? 3
      : -1;
    if (need < 0) return i;
    for (let k = 1; k <= need; k++) {
      if (i + k >= bytes.length || (bytes[i + k] & 0xc0) !== 0x80) return i;
    }
    i += need + 1;
  }
  return i;
}
