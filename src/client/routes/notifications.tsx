import { NotificationsScreen } from '../features/notifications/index.ts';

/** The notification list (spec 001 §2). */
export function NotificationsPage() {
  return <NotificationsScreen />;
}
