import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './auth-constants.ts';
import { AUTH_MESSAGES } from './auth-messages.ts';

/** The special characters the spec lists (000 §5): !@#$%^&*()_-+=[]{};:'",.<>/?\| */
export const PASSWORD_SPECIAL_CHARACTERS = `!@#$%^&*()_-+=[]{};:'",.<>/?\\|`;

const HAS_LOWER = /\p{Ll}/u;
const HAS_UPPER = /\p{Lu}/u;
const HAS_DIGIT = /\d/;
const HAS_SPECIAL = /[!@#$%^&*()_\-+=[\]{};:'",.<>/?\\|]/;

export type PasswordRule = 'minLength' | 'maxLength' | 'mixedCase' | 'digit' | 'special';

/** Every composition rule in the order the spec lists them, with the text shown when it fails. */
export const PASSWORD_RULES: readonly { rule: PasswordRule; message: string; test(password: string): boolean }[] = [
  { rule: 'minLength', message: AUTH_MESSAGES.passwordMinLength, test: (p) => p.length >= PASSWORD_MIN_LENGTH },
  { rule: 'maxLength', message: AUTH_MESSAGES.passwordMaxLength, test: (p) => p.length <= PASSWORD_MAX_LENGTH },
  { rule: 'mixedCase', message: AUTH_MESSAGES.passwordCase, test: (p) => HAS_LOWER.test(p) && HAS_UPPER.test(p) },
  { rule: 'digit', message: AUTH_MESSAGES.passwordDigit, test: (p) => HAS_DIGIT.test(p) },
  { rule: 'special', message: AUTH_MESSAGES.passwordSpecial, test: (p) => HAS_SPECIAL.test(p) },
];

export function passwordRule(rule: PasswordRule) {
  const found = PASSWORD_RULES.find((candidate) => candidate.rule === rule);
  if (!found) throw new Error(`unknown password rule ${rule}`);
  return found;
}

/** The rules a password breaks, in spec order (empty when it meets them all). */
export function passwordProblems(password: string): { rule: PasswordRule; message: string }[] {
  return PASSWORD_RULES.filter((rule) => !rule.test(password)).map(({ rule, message }) => ({ rule, message }));
}

export function meetsPasswordRules(password: string): boolean {
  return passwordProblems(password).length === 0;
}

export type PasswordStrengthScore = 0 | 1 | 2 | 3 | 4 | 5;
export type PasswordStrengthLabel = 'Muy débil' | 'Débil' | 'Media' | 'Fuerte' | 'Muy fuerte';

/**
 * The strength meter's score, 0 to 5: one point each for 8+ characters, 12+ characters, upper and
 * lower case together, a digit and a special character. A password that meets every rule scores
 * at least 4 ("Fuerte"); length is what makes it "Muy fuerte".
 */
export function passwordStrength(password: string): PasswordStrengthScore {
  let score = 0;
  if (password.length >= PASSWORD_MIN_LENGTH) score += 1;
  if (password.length >= 12) score += 1;
  if (HAS_LOWER.test(password) && HAS_UPPER.test(password)) score += 1;
  if (HAS_DIGIT.test(password)) score += 1;
  if (HAS_SPECIAL.test(password)) score += 1;
  return score as PasswordStrengthScore;
}

/** Labels by score (spec 000 §5): Muy débil, Débil, Media for 2 and 3, Fuerte, Muy fuerte. */
export function passwordStrengthLabel(score: PasswordStrengthScore): PasswordStrengthLabel {
  switch (score) {
    case 0:
      return 'Muy débil';
    case 1:
      return 'Débil';
    case 2:
    case 3:
      return 'Media';
    case 4:
      return 'Fuerte';
    case 5:
      return 'Muy fuerte';
  }
}
