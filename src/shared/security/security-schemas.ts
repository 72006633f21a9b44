import * as v from 'valibot';
import { AuthUserSchema, LoginPasswordSchema } from '../auth/auth-schemas.ts';
import { SECURITY_MESSAGES } from './security-messages.ts';

/*
 * Two-step sign-in, recovery codes, remembered devices and passkeys (docs/decisions/0032). Request
 * objects are strict: an unknown field is a 400.
 */

export const SECOND_STEP_METHODS = ['totp', 'recovery', 'sms'] as const;
export type SecondStepMethod = (typeof SECOND_STEP_METHODS)[number];

/** How many recovery codes one setup creates. */
export const RECOVERY_CODE_COUNT = 10;
/** "Recordar este dispositivo". */
export const REMEMBER_DEVICE_DAYS = 30;
export const PASSKEY_NAME_MAX_LENGTH = 40;
export const PASSKEYS_PER_USER_MAX = 10;

/** A code as typed: an app's 6 digits, a recovery code or an SMS code; spaces and dashes are ignored later. */
export const SecondStepCodeSchema = v.pipe(
  v.string(SECURITY_MESSAGES.codeRequired),
  v.trim(),
  v.nonEmpty(SECURITY_MESSAGES.codeRequired),
  v.maxLength(32, SECURITY_MESSAGES.codeInvalid),
);

const PendingTokenSchema = v.pipe(
  v.string(SECURITY_MESSAGES.secondStepExpired),
  v.nonEmpty(SECURITY_MESSAGES.secondStepExpired),
  v.maxLength(2048, SECURITY_MESSAGES.secondStepExpired),
);

/** The answer of a sign-in (password, phone or Google) that still needs the second step. */
export const SecondStepChallengeSchema = v.object({
  success: v.literal(true),
  secondStepRequired: v.literal(true),
  message: v.string(),
  pendingToken: v.string(),
  methods: v.array(v.picklist(SECOND_STEP_METHODS)),
  /** The verified phone's last digits ("••• •• •• 12"), when SMS is offered. */
  phoneHint: v.nullable(v.string()),
  expiresAt: v.string(),
});
export type SecondStepChallenge = v.InferOutput<typeof SecondStepChallengeSchema>;

export const SecondStepRequestSchema = v.strictObject({
  pendingToken: PendingTokenSchema,
  method: v.picklist(SECOND_STEP_METHODS, SECURITY_MESSAGES.methodInvalid),
  code: SecondStepCodeSchema,
  rememberDevice: v.optional(v.boolean(), false),
});
export type SecondStepRequest = v.InferInput<typeof SecondStepRequestSchema>;

export const SecondStepSmsRequestSchema = v.strictObject({ pendingToken: PendingTokenSchema });

/** A finished sign-in: the same shape as POST /auth/login's session answer. */
export const SignedInResponseSchema = v.object({
  success: v.literal(true),
  token: v.string(),
  message: v.string(),
  user: AuthUserSchema,
});
export type SignedInResponse = v.InferOutput<typeof SignedInResponseSchema>;

export const TwoFactorStatusSchema = v.object({
  isEnabled: v.boolean(),
  enabledAt: v.nullable(v.string()),
  recoveryCodesLeft: v.number(),
  /** Where the SMS fallback goes, e.g. "••• •• •• 12"; null without a verified phone. */
  phoneHint: v.nullable(v.string()),
  /** Google-only accounts have no password: turning it off asks for the code alone. */
  hasPassword: v.boolean(),
});

export const PasskeySummarySchema = v.object({
  id: v.string(),
  name: v.string(),
  createdAt: v.string(),
  lastUsedAt: v.nullable(v.string()),
});
export type PasskeySummary = v.InferOutput<typeof PasskeySummarySchema>;

export const SecurityStatusResponseSchema = v.object({
  success: v.literal(true),
  twoFactor: TwoFactorStatusSchema,
  passkeys: v.array(PasskeySummarySchema),
});
export type SecurityStatusResponse = v.InferOutput<typeof SecurityStatusResponseSchema>;

export const TwoFactorSetupResponseSchema = v.object({
  success: v.literal(true),
  /** Base32, for typing into the app by hand. */
  secret: v.string(),
  otpauthUri: v.string(),
  /** The QR code of `otpauthUri` as an SVG document (rendered as an image, no script). */
  qrSvg: v.string(),
});
export type TwoFactorSetupResponse = v.InferOutput<typeof TwoFactorSetupResponseSchema>;

export const TwoFactorEnableRequestSchema = v.strictObject({ code: SecondStepCodeSchema });

export const RecoveryCodesResponseSchema = v.object({
  success: v.literal(true),
  message: v.string(),
  recoveryCodes: v.array(v.string()),
});
export type RecoveryCodesResponse = v.InferOutput<typeof RecoveryCodesResponseSchema>;

export const TwoFactorDisableRequestSchema = v.strictObject({
  password: v.optional(LoginPasswordSchema),
  code: SecondStepCodeSchema,
});
export type TwoFactorDisableRequest = v.InferInput<typeof TwoFactorDisableRequestSchema>;

export const RecoveryCodesRenewRequestSchema = v.strictObject({ code: SecondStepCodeSchema });

/** A WebAuthn ceremony's options, with the id of the server-side challenge to send back. */
export const PasskeyOptionsResponseSchema = v.object({
  success: v.literal(true),
  challengeId: v.string(),
  options: v.record(v.string(), v.unknown()),
});
export type PasskeyOptionsResponse = v.InferOutput<typeof PasskeyOptionsResponseSchema>;

const ChallengeIdSchema = v.pipe(
  v.string(SECURITY_MESSAGES.passkeyChallengeExpired),
  v.uuid(SECURITY_MESSAGES.passkeyChallengeExpired),
);
/** The authenticator's answer as @simplewebauthn/browser returns it; the server library checks the rest. */
const CredentialResponseSchema = v.looseObject({
  id: v.pipe(
    v.string(SECURITY_MESSAGES.passkeyResponseInvalid),
    v.maxLength(1024, SECURITY_MESSAGES.passkeyResponseInvalid),
  ),
  rawId: v.pipe(
    v.string(SECURITY_MESSAGES.passkeyResponseInvalid),
    v.maxLength(1024, SECURITY_MESSAGES.passkeyResponseInvalid),
  ),
  type: v.literal('public-key', SECURITY_MESSAGES.passkeyResponseInvalid),
  response: v.record(v.string(), v.unknown(), SECURITY_MESSAGES.passkeyResponseInvalid),
});

export const PasskeyNameSchema = v.pipe(
  v.string(SECURITY_MESSAGES.passkeyNameRequired),
  v.trim(),
  v.nonEmpty(SECURITY_MESSAGES.passkeyNameRequired),
  v.maxLength(PASSKEY_NAME_MAX_LENGTH, SECURITY_MESSAGES.passkeyNameTooLong),
);

export const PasskeyRegisterRequestSchema = v.strictObject({
  challengeId: ChallengeIdSchema,
  name: PasskeyNameSchema,
  response: CredentialResponseSchema,
});

export const PasskeyAddedResponseSchema = v.object({
  success: v.literal(true),
  message: v.string(),
  passkey: PasskeySummarySchema,
});
export type PasskeyAddedResponse = v.InferOutput<typeof PasskeyAddedResponseSchema>;

export const PasskeySignInRequestSchema = v.strictObject({
  challengeId: ChallengeIdSchema,
  response: CredentialResponseSchema,
  rememberMe: v.optional(v.boolean(), false),
});
export type PasskeySignInRequest = v.InferInput<typeof PasskeySignInRequestSchema>;
