import { describe, expect, it } from 'vitest';
import { ATTENDANCE_WINDOW_MS } from '#shared/open-sessions/open-session-after';
import type { ClaimedAttendanceReminder } from './open-session-attendance-repository.ts';
import { createOpenSessionNotices, type OpenSessionNotifier } from './open-session-notices.ts';

const NOW = new Date('2026-03-12T21:00:00.000Z');

/** The notices with fake claims (as the repository would hand them) and a notifier that records. */
function notices(claimed: ClaimedAttendanceReminder[]) {
  const sent: { userId: string; input: Parameters<OpenSessionNotifier['notify']>[1] }[] = [];
  const completed: string[] = [];
  const built = createOpenSessionNotices({
    sessions: {
      claimDueReminders: async () => [],
      completeReminder: async () => true,
      claimDueAttendanceReminders: async () => claimed,
      completeAttendanceReminder: async (sessionId) => {
        completed.push(sessionId);
        return true;
      },
    },
    realtime: { emitToUser() {} },
    notifier: {
      async notify(userId, input) {
        sent.push({ userId, input });
      },
    },
    clock: { now: () => NOW },
    logger: { warn() {} } as never,
  });
  return { ...built, sent, completed };
}

const reminder = (overrides: Partial<ClaimedAttendanceReminder>): ClaimedAttendanceReminder => ({
  token: 't',
  sessionId: 's1',
  activity: 'Pierna',
  gymName: 'Altafit Argüelles',
  endsAt: new Date(NOW.getTime() - 2 * 3_600_000),
  unmarkedIds: ['a', 'b'],
  ...overrides,
});

describe('the «¿Quién vino?» reminder pass', () => {
  it('asks each one who marked nobody, under the training reminders switch, collapsed per session', async () => {
    const pass = notices([reminder({})]);
    expect(await pass.runDueAttendanceReminders()).toBe(2);
    expect(pass.sent.map((one) => one.userId)).toEqual(['a', 'b']);
    expect(pass.sent[0]?.input).toEqual({
      type: 'reminder',
      title: '¿Quién vino?',
      body: 'Cuéntanos quién vino al entreno de Pierna en Altafit Argüelles.',
      referenceId: 's1',
      referenceType: 'openSession',
      collapseKey: 'open-session:s1:attendance',
      url: '/entrenos/abiertos/s1',
      setting: 'trainingReminders',
    });
    expect(pass.completed).toEqual(['s1']);
  });

  it('past the 7 days of marks it asks nobody, and is done all the same', async () => {
    const endsAt = new Date(NOW.getTime() - ATTENDANCE_WINDOW_MS - 1);
    const pass = notices([reminder({ sessionId: 'old', endsAt }), reminder({ sessionId: 'alone', unmarkedIds: [] })]);
    expect(await pass.runDueAttendanceReminders()).toBe(0);
    expect(pass.sent).toEqual([]);
    expect(pass.completed).toEqual(['old', 'alone']);
  });
});
