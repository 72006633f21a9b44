/**
 * What other features may take from the access area (ARCHITECTURE.md, "Dependency direction"):
 * another feature imports auth only through this file, or its module through `auth-module.ts`.
 */
export type { AccountGate, SecondFactor } from './account-gate.ts';
export { AUTH_LIMITS, SECOND_STEP_LIMITS } from './auth-limits.ts';
export type { AuthHooks } from './auth-service.ts';
export { toAuthUser } from './auth-user.ts';
export { readDeviceCookie, setDeviceCookie } from './device-cookie.ts';
export type { PasswordHasher } from './password-hasher.ts';
export type { SessionService } from './session-service.ts';
export { type SecondStep, type SessionAnswer, type SignInOutcome, signInAnswer } from './sign-in-answer.ts';
export type { SmsCodeService } from './sms-code-service.ts';
export type { UserRecord, UserRepository } from './user-repository.ts';
export type { UserService } from './user-service.ts';
