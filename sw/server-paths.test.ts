import { describe, expect, it } from 'vitest';
import { isServerPath } from './server-paths.ts';

describe('isServerPath', () => {
  it.each(['/api', '/api/', '/api/health', '/api/auth/login', '/socket.io', '/socket.io/'])(
    'leaves %s to the network',
    (pathname) => expect(isServerPath(pathname)).toBe(true),
  );

  it.each(['/', '/login', '/messages/abc', '/apiary', '/api-docs', '/socket.iox', '/dev/outbox'])(
    'lets the shell answer %s',
    (pathname) => expect(isServerPath(pathname)).toBe(false),
  );
});
