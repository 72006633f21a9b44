import { describe, expect, it } from 'vitest';
import { shownConnectionStatus } from './shown-connection-status.ts';

describe('shownConnectionStatus', () => {
  it('shows a socket not started yet as connecting, never as «Sin conexión»', () => {
    expect(shownConnectionStatus({ status: 'disconnected', reason: 'signed_out' }, true)).toEqual({
      status: 'connecting',
    });
  });

  it('keeps every other state as the socket says', () => {
    for (const status of [
      { status: 'connecting' },
      { status: 'connected', socketId: 'abc' },
      { status: 'reconnecting', attempt: 2 },
      { status: 'disconnected', reason: 'server' },
      { status: 'disconnected', reason: 'auth_failed' },
    ] as const) {
      expect(shownConnectionStatus(status, true)).toEqual(status);
    }
  });

  it('is offline whenever the browser is, whatever the socket says', () => {
    expect(shownConnectionStatus({ status: 'connected', socketId: 'abc' }, false)).toEqual({
      status: 'disconnected',
      reason: 'server',
    });
    expect(shownConnectionStatus({ status: 'disconnected', reason: 'signed_out' }, false)).toEqual({
      status: 'disconnected',
      reason: 'server',
    });
  });
});
