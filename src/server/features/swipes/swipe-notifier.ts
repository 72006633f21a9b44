/**
 * What swipes tell the notification feature, without knowing it: a superlike that did not make a
 * match notifies its target, and an undo that removed an unread one refreshes the target's count.
 */
export interface SwipeNotifier {
  superliked(targetId: string, swipeId: string): Promise<void>;
  unreadCountChanged(userId: string): Promise<void>;
}
