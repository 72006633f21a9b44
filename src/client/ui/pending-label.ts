/** "1 pendiente de enviar" / "N pendientes de enviar": what the outbox still holds. */
export function pendingLabel(count: number): string {
  return count === 1 ? '1 pendiente de enviar' : `${count} pendientes de enviar`;
}
