import { describe, expect, it } from 'vitest';
import { isAppRoute, isProtectedPath, isPublicPath } from './routes.ts';

describe('route helpers', () => {
  it('knows the app routes, with parameters', () => {
    expect(isAppRoute('/')).toBe(true);
    expect(isAppRoute('/messages/abc123')).toBe(true);
    expect(isAppRoute('/messages/')).toBe(true);
    expect(isAppRoute('/messages/abc/def')).toBe(false);
    expect(isAppRoute('/esto-no-existe')).toBe(false);
  });

  it('treats the access screens as public (spec 000 §2)', () => {
    for (const path of ['/login', '/register', '/register/email', '/forgot-password', '/reset-password']) {
      expect(isPublicPath(path)).toBe(true);
      expect(isProtectedPath(path)).toBe(false);
    }
  });

  it('treats the signed-in area as protected, including conversations', () => {
    for (const path of [
      '/home',
      '/config',
      '/matches',
      '/messages',
      '/messages/abc',
      '/notifications',
      '/edit-profile',
      '/entrenos',
    ]) {
      expect(isProtectedPath(path)).toBe(true);
      expect(isPublicPath(path)).toBe(false);
    }
    expect(isProtectedPath('/homework')).toBe(false);
  });
});
