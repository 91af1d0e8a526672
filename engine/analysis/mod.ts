/**
 * What editing and checking both need to know about code, and nothing that
 * changes code or passes a verdict: the Python scope model and name
 * resolution (`scope.ts`), whether a rename is safe (`rename_safety.ts`),
 * which node kinds may stand for which (`kind_compatibility.ts`), the
 * repository's files of a language (`repo_files.ts`), Python module
 * matching and the files importing a module (`modules.ts`, `importers.ts`),
 * the names an edit left without their binding (`lost_names.ts`), whether
 * a span sits in a string, a comment or code (`text_context.ts`), quoting
 * in messages (`quote.ts`), what a Python test suite is made of: test files
 * and functions, assertions and how strict they are, skip/xfail markers
 * (`python_tests.ts`); for the other nine languages, which identifiers
 * define and which use a name, and which uses an edit left without their
 * definition, in the file and in the files that use it (`names/`).
 *
 * `engine/edit` and `engine/verify` both build on this layer; it imports
 * neither (`tests/engine/layering_test.ts` enforces it). New analyses
 * (statement contexts, the import graph, the target language version) go
 * here, one concept per file.
 *
 * @module
 */

export * from "./scope.ts";
export * from "./rename_safety.ts";
export * from "./kind_compatibility.ts";
export * from "./python_tests.ts";
