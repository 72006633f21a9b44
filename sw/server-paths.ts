/**
 * The server's own paths. The worker registers no route for them, so the browser goes to the
 * network as if there were no worker: an API answer or a socket handshake is never served stale
 * and never lands in a cache.
 */
export function isServerPath(pathname: string): boolean {
  return /^\/(?:api|socket\.io)(?:\/|$)/.test(pathname);
}
