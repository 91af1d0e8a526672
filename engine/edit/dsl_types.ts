/**
 * The shape of a composed-operator definition (`define_operators` entries
 * and the built-in programs): calls, conditionals and the definition
 * itself. Its own file so the built-in programs (`composed.ts`) and the
 * interpreter (`dsl.ts`) share it without importing each other.
 *
 * @module
 */

/** A primitive (or operator) call inside a definition. */
export interface DslCall {
  primitive: string;
  params?: Record<string, unknown>;
  bind?: string;
}

/** A conditional inside a definition. */
export interface DslIf {
  if: string;
  then: DslStep | DslStep[];
  else?: DslStep | DslStep[];
}

/** One step of a definition. */
export type DslStep = DslCall | DslIf;

/** One entry of `define_operators`. */
export interface OperatorDefinition {
  define: string;
  params_schema?: Record<string, string>;
  steps: DslStep[] | DslStep;
}
