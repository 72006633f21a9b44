import { DevOutboxPanel } from '../features/auth/dev-outbox-panel.tsx';

/** The development outbox: texts and e-mails the server did not really send (ARCHITECTURE.md). */
export function DevOutboxPage() {
  return <DevOutboxPanel />;
}
