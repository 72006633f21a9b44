/**
 * What the page's outbox and the service worker's Background Sync share
 * (docs/decisions/0011-offline.md): the sync tag, the wake-up message, the database names and the
 * refusals that mark an item failed instead of retrying it.
 */

/** The Background Sync tag the page registers while its outbox holds items offline. */
export const OUTBOX_SYNC_TAG = 'entreno-outbox';
/** The message the worker posts to open pages so their leading tab drains. */
export const OUTBOX_DRAIN_MESSAGE = 'OUTBOX_DRAIN';
/** One database per signed-in user: `entreno-<userId>`. */
export const LOCAL_DB_PREFIX = 'entreno-';
/** The token the worker may use for background replay (remember-me sessions only). */
export const SESSION_DB_NAME = 'entreno-session';
/** HTTP statuses a replay cannot change: the item is marked failed ("Error al enviar"), never dropped. */
export const PERMANENT_FAILURE_STATUSES: ReadonlySet<number> = new Set([400, 403, 404, 409, 410, 413, 422]);
