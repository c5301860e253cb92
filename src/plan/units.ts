/**
 * Units every part of the engine shares: GiB = 2^30 bytes, MiB, ceiling division, and a value with its
 * source.
 */

export function cdiv(a: number, b: number): number {
  return Math.ceil(a / b);
}

export const GIB = 2 ** 30;

export const MIB = 2 ** 20;

/** A default and where it came from. */
export interface Sourced<T> {
  value: T;
  source: string;
}
