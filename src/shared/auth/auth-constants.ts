/**
 * The access area's business constants (spec 000 §9 and QUALITY 4/5), shared by the server that
 * enforces them and the client that shows countdowns. Names keep the spec's meaning.
 */

/** Spain is the only country offered (spec 000 §3, "Country prefix list"). */
export const PHONE_COUNTRY_PREFIX = '+34';
export const PHONE_DIGITS = 9;

export const SMS_CODE_LENGTH = 6;
export const SMS_CODE_TTL_S = 10 * 60;
export const SMS_RESEND_COOLDOWN_S = 60;
/** Sends allowed per phone within SMS_SEND_WINDOW_S before the MAX_ATTEMPTS lock. */
export const SMS_MAX_SENDS_PER_WINDOW = 3;
export const SMS_SEND_WINDOW_S = 10 * 60;
/** The limit-reached lock; the spec's advice text says "3 minutos". */
export const SMS_LIMIT_LOCK_S = 180;
/** Wrong guesses that kill a code. */
export const SMS_CODE_MAX_WRONG_GUESSES = 5;
/** How long a phone verified by a code may be used to finish a registration. */
export const PHONE_VERIFICATION_TTL_S = 30 * 60;

export const NAME_MAX_LENGTH = 20;
export const LAST_NAME_MAX_LENGTH = 30;
export const EMAIL_MAX_LENGTH = 254;

export const PASSWORD_MIN_LENGTH = 8;
/** Long passphrases are welcome (QUALITY 1: at least 64); beyond this is abuse, not a password. */
export const PASSWORD_MAX_LENGTH = 256;

export const RESET_LINK_TTL_S = 60 * 60;

/** A Google ID token (`credential`) is about 1 KB; anything longer is not one (docs/decisions/0004). */
export const GOOGLE_CREDENTIAL_MAX_LENGTH = 8 * 1024;

/** "Recuérdame": the session kept for 30 days, as the user is told. */
export const REMEMBER_ME_SESSION_DAYS = 30;

/** Fallback position when the browser gives none (spec 000 §7 notes). */
export const DEFAULT_LOCATION = { latitude: 40.4168, longitude: -3.7038 } as const;

/** The header a response uses to hand the client a renewed token (spec 000 §4). */
export const NEW_TOKEN_HEADER = 'X-New-Token';

/** Socket event telling a client its session was revoked (spec 001 §7). */
export const TOKEN_INVALIDATED_EVENT = 'token_invalidated';
