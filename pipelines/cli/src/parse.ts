// Flag value parsers. They throw commander's InvalidArgumentError, which makes a usage error.
import { InvalidArgumentError } from "commander";

/** A whole number >= min (and <= max, when given). */
export function parseCount(min: number, max?: number): (value: string) => number {
  return (value) => {
    const n = /^\d+$/.test(value) ? Number(value) : NaN;
    if (!Number.isSafeInteger(n) || n < min) throw new InvalidArgumentError(`expected a whole number >= ${min}`);
    if (max !== undefined && n > max) throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}`);
    return n;
  };
}

/** A number from 0 up to, not including, 1. */
export function parseUnitFraction(value: string): number {
  const n = /^(0|0?\.\d+)$/.test(value) ? Number(value) : NaN;
  if (!(n >= 0 && n < 1)) throw new InvalidArgumentError("expected a number from 0 up to (not including) 1, such as 0.99");
  return n;
}

/** A number from 0 to 1, both included. */
export function parseUnitInterval(value: string): number {
  const n = value.trim() === "" ? NaN : Number(value);
  if (!(n >= 0 && n <= 1)) throw new InvalidArgumentError("expected a number from 0 to 1");
  return n;
}

const UNITS: Record<string, number> = { "": 1, k: 1 << 10, m: 1 << 20, g: 1 << 30 };

/** Bytes, with an optional binary suffix: 500000, 512K, 16M, 1G. */
export function parseByteSize(value: string): number {
  const match = /^(\d+)([kmg]?)(?:i?b)?$/i.exec(value);
  const n = match ? Number(match[1]) * UNITS[match[2].toLowerCase()] : NaN;
  if (!Number.isSafeInteger(n) || n < 1) throw new InvalidArgumentError("expected a size in bytes such as 500000, 512K or 16M");
  return n;
}
