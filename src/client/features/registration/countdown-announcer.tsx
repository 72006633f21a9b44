/**
 * Reads a running resend countdown to screen readers every 15 seconds and when it ends, instead of
 * every second as it is shown (which would drown everything else out).
 */
export function CountdownAnnouncer({
  secondsLeft,
  running = (seconds) => `Podrás reenviar el código en ${seconds} segundos`,
  done = 'Ya puedes reenviar el código',
}: {
  secondsLeft: number;
  running?: (seconds: number) => string;
  done?: string;
}) {
  const coarse = Math.ceil(secondsLeft / 15) * 15;
  return (
    <p className="sr-only" aria-live="polite" aria-atomic="true">
      {secondsLeft > 0 ? running(coarse) : done}
    </p>
  );
}
