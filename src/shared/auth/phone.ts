import { PHONE_COUNTRY_PREFIX, PHONE_DIGITS } from './auth-constants.ts';

const NATIONAL_NUMBER = new RegExp(`^\\d{${PHONE_DIGITS}}$`);
/** Spanish mobile ranges: SMS only reaches numbers starting with 6 or 7. */
const MOBILE_NUMBER = /^[67]\d{8}$/;

/**
 * Normalizes what a person types or a client sends to E.164 (`+34` and 9 digits), or null.
 * Accepts spaces, dots, dashes and brackets, and the `+34`, `0034` or no prefix; any other country
 * prefix is refused, since Spain is the only country offered.
 */
export function normalizeSpanishPhone(input: string): string | null {
  if (input.length > 32) return null;
  const compact = input.replace(/[\s.\-()]/g, '');
  let national: string;
  if (compact.startsWith('+34')) national = compact.slice(3);
  else if (compact.startsWith('0034')) national = compact.slice(4);
  else national = compact;
  if (!NATIONAL_NUMBER.test(national)) return null;
  return `${PHONE_COUNTRY_PREFIX}${national}`;
}

/** The 9 national digits of a normalized number. */
export function nationalDigits(e164: string): string {
  return e164.startsWith(PHONE_COUNTRY_PREFIX) ? e164.slice(PHONE_COUNTRY_PREFIX.length) : e164;
}

/** True for a normalized Spanish number in a mobile range, the only ones an SMS can reach. */
export function isSpanishMobile(e164: string): boolean {
  return e164.startsWith(PHONE_COUNTRY_PREFIX) && MOBILE_NUMBER.test(nationalDigits(e164));
}

/**
 * Numbers nobody really owns, refused as PHONE_BLOCKED: every digit the same (666666666), the
 * subscriber part all one digit (600000000) or a straight run up or down (612345678, 698765432,
 * 678901234).
 */
export function isImplausiblePhone(e164: string): boolean {
  const digits = nationalDigits(e164);
  const subscriber = digits.slice(1);
  if (/^(\d)\1*$/.test(digits) || /^(\d)\1*$/.test(subscriber)) return true;
  return isStraightRun(subscriber) || isStraightRun(digits);
}

function isStraightRun(digits: string): boolean {
  let isUp = true;
  let isDown = true;
  for (let index = 1; index < digits.length; index += 1) {
    const step = (Number(digits[index]) - Number(digits[index - 1]) + 10) % 10;
    if (step !== 1) isUp = false;
    if (step !== 9) isDown = false;
  }
  return isUp || isDown;
}

/**
 * The number range used to throttle SMS pumping: the prefix and the first 5 national digits
 * (+3461234), so one attacker cycling through a block of numbers hits one limit.
 */
export function phoneRangeKey(e164: string): string {
  return `${PHONE_COUNTRY_PREFIX}${nationalDigits(e164).slice(0, 5)}`;
}

/** Shows a stored number the way people read it: +34 612 345 678. */
export function formatSpanishPhone(e164: string): string {
  const digits = nationalDigits(e164);
  return `${PHONE_COUNTRY_PREFIX} ${digits.slice(0, 3)} ${digits.slice(3, 6)} ${digits.slice(6)}`;
}
