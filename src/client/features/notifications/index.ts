/** The notifications feature: /notifications, the bell's count and its live side. */
export { startNotifications, notificationsState } from './notifications-live.ts';
export { NotificationsScreen } from './notifications-screen.tsx';
export { setNotificationSoundOn, useNotificationSoundOn } from './notification-sound.ts';
export { useBellRing } from './use-bell-ring.ts';
