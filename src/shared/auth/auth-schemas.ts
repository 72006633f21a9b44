import * as v from 'valibot';
import {
  EMAIL_MAX_LENGTH,
  GOOGLE_CREDENTIAL_MAX_LENGTH,
  LAST_NAME_MAX_LENGTH,
  NAME_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  PHONE_COUNTRY_PREFIX,
  PASSWORD_MIN_LENGTH,
  SMS_CODE_LENGTH,
} from './auth-constants.ts';
import { AUTH_MESSAGES } from './auth-messages.ts';
import { passwordRule } from './password.ts';
import { readPhoneField } from './phone.ts';

/*
 * Every request and response of the access area (spec 000 §7). The server parses requests with
 * these schemas (a failure is a 400 carrying the first issue's Spanish text); the client types its
 * calls and forms with them. Request objects are strict: an unknown field is a 400.
 */

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// ---------------------------------------------------------------------------------------------
// Fields

/** E-mail as the registration wizard checks it; the output is trimmed and lower-cased. */
export const RegistrationEmailSchema = v.pipe(
  v.string(AUTH_MESSAGES.emailRequired),
  v.trim(),
  v.nonEmpty(AUTH_MESSAGES.emailRequired),
  v.maxLength(EMAIL_MAX_LENGTH, AUTH_MESSAGES.emailInvalid),
  v.regex(EMAIL_PATTERN, AUTH_MESSAGES.emailInvalid),
  v.toLowerCase(),
);

/** E-mail as the login and forgot-password screens check it. */
export const LoginEmailSchema = v.pipe(
  v.string(AUTH_MESSAGES.loginEmailInvalid),
  v.trim(),
  v.maxLength(EMAIL_MAX_LENGTH, AUTH_MESSAGES.loginEmailInvalid),
  v.regex(EMAIL_PATTERN, AUTH_MESSAGES.loginEmailInvalid),
  v.toLowerCase(),
);

export const NameSchema = v.pipe(
  v.string(AUTH_MESSAGES.nameRequired),
  v.trim(),
  v.nonEmpty(AUTH_MESSAGES.nameRequired),
  v.maxLength(NAME_MAX_LENGTH, AUTH_MESSAGES.nameTooLong),
);

/** Optional surname; an absent one is the empty string (spec 000 §3). */
export const LastNameSchema = v.optional(
  v.pipe(
    v.string(AUTH_MESSAGES.lastNameTooLong),
    v.trim(),
    v.maxLength(LAST_NAME_MAX_LENGTH, AUTH_MESSAGES.lastNameTooLong),
  ),
  '',
);

/** The 9 digits typed in the wizard's phone field (prefix shown apart). */
export const PhoneDigitsSchema = v.pipe(
  v.string(AUTH_MESSAGES.phoneDigits),
  v.regex(/^\d{9}$/, AUTH_MESSAGES.phoneDigits),
);

/**
 * A phone number in a request: a Spanish mobile, +34 and 9 digits starting with 6 or 7 (spaces,
 * dots, dashes, `0034` or no prefix tolerated, as `readPhoneField` reads them); anything else is
 * refused whatever the client sends. The output is E.164, e.g. `+34612398745`.
 */
export const PhoneSchema = v.pipe(
  v.string(AUTH_MESSAGES.invalidPhone),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const field = readPhoneField(dataset.value);
    if (field.problem !== null) {
      addIssue({ message: AUTH_MESSAGES.invalidPhone });
      return NEVER;
    }
    return `${PHONE_COUNTRY_PREFIX}${field.digits}`;
  }),
);

export const SmsCodeSchema = v.pipe(
  v.string(AUTH_MESSAGES.codeDigits),
  v.trim(),
  v.regex(new RegExp(`^\\d{${SMS_CODE_LENGTH}}$`), AUTH_MESSAGES.codeDigits),
);

/** A new password (registration and reset): every rule of spec 000 §5, with its text. */
export const NewPasswordSchema = v.pipe(
  v.string(AUTH_MESSAGES.passwordMinLength),
  v.minLength(PASSWORD_MIN_LENGTH, AUTH_MESSAGES.passwordMinLength),
  v.maxLength(PASSWORD_MAX_LENGTH, AUTH_MESSAGES.passwordMaxLength),
  v.check(passwordRule('mixedCase').test, AUTH_MESSAGES.passwordCase),
  v.check(passwordRule('digit').test, AUTH_MESSAGES.passwordDigit),
  v.check(passwordRule('special').test, AUTH_MESSAGES.passwordSpecial),
);

/** A password typed to log in: only the length limits, the rules may have changed since. */
export const LoginPasswordSchema = v.pipe(
  v.string(AUTH_MESSAGES.passwordMinLength),
  v.minLength(PASSWORD_MIN_LENGTH, AUTH_MESSAGES.passwordMinLength),
  v.maxLength(PASSWORD_MAX_LENGTH, AUTH_MESSAGES.passwordMaxLength),
);

const RememberMeSchema = v.optional(v.boolean(AUTH_MESSAGES.rememberMeInvalid), false);

const LatitudeSchema = v.optional(
  v.nullable(
    v.pipe(
      v.number(AUTH_MESSAGES.locationInvalid),
      v.minValue(-90, AUTH_MESSAGES.locationInvalid),
      v.maxValue(90, AUTH_MESSAGES.locationInvalid),
    ),
  ),
);
const LongitudeSchema = v.optional(
  v.nullable(
    v.pipe(
      v.number(AUTH_MESSAGES.locationInvalid),
      v.minValue(-180, AUTH_MESSAGES.locationInvalid),
      v.maxValue(180, AUTH_MESSAGES.locationInvalid),
    ),
  ),
);

/** The reset link's opaque token; anything else is simply an invalid link. */
export const ResetTokenSchema = v.pipe(
  v.string(AUTH_MESSAGES.resetLinkInvalid),
  v.trim(),
  v.nonEmpty(AUTH_MESSAGES.resetLinkInvalid),
  v.maxLength(256, AUTH_MESSAGES.resetLinkInvalid),
);

const ResetEmailSchema = v.pipe(
  v.string(AUTH_MESSAGES.resetLinkInvalid),
  v.trim(),
  v.nonEmpty(AUTH_MESSAGES.resetLinkInvalid),
  v.maxLength(EMAIL_MAX_LENGTH, AUTH_MESSAGES.resetLinkInvalid),
  v.toLowerCase(),
);

export const UserIdSchema = v.pipe(v.string(), v.regex(UUID_PATTERN));

// ---------------------------------------------------------------------------------------------
// Requests

export const CheckEmailRequestSchema = v.strictObject({ email: RegistrationEmailSchema });
export type CheckEmailRequest = v.InferInput<typeof CheckEmailRequestSchema>;

export const SendCodeRequestSchema = v.strictObject({ phone: PhoneSchema });
export type SendCodeRequest = v.InferInput<typeof SendCodeRequestSchema>;

export const VerifyCodeRequestSchema = v.strictObject({ phone: PhoneSchema, code: SmsCodeSchema });
export type VerifyCodeRequest = v.InferInput<typeof VerifyCodeRequestSchema>;

export const RegisterRequestSchema = v.strictObject({
  name: NameSchema,
  lastName: LastNameSchema,
  email: RegistrationEmailSchema,
  phone: PhoneSchema,
  password: NewPasswordSchema,
});
export type RegisterRequest = v.InferInput<typeof RegisterRequestSchema>;

/** The wizard's login with phone and password right after registering (spec 000 §4). */
export const CompleteRegistrationRequestSchema = v.strictObject({
  phone: PhoneSchema,
  password: LoginPasswordSchema,
  /** The wizard keeps this token in local storage, so the session is a remembered one by default. */
  rememberMe: v.optional(v.boolean(AUTH_MESSAGES.rememberMeInvalid), true),
});
export type CompleteRegistrationRequest = v.InferInput<typeof CompleteRegistrationRequestSchema>;

export const LoginRequestSchema = v.strictObject({
  email: LoginEmailSchema,
  password: LoginPasswordSchema,
  rememberMe: RememberMeSchema,
  latitude: LatitudeSchema,
  longitude: LongitudeSchema,
});
export type LoginRequest = v.InferInput<typeof LoginRequestSchema>;

export const ForgotPasswordRequestSchema = v.strictObject({ email: LoginEmailSchema });
export type ForgotPasswordRequest = v.InferInput<typeof ForgotPasswordRequestSchema>;

export const ValidateResetTokenRequestSchema = v.strictObject({ token: ResetTokenSchema, email: ResetEmailSchema });
export type ValidateResetTokenRequest = v.InferInput<typeof ValidateResetTokenRequestSchema>;

export const ResetPasswordRequestSchema = v.strictObject({
  token: ResetTokenSchema,
  email: ResetEmailSchema,
  newPassword: NewPasswordSchema,
});
export type ResetPasswordRequest = v.InferInput<typeof ResetPasswordRequestSchema>;

/**
 * The client posts its own idea of the streak (spec 000 §4); the server only checks the shape,
 * recomputes the streak from its own records and answers with the result.
 */
export const UpdateStreakRequestSchema = v.strictObject({
  userId: UserIdSchema,
  streak: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(1_000_000))),
  lastLoginDate: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(64)))),
});
export type UpdateStreakRequest = v.InferInput<typeof UpdateStreakRequestSchema>;

// ---------------------------------------------------------------------------------------------
// Google (spec 000 §7 plus `credential`, docs/decisions/0004)

/**
 * The Identity Services ID token. Optional in the shape so that a body without one gets the same
 * 401 as a forged one; the server verifies it and reads the identity only from it.
 */
const GoogleCredentialSchema = v.optional(
  v.pipe(
    v.string(AUTH_MESSAGES.googleCredentialInvalid),
    v.maxLength(GOOGLE_CREDENTIAL_MAX_LENGTH, AUTH_MESSAGES.googleCredentialInvalid),
  ),
);

/**
 * The identity fields of the spec's bodies (googleId, email, names, picture): accepted for
 * compatibility, bounded, and never read by the server, which takes them from the credential.
 */
const IgnoredGoogleFieldSchema = v.optional(v.nullable(v.pipe(v.string(), v.maxLength(2048))));

/** POST /auth/google. */
export const GoogleLoginRequestSchema = v.strictObject({
  credential: GoogleCredentialSchema,
  googleId: IgnoredGoogleFieldSchema,
  email: IgnoredGoogleFieldSchema,
  name: IgnoredGoogleFieldSchema,
  lastName: IgnoredGoogleFieldSchema,
  picture: IgnoredGoogleFieldSchema,
});
export type GoogleLoginRequest = v.InferInput<typeof GoogleLoginRequestSchema>;

/** POST /auth/google/send-code; the e-mail checked is the credential's. */
export const GoogleSendCodeRequestSchema = v.strictObject({
  phone: PhoneSchema,
  email: IgnoredGoogleFieldSchema,
  credential: GoogleCredentialSchema,
});
export type GoogleSendCodeRequest = v.InferInput<typeof GoogleSendCodeRequestSchema>;

/**
 * POST /auth/google/verify-code. firstName and lastName are used only when the credential carries
 * no name at all; the server checks them against the name rules then.
 */
export const GoogleVerifyCodeRequestSchema = v.strictObject({
  phone: PhoneSchema,
  code: SmsCodeSchema,
  credential: GoogleCredentialSchema,
  googleId: IgnoredGoogleFieldSchema,
  email: IgnoredGoogleFieldSchema,
  firstName: IgnoredGoogleFieldSchema,
  lastName: IgnoredGoogleFieldSchema,
});
export type GoogleVerifyCodeRequest = v.InferInput<typeof GoogleVerifyCodeRequestSchema>;

// ---------------------------------------------------------------------------------------------
// Responses

/** The user as the client keeps it after login or registration (spec 000 §3). */
export const AuthUserSchema = v.object({
  userId: v.string(),
  name: v.string(),
  lastName: v.string(),
  email: v.string(),
  /** E.164; null only for an account created without one. */
  phone: v.nullable(v.string()),
  /** ISO timestamp. */
  createdAt: v.string(),
  completeProfile: v.boolean(),
  streak: v.number(),
  /** YYYY-MM-DD (Europe/Madrid), null before the first streak update. */
  lastLoginDate: v.nullable(v.string()),
});
export type AuthUser = v.InferOutput<typeof AuthUserSchema>;

export const MessageResponseSchema = v.object({ success: v.literal(true), message: v.string() });
export type MessageResponse = v.InferOutput<typeof MessageResponseSchema>;

export const CheckEmailResponseSchema = v.object({
  success: v.literal(true),
  data: v.object({ exists: v.boolean() }),
});
export type CheckEmailResponse = v.InferOutput<typeof CheckEmailResponseSchema>;

export const SendCodeResponseSchema = MessageResponseSchema;
export type SendCodeResponse = MessageResponse;

export const VerifyCodeResponseSchema = MessageResponseSchema;
export type VerifyCodeResponse = MessageResponse;

export const RegisterResponseSchema = v.object({ success: v.literal(true), message: v.string(), data: AuthUserSchema });
export type RegisterResponse = v.InferOutput<typeof RegisterResponseSchema>;

/** Login and every other call that opens a session: the bearer token and the user. */
export const SessionResponseSchema = v.object({
  success: v.literal(true),
  token: v.string(),
  message: v.string(),
  user: AuthUserSchema,
});
export type SessionResponse = v.InferOutput<typeof SessionResponseSchema>;
export const LoginResponseSchema = SessionResponseSchema;
export type LoginResponse = SessionResponse;
export const CompleteRegistrationResponseSchema = SessionResponseSchema;
export type CompleteRegistrationResponse = SessionResponse;

/** POST /auth/google and /auth/google/verify-code: a 30-day session, as after "Recuérdame". */
export const GoogleLoginResponseSchema = SessionResponseSchema;
export type GoogleLoginResponse = SessionResponse;
export const GoogleVerifyCodeResponseSchema = SessionResponseSchema;
export type GoogleVerifyCodeResponse = SessionResponse;
export const GoogleSendCodeResponseSchema = MessageResponseSchema;
export type GoogleSendCodeResponse = MessageResponse;

export const ValidateSessionResponseSchema = v.object({ success: v.literal(true), user: AuthUserSchema });
export type ValidateSessionResponse = v.InferOutput<typeof ValidateSessionResponseSchema>;

export const ForgotPasswordResponseSchema = MessageResponseSchema;
export type ForgotPasswordResponse = MessageResponse;

export const ValidateResetTokenResponseSchema = v.object({ success: v.literal(true), valid: v.boolean() });
export type ValidateResetTokenResponse = v.InferOutput<typeof ValidateResetTokenResponseSchema>;

export const ResetPasswordResponseSchema = MessageResponseSchema;
export type ResetPasswordResponse = MessageResponse;

export const LogoutResponseSchema = MessageResponseSchema;
export type LogoutResponse = MessageResponse;

export const UpdateStreakResponseSchema = v.object({
  success: v.literal(true),
  message: v.string(),
  streak: v.number(),
  lastLoginDate: v.string(),
});
export type UpdateStreakResponse = v.InferOutput<typeof UpdateStreakResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Socket events

export const TokenInvalidatedReasonSchema = v.picklist(['logout', 'password_reset', 'revoked', 'expired']);
export type TokenInvalidatedReason = v.InferOutput<typeof TokenInvalidatedReasonSchema>;

/** Payload of `token_invalidated`: the client signs out on it (spec 001 §4). */
export const TokenInvalidatedEventSchema = v.object({ reason: TokenInvalidatedReasonSchema, message: v.string() });
export type TokenInvalidatedEvent = v.InferOutput<typeof TokenInvalidatedEventSchema>;
