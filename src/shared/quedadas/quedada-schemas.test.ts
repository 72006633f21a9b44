import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { QUEDADA_MESSAGES } from './quedada-messages.ts';
import { ProposeQuedadaRequestSchema } from './quedada-schemas.ts';

describe('ProposeQuedadaRequestSchema', () => {
  const proposal = {
    clientId: 'q-1',
    conversationId: '0b7e4a52-8a43-4f43-9d7f-2d0f3a1c5e11',
    gymName: 'Altafit Argüelles',
    startsAt: '2026-03-12T17:00:00.000Z',
    durationMin: 60,
    activity: 'Pierna',
  };

  it('reads a null note or gym address as none (issue #34: a null note was refused as too long)', () => {
    const parsed = v.safeParse(ProposeQuedadaRequestSchema, { ...proposal, note: null, gymAddress: null });
    expect(parsed.issues?.map((issue) => issue.message)).toBeUndefined();
    expect(parsed.output).toMatchObject({ note: null, gymAddress: null });
  });

  it('still refuses a note over 200 characters with its own message', () => {
    const parsed = v.safeParse(ProposeQuedadaRequestSchema, { ...proposal, note: 'a'.repeat(201) });
    expect(parsed.issues?.[0]?.message).toBe(QUEDADA_MESSAGES.note);
  });
});
