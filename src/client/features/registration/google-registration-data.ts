import * as v from 'valibot';

/**
 * The Google data /register/google needs in the navigation state (spec 000 §2): sub, e-mail and
 * names from the Google account, and the ID token the server verifies again (decision 0004).
 */
export const GoogleRegistrationDataSchema = v.object({
  sub: v.pipe(v.string(), v.nonEmpty()),
  email: v.pipe(v.string(), v.trim(), v.nonEmpty()),
  firstName: v.pipe(v.string(), v.trim()),
  lastName: v.fallback(v.pipe(v.string(), v.trim()), ''),
  picture: v.fallback(v.string(), ''),
  credential: v.pipe(v.string(), v.nonEmpty()),
});
export type GoogleRegistrationData = v.InferOutput<typeof GoogleRegistrationDataSchema>;

/** The data from a history state, or null (then the page goes back to /register). */
export function readGoogleRegistrationData(state: unknown): GoogleRegistrationData | null {
  const data = typeof state === 'object' && state !== null ? (state as { googleData?: unknown }).googleData : undefined;
  const parsed = v.safeParse(GoogleRegistrationDataSchema, data);
  return parsed.success ? parsed.output : null;
}
