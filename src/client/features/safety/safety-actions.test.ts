import { describe, expect, it, vi } from 'vitest';
import { SAFETY_MESSAGES } from '#shared/safety/safety-schemas';
import { ApiRequestError } from '../../services/http.ts';
import {
  createSafetyActions,
  exportFileName,
  reportBody,
  SAFETY_TEXTS,
  type SafetyDependencies,
} from './safety-actions.ts';

function setup(api: Partial<SafetyDependencies['api']> = {}) {
  const order: string[] = [];
  const deps = {
    api: {
      block: vi.fn(async () => ({ success: true as const, message: SAFETY_MESSAGES.blocked })),
      report: vi.fn(async () => ({ success: true as const, message: SAFETY_MESSAGES.reported, reportId: 'r1' })),
      exportData: vi.fn(async () => '{"user":{}}'),
      deleteAccount: vi.fn(async () => {
        order.push('delete');
        return { success: true as const, message: SAFETY_MESSAGES.accountDeleted };
      }),
      ...api,
    },
    queueReport: vi.fn(async () => true),
    isOnline: vi.fn(() => true),
    notify: { success: vi.fn((message: string) => order.push(`success:${message}`)), error: vi.fn() },
    announceMatchesChanged: vi.fn(),
    saveFile: vi.fn(),
    signOut: vi.fn(async () => void order.push('signOut')),
    dismissSessionEndedToast: vi.fn(() => void order.push('dismiss')),
    now: () => new Date('2026-03-31T22:30:00.000Z'),
  } satisfies SafetyDependencies;
  return { deps, order, actions: createSafetyActions(deps) };
}

const target = { userId: '7d1c2e9a-6a43-4c5e-9a0e-1b2c3d4e5f60', name: 'Marcos' };

describe('safety actions', () => {
  it('a block confirms with a toast and refreshes the matches; a refusal shows the server text', async () => {
    const { actions, deps } = setup();
    expect(await actions.block(target)).toEqual({ status: 'done' });
    expect(deps.api.block).toHaveBeenCalledWith(target.userId);
    expect(deps.notify.success).toHaveBeenCalledWith('Has bloqueado a Marcos');
    expect(deps.announceMatchesChanged).toHaveBeenCalledOnce();

    const refused = setup({
      block: vi.fn(async () => {
        throw new ApiRequestError('http', SAFETY_MESSAGES.userNotFound, 404);
      }),
    });
    expect(await refused.actions.block(target)).toEqual({ status: 'failed', message: SAFETY_MESSAGES.userNotFound });
    expect(refused.deps.notify.error).toHaveBeenCalledWith(SAFETY_MESSAGES.userNotFound);
    expect(refused.deps.announceMatchesChanged).not.toHaveBeenCalled();

    const offline = setup({
      block: vi.fn(async () => {
        throw new ApiRequestError('network', '');
      }),
    });
    expect(await offline.actions.block(target)).toEqual({ status: 'failed', message: SAFETY_TEXTS.blockFailed });
  });

  it('a report sends the reason, trimmed details and the conversation; "block too" also refreshes the matches', async () => {
    expect(
      reportBody(
        { ...target, conversationId: 'c1' },
        { reason: 'harassment', details: '  Insultos  ', alsoBlock: false },
      ),
    ).toEqual({ userId: target.userId, reason: 'harassment', details: 'Insultos', conversationId: 'c1' });
    expect(reportBody(target, { reason: 'spam', details: '   ', alsoBlock: true })).toEqual({
      userId: target.userId,
      reason: 'spam',
      block: true,
    });

    const { actions, deps } = setup();
    expect(await actions.report(target, { reason: 'other', details: '', alsoBlock: false })).toEqual({
      status: 'done',
    });
    expect(deps.notify.success).toHaveBeenCalledWith(SAFETY_MESSAGES.reported);
    expect(deps.announceMatchesChanged).not.toHaveBeenCalled();
    await actions.report(target, { reason: 'other', details: '', alsoBlock: true });
    expect(deps.notify.success).toHaveBeenLastCalledWith(SAFETY_TEXTS.reportSentAndBlocked);
    expect(deps.announceMatchesChanged).toHaveBeenCalledOnce();

    const limited = setup({
      report: vi.fn(async () => {
        throw new ApiRequestError('http', SAFETY_MESSAGES.reportRateLimited, 429);
      }),
    });
    expect(await limited.actions.report(target, { reason: 'other', details: '', alsoBlock: false })).toEqual({
      status: 'failed',
      message: SAFETY_MESSAGES.reportRateLimited,
    });
    expect(limited.deps.notify.success).not.toHaveBeenCalled();
  });

  it('a session or group report goes through the outbox with what it is about, and says so when offline', async () => {
    const { actions, deps } = setup();
    const session = { name: 'Ana', openSessionId: '0b5c8a1e-2f3d-4c5b-8a9e-1f2e3d4c5b6a' };
    expect(await actions.report(session, { reason: 'spam', details: ' Vende ', alsoBlock: false })).toEqual({
      status: 'done',
    });
    expect(deps.api.report).not.toHaveBeenCalled();
    expect(deps.queueReport).toHaveBeenCalledWith({
      reason: 'spam',
      details: 'Vende',
      openSessionId: session.openSessionId,
    });
    expect(deps.notify.success).toHaveBeenLastCalledWith(SAFETY_MESSAGES.reported);

    const message = {
      ...target,
      groupId: '1c6d9b2f-3a4e-4d6c-9b0f-2a3b4c5d6e7f',
      messageId: '2d7e0c3a-4b5f-4e7d-8c1a-3b4c5d6e7f80',
    };
    deps.isOnline.mockReturnValue(false);
    await actions.report(message, { reason: 'harassment', details: '', alsoBlock: true });
    expect(deps.queueReport).toHaveBeenLastCalledWith({
      userId: target.userId,
      reason: 'harassment',
      conversationId: message.groupId,
      messageId: message.messageId,
      block: true,
    });
    expect(deps.notify.success).toHaveBeenLastCalledWith(SAFETY_TEXTS.reportQueued);

    deps.queueReport.mockResolvedValueOnce(false);
    expect(await actions.report(session, { reason: 'spam', details: '', alsoBlock: false })).toEqual({
      status: 'failed',
      message: SAFETY_TEXTS.reportFailed,
    });
  });

  it('the download saves the export under entreno-mis-datos-<Madrid day>.json', async () => {
    expect(exportFileName(new Date('2026-03-31T22:30:00.000Z'))).toBe('entreno-mis-datos-2026-04-01.json');
    const { actions, deps } = setup();
    expect(await actions.downloadMyData()).toEqual({ status: 'done' });
    expect(deps.saveFile).toHaveBeenCalledWith('entreno-mis-datos-2026-04-01.json', '{"user":{}}');
    expect(deps.notify.success).toHaveBeenCalledWith(SAFETY_TEXTS.exportDone);

    const failing = setup({
      exportData: vi.fn(async () => {
        throw new ApiRequestError('timeout', '');
      }),
    });
    expect(await failing.actions.downloadMyData()).toEqual({ status: 'failed', message: SAFETY_TEXTS.exportFailed });
    expect(failing.deps.saveFile).not.toHaveBeenCalled();
  });

  it('a deletion signs out after the server deleted, then leaves one toast; a refusal keeps the session', async () => {
    const { actions, deps, order } = setup();
    expect(await actions.deleteMyAccount({ password: 'Sentadillas&Cafe7' })).toEqual({ status: 'done' });
    expect(deps.api.deleteAccount).toHaveBeenCalledWith({ password: 'Sentadillas&Cafe7' });
    expect(order).toEqual(['delete', 'signOut', 'dismiss', `success:${SAFETY_MESSAGES.accountDeleted}`]);

    const wrong = setup({
      deleteAccount: vi.fn(async () => {
        throw new ApiRequestError('http', SAFETY_MESSAGES.wrongPassword, 403);
      }),
    });
    expect(await wrong.actions.deleteMyAccount({ password: 'x' })).toEqual({
      status: 'failed',
      message: SAFETY_MESSAGES.wrongPassword,
    });
    expect(wrong.deps.signOut).not.toHaveBeenCalled();
    expect(wrong.deps.notify.success).not.toHaveBeenCalled();
  });
});
