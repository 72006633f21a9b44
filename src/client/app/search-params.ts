import * as v from 'valibot';
import { isSafeReturnPath } from '#shared/routes';

export { isSafeReturnPath };

/**
 * Search params are kept as plain strings. TanStack Router's default JSON parsing would turn a
 * reset token such as `123e4` into a number; e-mailed links must arrive exactly as sent.
 */
export function parsePlainSearch(searchStr: string): Record<string, string> {
  const params = new URLSearchParams(searchStr.startsWith('?') ? searchStr.slice(1) : searchStr);
  const search: Record<string, string> = {};
  for (const [key, value] of params) {
    if (!(key in search)) search[key] = value;
  }
  return search;
}

export function stringifyPlainSearch(search: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(search)) {
    if (value === undefined || value === null) continue;
    params.set(key, typeof value === 'string' ? value : JSON.stringify(value));
  }
  const query = params.toString();
  return query ? `?${query}` : '';
}

const OptionalText = v.fallback(v.optional(v.pipe(v.string(), v.trim(), v.minLength(1))), undefined);

/** /reset-password?token&email (spec 000 §2); either may be missing, which the screen reports. */
export const ResetPasswordSearchSchema = v.object({ token: OptionalText, email: OptionalText });
export type ResetPasswordSearch = v.InferOutput<typeof ResetPasswordSearchSchema>;

/**
 * /login?error=token_missing (spec 000 §2, §7); any other value is dropped. `redirect`: the
 * signed-in page a signed-out person asked for (the 401 page's «Iniciar Sesión» carries it), opened
 * after the sign-in instead of /home; dropped unless safe.
 */
export const LoginSearchSchema = v.object({
  error: v.fallback(v.optional(v.picklist(['token_missing'])), undefined),
  redirect: v.fallback(v.optional(v.pipe(v.string(), v.check(isSafeReturnPath))), undefined),
});
export type LoginSearch = v.InferOutput<typeof LoginSearchSchema>;
