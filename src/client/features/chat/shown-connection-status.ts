import type { ConnectionStatus } from '../../services/socket.ts';

const OFFLINE: ConnectionStatus = { status: 'disconnected', reason: 'server' };
const STARTING: ConnectionStatus = { status: 'connecting' };

/**
 * The connection status a signed-in screen shows: "Sin conexión" whenever the browser itself is
 * offline; a socket not started yet (`signed_out`: a signed-in screen can draw before the runtime
 * opens it) as connecting, so a page load never flashes "Sin conexión" before "Conectando...", and
 * the banner does not change size under the reader while the socket starts (a layout shift on
 * /messages: layout-stability.spec.ts).
 */
export function shownConnectionStatus(status: ConnectionStatus, isOnline: boolean): ConnectionStatus {
  if (!isOnline) return OFFLINE;
  return status.status === 'disconnected' && status.reason === 'signed_out' ? STARTING : status;
}
