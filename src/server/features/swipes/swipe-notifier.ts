/**
 * What swipes tell the notification feature, without knowing it: a superlike that did not make a
 * match notifies its target, and an undo that took that notification back tells the target's
 * open lists (and the count, when it was unread).
 */
export interface SwipeNotifier {
  superliked(targetId: string, swipeId: string): Promise<void>;
  notificationsRemoved(userId: string, removed: { ids: string[]; unread: number }): Promise<void>;
}
