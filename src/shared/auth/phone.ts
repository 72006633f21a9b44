import { PHONE_COUNTRY_PREFIX, PHONE_DIGITS } from './auth-constants.ts';

/** Spanish mobile ranges: SMS only reaches numbers starting with 6 or 7. */
const MOBILE_NUMBER = /^[67]\d{8}$/;

/** Why a phone field does not hold a number an SMS can reach yet (null: it does). */
export type PhoneFieldProblem = 'empty' | 'short' | 'long' | 'foreign' | 'not-mobile' | 'characters';

export type PhoneField = {
  /** The national digits understood so far (the prefix and separators taken out). */
  digits: string;
  problem: PhoneFieldProblem | null;
};

const SEPARATORS = /[\s.\-()/\u2010-\u2015]/g;
const PARTIAL_PREFIXES = ['+', '+3', '+34', '0', '00', '003', '0034'];

/**
 * Reads what a person types or pastes into the phone field as a Spanish number: spaces, dots,
 * dashes, slashes and brackets are ignored, and a leading `+34`, `0034` or `34` (before 9 more
 * digits) is the country prefix, never part of the number. Any other country is refused. The
 * digits are never cut to 9: "+34 612483792" typed halfway is "6124837" and too short, not a
 * stranger's "346124837".
 */
export function readPhoneField(input: string): PhoneField {
  if (input.length > 32) return { digits: '', problem: 'characters' };
  const compact = input.replace(SEPARATORS, '');
  if (compact === '') return { digits: '', problem: 'empty' };
  if (PARTIAL_PREFIXES.includes(compact)) return { digits: '', problem: 'short' };
  let national: string;
  if (compact.startsWith('+34')) national = compact.slice(3);
  else if (compact.startsWith('0034')) national = compact.slice(4);
  else if (compact.startsWith('+') || compact.startsWith('00')) return { digits: '', problem: 'foreign' };
  else if (/^34\d{9}$/.test(compact)) national = compact.slice(2);
  else national = compact;
  if (!/^\d*$/.test(national)) return { digits: national.replace(/\D/g, ''), problem: 'characters' };
  if (national.length < PHONE_DIGITS) return { digits: national, problem: 'short' };
  if (national.length > PHONE_DIGITS) return { digits: national, problem: 'long' };
  if (!MOBILE_NUMBER.test(national)) return { digits: national, problem: 'not-mobile' };
  return { digits: national, problem: null };
}

/** Says, in Spanish, why the number cannot be verified yet (null when it can, or nothing is typed). */
export function phoneFieldMessage(field: PhoneField): string | null {
  switch (field.problem) {
    case null:
    case 'empty':
      return null;
    case 'short': {
      const missing = PHONE_DIGITS - field.digits.length;
      return missing === 1
        ? 'Falta 1 dígito: un móvil español tiene 9.'
        : `Faltan ${missing} dígitos: un móvil español tiene 9.`;
    }
    case 'long':
      return 'Sobran dígitos: un móvil español tiene 9 (sin contar el +34).';
    case 'foreign':
      return 'Solo se admiten números de España (+34).';
    case 'not-mobile':
      return 'Debe ser un móvil: empieza por 6 o 7.';
    case 'characters':
      return 'Escribe solo números.';
  }
}

/**
 * Normalizes what a person types or a client sends to E.164 (`+34` and 9 digits), or null.
 * Accepts what `readPhoneField` accepts; a 9-digit number outside the mobile ranges is returned
 * too (the SMS service refuses it with its own error).
 */
export function normalizeSpanishPhone(input: string): string | null {
  const field = readPhoneField(input);
  if (field.problem !== null && field.problem !== 'not-mobile') return null;
  return `${PHONE_COUNTRY_PREFIX}${field.digits}`;
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
