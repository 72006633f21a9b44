import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * "Recordar este dispositivo" rides in an HttpOnly cookie scoped to the sign-in calls: scripts
 * never see it, and every sign-in path (password, phone, Google) gets it without the client's help.
 */
export const DEVICE_COOKIE = 'entreno_device';
const COOKIE_PATH = '/api/auth';

/** The remembered-device token the browser sent, if any. */
export function readDeviceCookie(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === DEVICE_COOKIE) {
      const value = rest.join('=');
      return /^[A-Za-z0-9_-]{20,100}$/.test(value) ? value : undefined;
    }
  }
  return undefined;
}

/** Sets the cookie until the device is no longer remembered; `Secure` whenever the site is https. */
export function setDeviceCookie(
  reply: FastifyReply,
  device: { token: string; expiresAt: Date },
  options: { isSecure: boolean; now: Date },
): void {
  const maxAge = Math.max(0, Math.floor((device.expiresAt.getTime() - options.now.getTime()) / 1000));
  const attributes = [
    `${DEVICE_COOKIE}=${device.token}`,
    `Path=${COOKIE_PATH}`,
    `Max-Age=${maxAge}`,
    'HttpOnly',
    'SameSite=Strict',
    ...(options.isSecure ? ['Secure'] : []),
  ];
  reply.header('set-cookie', attributes.join('; '));
}
