import { createCipheriv, createDecipheriv, createHmac, randomBytes, randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { RECOVERY_CODE_COUNT } from '#shared/security/security-schemas';

/** What every authenticator app understands: SHA-1, 6 digits, 30-second steps. */
export const TOTP_PERIOD_S = 30;
const TOTP_DIGITS = 6;
/** Codes of the previous and the next step are accepted too (clock drift, typing time). */
export const TOTP_WINDOW_STEPS = 1;
const ISSUER = 'Entreno';

const totpFor = (secretBase32: string, label = '') =>
  new TOTP({
    issuer: ISSUER,
    label,
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_S,
    secret: Secret.fromBase32(secretBase32),
  });

/** A new 160-bit authenticator secret, base32 (RFC 4226's recommended length). */
export function generateTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The otpauth:// address the QR code carries. */
export function totpUri(secretBase32: string, accountLabel: string): string {
  return totpFor(secretBase32, accountLabel).toString();
}

/** The code an app shows at `now` (tests and the e2e journey compute codes the same way). */
export function totpCode(secretBase32: string, now: Date): string {
  return totpFor(secretBase32).generate({ timestamp: now.getTime() });
}

/**
 * The 30-second step a typed code belongs to, within ±TOTP_WINDOW_STEPS of `now`, or undefined.
 * The caller refuses a step not newer than the last one used, so a code works once.
 */
export function matchTotpStep(secretBase32: string, typed: string, now: Date): number | undefined {
  const code = typed.replace(/[\s-]/g, '');
  if (!/^\d{6}$/.test(code)) return undefined;
  const delta = totpFor(secretBase32).validate({ token: code, timestamp: now.getTime(), window: TOTP_WINDOW_STEPS });
  if (delta === null) return undefined;
  return Math.floor(now.getTime() / 1000 / TOTP_PERIOD_S) + delta;
}

// No 0/o, 1/l/i: codes are read off paper.
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const RECOVERY_GROUP = 5;

/** Ten codes of ten characters (about 49 bits each), shown as "abcde-fghjk". */
export function generateRecoveryCodes(count = RECOVERY_CODE_COUNT): string[] {
  return Array.from({ length: count }, () => {
    const chars = Array.from(
      { length: RECOVERY_GROUP * 2 },
      () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)],
    );
    return `${chars.slice(0, RECOVERY_GROUP).join('')}-${chars.slice(RECOVERY_GROUP).join('')}`;
  });
}

/** A typed recovery code reduced to what was generated: lower case, no spaces or dashes. */
export function normalizeRecoveryCode(typed: string): string {
  return typed.toLowerCase().replace(/[\s-]/g, '');
}

/** Keyed hash of a recovery code or device token, bound to its user and use. */
export function keyedHash(key: Buffer, purpose: string, userId: string, value: string): string {
  return createHmac('sha256', key).update(`${purpose}\n${userId}\n${value}`).digest('hex');
}

/** AES-256-GCM: "iv.tag.ciphertext", base64url. The secrets must be readable to check codes. */
export function sealSecret(key: Buffer, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), sealed].map((part) => part.toString('base64url')).join('.');
}

export function openSecret(key: Buffer, sealed: string): string {
  const [iv, tag, data] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
  if (!iv || !tag || !data) throw new Error('two-factor: a sealed secret is malformed');
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
}
