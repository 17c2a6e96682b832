// Exact decimal arithmetic on the contracts' amount strings (`^\d+(\.\d+)?$`), shared by every
// domain: a value is a BigInt of units at a scale (digits after the point), so prices, fees,
// limits and amounts received never pass through floating point. Pricing uses the Decimal
// operations; lists, filters and deposits use the string helpers at the end, which work on the
// text directly (sorting compares many amounts).

export interface Decimal {
  readonly units: bigint;
  readonly scale: number;
}

export type Rounding = 'down' | 'up' | 'half-up';

const amountPattern = /^\d+(\.\d+)?$/;

export function isAmount(text: string): boolean {
  return amountPattern.test(text);
}

export function parseDecimal(text: string): Decimal {
  if (!amountPattern.test(text)) throw new RangeError(`not a decimal amount: ${text}`);
  const point = text.indexOf('.');
  if (point === -1) return { units: BigInt(text), scale: 0 };
  return { units: BigInt(text.slice(0, point) + text.slice(point + 1)), scale: text.length - point - 1 };
}

/** The plain decimal text, trailing zeros of the fraction dropped (`1.50` → `1.5`, `2.0` → `2`). */
export function formatDecimal(value: Decimal): string {
  const negative = value.units < 0n;
  const digits = (negative ? -value.units : value.units).toString().padStart(value.scale + 1, '0');
  const whole = digits.slice(0, digits.length - value.scale);
  const fraction = digits.slice(digits.length - value.scale).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction === '' ? '' : `.${fraction}`}`;
}

function rescale(value: Decimal, scale: number): bigint {
  return value.units * 10n ** BigInt(scale - value.scale);
}

/** Division of integers rounded in the given direction (operands non-negative). */
function divideUnits(numerator: bigint, denominator: bigint, rounding: Rounding): bigint {
  const quotient = numerator / denominator;
  const remainder = numerator % denominator;
  if (remainder === 0n) return quotient;
  if (rounding === 'up') return quotient + 1n;
  if (rounding === 'half-up') return remainder * 2n >= denominator ? quotient + 1n : quotient;
  return quotient;
}

/** The value with exactly `scale` fraction digits, rounded in the given direction. */
export function roundDecimal(value: Decimal, scale: number, rounding: Rounding): Decimal {
  if (scale >= value.scale) return { units: rescale(value, scale), scale };
  return { units: divideUnits(value.units, 10n ** BigInt(value.scale - scale), rounding), scale };
}

export function add(a: Decimal, b: Decimal): Decimal {
  const scale = Math.max(a.scale, b.scale);
  return { units: rescale(a, scale) + rescale(b, scale), scale };
}

export function subtract(a: Decimal, b: Decimal): Decimal {
  const scale = Math.max(a.scale, b.scale);
  return { units: rescale(a, scale) - rescale(b, scale), scale };
}

export function multiply(a: Decimal, b: Decimal): Decimal {
  return { units: a.units * b.units, scale: a.scale + b.scale };
}

/** a / b with `scale` fraction digits, rounded in the given direction. */
export function divide(a: Decimal, b: Decimal, scale: number, rounding: Rounding): Decimal {
  if (b.units === 0n) throw new RangeError('division by zero');
  // a.units / 10^a.scale ÷ b.units / 10^b.scale, expressed in units of 10^-scale.
  const numerator = a.units * 10n ** BigInt(scale + b.scale);
  const denominator = b.units * 10n ** BigInt(a.scale);
  return { units: divideUnits(numerator, denominator, rounding), scale };
}

export function compare(a: Decimal, b: Decimal): number {
  const scale = Math.max(a.scale, b.scale);
  const difference = rescale(a, scale) - rescale(b, scale);
  return difference === 0n ? 0 : difference < 0n ? -1 : 1;
}

export function isZero(value: Decimal): boolean {
  return value.units === 0n;
}

/** Digits after the point of an amount as written (`0.0150` → 4). */
export function fractionDigits(text: string): number {
  return text.split('.')[1]?.length ?? 0;
}

/** Two amounts as written, compared by value without parsing them (leading zeros allowed). */
export function compareAmounts(a: string, b: string): number {
  const [aWhole = '', aFraction = ''] = a.split('.');
  const [bWhole = '', bFraction = ''] = b.split('.');
  const wholeA = aWhole.replace(/^0+(?=\d)/, '');
  const wholeB = bWhole.replace(/^0+(?=\d)/, '');
  if (wholeA.length !== wholeB.length) return wholeA.length - wholeB.length;
  if (wholeA !== wholeB) return wholeA < wholeB ? -1 : 1;
  const width = Math.max(aFraction.length, bFraction.length);
  const fractionA = aFraction.padEnd(width, '0');
  const fractionB = bFraction.padEnd(width, '0');
  return fractionA === fractionB ? 0 : fractionA < fractionB ? -1 : 1;
}

/**
 * a + b in the form every amount the mock computes takes (formatDecimal: `0.004` + `0.006` →
 * `0.01`, `1.50` + `2` → `3.5`), so a sum reads like a single amount of the same value.
 */
export function addAmounts(a: string, b: string): string {
  return formatDecimal(add(parseDecimal(a), parseDecimal(b)));
}

/**
 * `value` rounded to `significant` significant digits but never to fewer than `minScale`
 * fraction digits: how a rate is shown (64000.5 and 0.00001053 both keep their meaning).
 */
export function roundSignificant(value: Decimal, significant: number, minScale: number, rounding: Rounding): Decimal {
  const wholeDigits = formatDecimal(roundDecimal(value, 0, 'down')).replace(/^0$/, '').length;
  let scale: number;
  if (wholeDigits > 0) {
    scale = Math.max(minScale, significant - wholeDigits);
  } else {
    // 0.000123: the leading zeros after the point do not count.
    const fraction = formatDecimal(value).split('.')[1] ?? '';
    const leadingZeros = fraction.length - fraction.replace(/^0+/, '').length;
    scale = Math.max(minScale, leadingZeros + significant);
  }
  return roundDecimal(value, scale, rounding);
}
