import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Texts and e-mails written instead of sent, outside production (delivery/outbox.ts). */
export const devOutbox = pgTable(
  'dev_outbox',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    channel: text('channel').notNull(),
    to: text('to').notNull(),
    subject: text('subject'),
    text: text('text').notNull(),
    html: text('html'),
    code: text('code'),
    link: text('link'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('dev_outbox_to_idx').on(table.to)],
);

export type DevOutboxRow = typeof devOutbox.$inferSelect;
