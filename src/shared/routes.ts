/** Every path of the two specs (000 §2, 001 §2), shared by the router, the server and the worker. */
export const PUBLIC_PATH_PREFIXES = ['/login', '/register', '/forgot-password', '/reset-password'] as const;

export const PROTECTED_PATHS = [
  '/home',
  '/config',
  '/matches',
  '/messages',
  '/notifications',
  '/edit-profile',
  '/entrenos',
] as const;

/** Paths the SPA answers; anything else is its 404 page. `$param` marks a path segment. */
export const APP_ROUTE_PATTERNS = [
  '/',
  '/login',
  '/register',
  '/register/email',
  '/register/google',
  '/forgot-password',
  '/reset-password',
  '/unauthorized',
  '/terms',
  '/privacy',
  '/dev/outbox',
  '/dev/ui',
  '/compartido/$token',
  '/home',
  '/config',
  '/matches',
  '/messages',
  '/messages/$conversationId',
  '/notifications',
  '/edit-profile',
  '/entrenos',
  '/entrenos/abiertos',
  '/entrenos/abiertos/nuevo',
  '/entrenos/abiertos/$sessionId',
] as const;

/**
 * Client routes the server does NOT list as app routes: it answers them with the same 404 page as
 * any unknown path, and the client opens them only for the people allowed (the moderation
 * console, docs/decisions/0033). The router registers APP_ROUTE_PATTERNS and these.
 */
export const HIDDEN_ROUTE_PATTERNS = [
  '/moderacion',
  '/moderacion/registro',
  '/moderacion/verificaciones',
  '/moderacion/denuncias/$reportId',
] as const;

/** True when the path (no query) is one of the app's routes. */
export function isAppRoute(pathname: string): boolean {
  const clean = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const segments = clean.split('/');
  return APP_ROUTE_PATTERNS.some((pattern) => {
    const parts = pattern.split('/');
    if (parts.length !== segments.length) return false;
    return parts.every((part, index) => {
      const segment = segments[index] ?? '';
      return part.startsWith('$') ? segment.length > 0 : part === segment;
    });
  });
}

/** A public path needs no token (spec 000 §2, route guard rules). */
export function isPublicPath(pathname: string): boolean {
  return PUBLIC_PATH_PREFIXES.some((prefix) => pathname.startsWith(prefix));
}

/** A protected path needs a valid token (spec 000 §2): one of PROTECTED_PATHS or a path below it. */
export function isProtectedPath(pathname: string): boolean {
  return PROTECTED_PATHS.some((path) => pathname === path || pathname.startsWith(`${path}/`));
}

/**
 * Where a sign-in may return to (docs/decisions/0044, /login?redirect=): a page of the signed-in
 * area of this app, given as path, query and hash. Never another origin (`//evil.example`,
 * `/\\evil.example`, or `/\t/evil.example`, which a browser reads as `//`), nor a public page.
 */
export function isSafeReturnPath(value: string): boolean {
  if (value.length > 512 || !value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return false;
  // Browsers drop tabs and line breaks from addresses; no control character or space belongs here.
  for (const character of value) {
    const code = character.codePointAt(0) ?? 0;
    if (code <= 0x20 || code === 0x7f) return false;
  }
  const pathname = value.split(/[?#]/, 1)[0] ?? '';
  if (pathname.split('/').some((segment) => segment === '..' || segment === '.')) return false;
  return isProtectedPath(pathname);
}
