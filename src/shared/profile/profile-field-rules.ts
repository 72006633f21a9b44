/**
 * The building blocks of the profile's field schemas: bounded strings and lists, person names,
 * single lines, social handles (and the networks' handle rules), the form of a missing-field message.
 */
import * as v from 'valibot';
import { SOCIAL_HANDLE_MAX } from './options.ts';
import { PROFILE_MESSAGES } from './profile-messages.ts';

/** A pasted profile address is longer than the handle; anything beyond this is not one. */
export const SOCIAL_ADDRESS_MAX = 200;

export type SocialNetwork = keyof typeof SOCIAL_HANDLE_MAX;

/** Per network: what a handle may hold, and the profile address it can be read from. */
export const SOCIAL_NETWORKS: Readonly<Record<SocialNetwork, { pattern: RegExp; address: RegExp }>> = {
  instagram: {
    pattern: new RegExp(`^[A-Za-z0-9._]{1,${SOCIAL_HANDLE_MAX.instagram}}$`),
    address: /^(?:https?:\/\/)?(?:www\.)?instagram\.com\/([^/?#\s]+)\/?(?:[?#]\S*)?$/i,
  },
  spotify: {
    pattern: new RegExp(`^[A-Za-z0-9._-]{1,${SOCIAL_HANDLE_MAX.spotify}}$`),
    address:
      /^(?:(?:https?:\/\/)?open\.spotify\.com\/(?:intl-[a-z-]+\/)?user\/|spotify:user:)([^/?#\s]+)\/?(?:[?#]\S*)?$/i,
  },
  strava: {
    pattern: new RegExp(`^[0-9]{1,${SOCIAL_HANDLE_MAX.strava}}$`),
    address: /^(?:https?:\/\/)?(?:www\.)?strava\.com\/athletes\/([^/?#\s]+)\/?(?:[?#]\S*)?$/i,
  },
};

/** Longest city name we keep. */
export const CITY_MAX = 100;
/** Longest photo key we accept. */
export const PHOTO_KEY_MAX = 512;
export const USER_ID_MAX = 64;

/** No option list is longer; a longer array is junk and is refused before its items are read. */
export const LIST_MAX = 64;

// ---------------------------------------------------------------------------------------------
// Building blocks

/** Code points, not UTF-16 units: an emoji is one character to the user. */
export function characterCount(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/** A raw-length guard that runs before trimming or regexes, so huge strings cost nothing. */
export function rawGuard(max: number): number {
  return max * 4 + 64;
}

/**
 * Whether a text holds C0 control characters or DEL (NUL in particular: PostgreSQL refuses it in
 * text). Multi-line texts may keep tab, line feed and carriage return.
 */
export function hasControlCharacter(text: string, isMultiLine: boolean): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (isMultiLine && (code === 0x09 || code === 0x0a || code === 0x0d)) continue;
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/**
 * The message of an object schema: `invalid` when the value is not an object, the per-key text
 * when a required key is missing (so a missing birthDate reads "La fecha de nacimiento es
 * obligatoria"), and the unknown-field text for a key the schema does not know.
 */
export function objectMessage(invalid: string, missing: Readonly<Record<string, string>> = {}) {
  return (issue: v.BaseIssue<unknown>): string => {
    if (issue.expected === 'never') return PROFILE_MESSAGES.unknownField;
    const key = issue.path?.[issue.path.length - 1]?.key;
    if (issue.expected?.startsWith('"') && typeof key === 'string' && Object.hasOwn(missing, key)) {
      return missing[key] ?? invalid;
    }
    return invalid;
  };
}

export function unique<T>(items: readonly T[]): T[] {
  return [...new Set(items)];
}

/** A list of values from one option list: bounded, each value known, duplicates dropped. */
export function optionList<const V extends string>(
  values: readonly V[],
  invalid: string,
  typeMessage: string = invalid,
) {
  return v.pipe(
    v.array(v.unknown(), typeMessage),
    v.maxLength(LIST_MAX, invalid),
    v.array(v.picklist(values, invalid), invalid),
    v.transform(unique),
  );
}

/** The same, with at least one value (spec 001 §5 "Selecciona al menos…"). */
export function requiredOptionList<const V extends string>(values: readonly V[], invalid: string, required: string) {
  return v.pipe(optionList(values, invalid, required), v.minLength(1, required));
}

export function numberBetween(min: number, max: number, message: string) {
  return v.pipe(v.number(message), v.finite(message), v.minValue(min, message), v.maxValue(max, message));
}

export function integerBetween(min: number, max: number, message: string) {
  return v.pipe(v.number(message), v.integer(message), v.minValue(min, message), v.maxValue(max, message));
}

// Letters of any script (accents, ñ, ü…) and single spaces; NFC first, so "é" typed as e + ´ is one letter.
export const PERSON_NAME = /^\p{L}[\p{L}\p{M} ]*$/u;

export function personName(max: number, message: string) {
  return v.pipe(
    v.string(message),
    v.maxLength(rawGuard(max), message),
    v.trim(),
    v.normalize('NFC'),
    v.transform((name: string) => name.replace(/ {2,}/g, ' ')),
    v.regex(PERSON_NAME, message),
    v.check((name: string) => characterCount(name) <= max, message),
  );
}

/** A trimmed line of text of `min`-`max` characters with no control characters. */
export function singleLine(min: number, max: number, message: string) {
  return v.pipe(
    v.string(message),
    v.maxLength(rawGuard(max), message),
    v.trim(),
    v.normalize('NFC'),
    v.check((text: string) => !hasControlCharacter(text, false), message),
    v.check((text: string) => {
      const count = characterCount(text);
      return count >= min && count <= max;
    }, message),
  );
}

/**
 * A social handle: the handle itself, "@handle", or the address of the profile on that network
 * (what people copy from the app's "share profile"), reduced to the handle. "" or null clears it.
 */
export function handle(network: SocialNetwork, message: string) {
  const { address, pattern } = SOCIAL_NETWORKS[network];
  return v.nullable(
    v.pipe(
      v.string(message),
      v.maxLength(rawGuard(SOCIAL_ADDRESS_MAX), message),
      v.trim(),
      v.transform((text: string) => text.match(address)?.[1] ?? text.replace(/^@/, '')),
      v.check((text: string) => text === '' || pattern.test(text), message),
      v.transform((text: string) => (text === '' ? null : text)),
    ),
  );
}
