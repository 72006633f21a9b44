import { SMS_CODE_LENGTH } from '#shared/auth/auth-constants';

/**
 * The six single-digit boxes of an SMS code (spec 000 §5) as pure functions: each takes the
 * digits ('' for an empty box) and returns the new digits and the box that should hold focus.
 */
export type CodeDigits = readonly string[];
export type CodeEdit = { digits: string[]; focusIndex: number };

export function emptyCode(length = SMS_CODE_LENGTH): string[] {
  return Array.from({ length }, () => '');
}

export function codeValue(digits: CodeDigits): string {
  return digits.join('');
}

export function isCodeComplete(digits: CodeDigits): boolean {
  return digits.every((digit) => /^\d$/.test(digit));
}

const onlyDigits = (text: string) => text.replace(/\D/g, '');
const clampIndex = (index: number, length: number) => Math.min(Math.max(index, 0), length - 1);

/**
 * Fills boxes from `index` with the digits of `text` (a paste, or an autofilled code). A full
 * code fills every box whichever box received it. Focus goes to the box after the last filled.
 */
export function pasteIntoCode(digits: CodeDigits, index: number, text: string): CodeEdit {
  const incoming = onlyDigits(text);
  const next = [...digits];
  if (incoming.length === 0) return { digits: next, focusIndex: clampIndex(index, digits.length) };
  const start = incoming.length >= digits.length ? 0 : index;
  const chars = incoming.slice(0, digits.length - start).split('');
  chars.forEach((char, offset) => {
    next[start + offset] = char;
  });
  return { digits: next, focusIndex: clampIndex(start + chars.length, digits.length) };
}

/**
 * What the box at `index` holds after an input event (`value` is the box's whole new value).
 * Non-digits are ignored; a digit typed over an existing one replaces it; several digits at once
 * (autofill, a paste the browser delivered as input) fill the following boxes. Focus auto-advances.
 */
export function typeIntoCode(digits: CodeDigits, index: number, value: string): CodeEdit {
  const typed = onlyDigits(value);
  const previous = digits[index] ?? '';
  if (typed.length === 0) {
    // Only a deletion empties the box; a letter typed into it leaves it as it was.
    const next = [...digits];
    if (value === '') next[index] = '';
    return { digits: next, focusIndex: index };
  }
  if (typed.length === 1) {
    const next = [...digits];
    next[index] = typed;
    return { digits: next, focusIndex: clampIndex(index + 1, digits.length) };
  }
  // The box held one digit and got another: keep the new one, wherever the caret was.
  if (typed.length === 2 && previous !== '' && typed.includes(previous)) {
    const fresh = typed.startsWith(previous) ? typed.slice(1) : typed.slice(0, 1);
    return typeIntoCode(digits, index, fresh);
  }
  return pasteIntoCode(digits, index, typed);
}

/**
 * Backspace in the box at `index` (spec 000 §5, "backspace shifts digits left"): it removes the
 * box's digit, or the previous box's when this one is empty, and the digits after it move one box
 * to the left, leaving the last box empty.
 */
export function backspaceInCode(digits: CodeDigits, index: number): CodeEdit {
  const removeAt = digits[index] ? index : index - 1;
  if (removeAt < 0) return { digits: [...digits], focusIndex: 0 };
  const next = [...digits.slice(0, removeAt), ...digits.slice(removeAt + 1), ''];
  return { digits: next, focusIndex: removeAt };
}
