import type { MatchEvent } from '#shared/discovery/discovery-schemas';

/**
 * How the swipe service tells the outside world about a new match, without knowing Socket.IO:
 * the realtime layer implements it (today a plain `match` event to `user:<id>`; later the
 * notification feature turns it into `notification` events and pushes).
 */
export interface MatchEvents {
  /** Called once per user of a new match, after the match is committed. */
  matched(userId: string, event: MatchEvent): void;
}

export const noMatchEvents: MatchEvents = { matched() {} };
