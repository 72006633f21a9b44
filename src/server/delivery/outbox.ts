import type { OutboxEntry } from '#shared/dev-outbox';
import type { Clock } from '../infra/clock.ts';
import type { DevOutboxRow } from '../db/schema/index.ts';
import type { Logger } from '../logger.ts';
import type { OutboxRepository } from './outbox-repository.ts';

export type OutboxMessage = {
  channel: 'sms' | 'email';
  to: string;
  subject?: string;
  text: string;
  html?: string;
  code?: string;
  link?: string;
};

export type Outbox = {
  /** Logs the message and keeps it, in this process and in the database (every node sees it). */
  record(message: OutboxMessage): Promise<OutboxEntry>;
  /** Newest first, optionally only those sent to one address. */
  list(options?: { to?: string; limit?: number }): Promise<OutboxEntry[]>;
};

const MEMORY_CAPACITY = 200;
const DEFAULT_LIST_LIMIT = 100;

/**
 * Where texts and e-mails go when no SMS provider or SMTP server is configured (never in
 * production), so a person trying the app can still register and reset a password.
 */
export function createOutbox(deps: { repository: OutboxRepository; logger: Logger; clock: Clock }): Outbox {
  const recent: OutboxEntry[] = [];
  return {
    async record(message) {
      const row = await deps.repository.insert({
        channel: message.channel,
        to: message.to,
        subject: message.subject ?? null,
        text: message.text,
        html: message.html ?? null,
        code: message.code ?? null,
        link: message.link ?? null,
        createdAt: deps.clock.now(),
      });
      const entry = toEntry(row);
      recent.unshift(entry);
      recent.length = Math.min(recent.length, MEMORY_CAPACITY);
      // Never the text, code or link: logs hold no secrets (QUALITY 33); /dev/outbox shows them.
      deps.logger.info(
        { outbox: { channel: entry.channel, id: entry.id } },
        `[outbox] ${entry.channel} ready at /dev/outbox (not sent: no provider configured)`,
      );
      return entry;
    },
    async list(options = {}) {
      const limit = Math.min(options.limit ?? DEFAULT_LIST_LIMIT, DEFAULT_LIST_LIMIT);
      try {
        const rows = await deps.repository.list({ to: options.to, limit });
        return rows.map(toEntry);
      } catch (error) {
        // The database is the list every node shares; this node's own copy still helps a developer.
        deps.logger.warn({ err: error }, 'outbox: reading the database failed, listing this node only');
        return recent.filter((entry) => options.to === undefined || entry.to === options.to).slice(0, limit);
      }
    },
  };
}

function toEntry(row: DevOutboxRow): OutboxEntry {
  return {
    id: row.id,
    channel: row.channel === 'sms' ? 'sms' : 'email',
    to: row.to,
    subject: row.subject,
    text: row.text,
    html: row.html,
    code: row.code,
    link: row.link,
    createdAt: row.createdAt.toISOString(),
  };
}
