import { MESSAGE_BADGE_MAX, NOTIFICATION_BADGE_MAX } from '#shared/badge-count';
import { BellIcon, DumbbellIcon, FlameIcon, MessageIcon, SettingsIcon } from '../../ui/icons.tsx';

export type NavCounter = 'matches' | 'messages' | 'notifications';

export type NavItem = {
  to: '/home' | '/matches' | '/messages' | '/notifications' | '/config';
  label: string;
  icon: typeof FlameIcon;
  /** Share of the phone's bottom bar: long labels get more room so every label fits at 360 px. */
  mobileGrow: number;
  counter?: { key: NavCounter; max: number; srSuffix: string };
};

/** The signed-in area's navigation (spec 001 §2), in order. */
export const NAV_ITEMS: readonly NavItem[] = [
  { to: '/home', label: 'Conectar', icon: FlameIcon, mobileGrow: 0.85 },
  {
    to: '/matches',
    label: 'Entrenamientos',
    icon: DumbbellIcon,
    mobileGrow: 1.25,
    counter: { key: 'matches', max: MESSAGE_BADGE_MAX, srSuffix: 'nuevos' },
  },
  {
    to: '/messages',
    label: 'Mensajes',
    icon: MessageIcon,
    mobileGrow: 0.85,
    counter: { key: 'messages', max: MESSAGE_BADGE_MAX, srSuffix: 'sin leer' },
  },
  {
    to: '/notifications',
    label: 'Notificaciones',
    icon: BellIcon,
    mobileGrow: 1.2,
    counter: { key: 'notifications', max: NOTIFICATION_BADGE_MAX, srSuffix: 'sin leer' },
  },
  { to: '/config', label: 'Configuración', icon: SettingsIcon, mobileGrow: 1.2 },
];
