/**
 * Shared vocabulary of the inspect pages: the order of the phase machine
 * and how durations and costs are written.
 *
 * @module
 */

/** The phases of the structured path, in order (the fallback is outside it). */
export const PHASE_MACHINE = ["explore", "graph", "plan", "verify", "execute", "submit"] as const;

/** The furthest phase of {@linkcode PHASE_MACHINE} among `names` (-1: none). */
export function furthestPhase(names: string[]): number {
  return Math.max(-1, ...names.map((name) => PHASE_MACHINE.indexOf(name as typeof PHASE_MACHINE[number])));
}

/** Seconds as `0.42 s`, `12 s`, `3 min 5 s`; empty when unknown. */
export function duration(seconds: number | undefined): string {
  if (seconds === undefined) return "";
  if (seconds < 10) return `${seconds.toFixed(seconds < 1 ? 2 : 1)} s`;
  if (seconds < 120) return `${Math.round(seconds)} s`;
  return `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`;
}

/** Dollars as `$0.0123` (`$12.34` from ten dollars on); empty when unknown. */
export function dollars(cost: number | undefined): string {
  return cost === undefined ? "" : `$${cost.toFixed(cost >= 10 ? 2 : 4)}`;
}
