/** The phone field of both registration flows: what it reads as, and what it says (issue #20). */
import { AUTH_MESSAGES } from '#shared/auth/auth-messages';
import { formatSpanishPhone, phoneFieldMessage, readPhoneField } from '#shared/auth/phone';
import { PHONE_COUNTRY_PREFIX } from '#shared/auth/auth-constants';

/** Room for "+34 612 48 37 92" and the like; the digits are never cut to 9. */
export const PHONE_FIELD_MAX_LENGTH = 24;

/**
 * What the field keeps of a keystroke or a paste: digits and the signs numbers are written with
 * (+, spaces, dots, dashes, slashes, brackets); letters never appear (spec 000 §5: digits only).
 */
export function keepPhoneCharacters(value: string): string {
  return value.replace(/[^\d+\s.\-()/\u2010-\u2015]/g, '').slice(0, PHONE_FIELD_MAX_LENGTH);
}

/** The 9 digits of a valid Spanish mobile in what was typed, else ''. */
export function validPhoneDigits(typed: string): string {
  const field = readPhoneField(typed);
  return field.problem === null ? field.digits : '';
}

/** The e-mail wizard's field error: the spec's "9 dígitos" for a wrong length, the precise reason otherwise. */
export function phoneFieldError(typed: string): string {
  const field = readPhoneField(typed);
  if (field.problem === 'empty' || field.problem === 'short' || field.problem === 'long') {
    return AUTH_MESSAGES.phoneDigits;
  }
  return phoneFieldMessage(field) ?? AUTH_MESSAGES.phoneDigits;
}

/**
 * The live line under the field: the format while empty, why the number cannot be verified yet,
 * or the number the code will go to.
 */
export function phoneFieldHint(typed: string, emptyHint: string): { text: string; isProblem: boolean } {
  const field = readPhoneField(typed);
  if (field.problem === 'empty') return { text: emptyHint, isProblem: false };
  const problem = phoneFieldMessage(field);
  if (problem) return { text: problem, isProblem: true };
  return {
    text: `Enviaremos el código al ${formatSpanishPhone(`${PHONE_COUNTRY_PREFIX}${field.digits}`)}.`,
    isProblem: false,
  };
}

/** A verified number in its read-only field, beside the +34: "612 483 792". */
export function formatNational(digits: string): string {
  return digits.replace(/^(\d{3})(\d{3})(\d{3})$/, '$1 $2 $3');
}
