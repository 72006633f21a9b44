import * as v from 'valibot';

/** The identity fields of a Google ID token the client reads (spec 000 §3). */
export type GoogleAccount = {
  sub: string;
  email: string;
  givenName: string;
  familyName: string;
  picture: string;
  name: string;
};

/** 'No se pudieron obtener los datos necesarios de Google' (spec 000 §5). */
export const GOOGLE_DATA_MISSING = 'No se pudieron obtener los datos necesarios de Google';

const Text = v.fallback(v.optional(v.pipe(v.string(), v.trim()), ''), '');
const PayloadSchema = v.object({
  sub: Text,
  email: Text,
  given_name: Text,
  family_name: Text,
  picture: Text,
  name: Text,
});

function decodeBase64Url(part: string): string {
  const base64 = part
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(part.length / 4) * 4, '=');
  const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
  // Names carry accents: the payload is UTF-8, not Latin-1.
  return new TextDecoder().decode(bytes);
}

/**
 * Reads the account from an ID token's payload, without checking the signature (the server does,
 * decision 0004). Null when the token cannot be read or lacks the e-mail or the first name; the
 * first name falls back to `name` when Google has no `given_name`.
 */
export function readGoogleAccount(credential: string): GoogleAccount | null {
  const payloadPart = credential.split('.')[1];
  if (!payloadPart) return null;
  let json: unknown;
  try {
    json = JSON.parse(decodeBase64Url(payloadPart));
  } catch {
    return null;
  }
  const parsed = v.safeParse(PayloadSchema, json);
  if (!parsed.success) return null;
  const payload = parsed.output;
  const givenName = payload.given_name || payload.name.split(/\s+/)[0] || '';
  if (!payload.email || !givenName || !payload.sub) return null;
  return {
    sub: payload.sub,
    email: payload.email,
    givenName,
    familyName: payload.family_name,
    picture: payload.picture,
    name: payload.name,
  };
}
