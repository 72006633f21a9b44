import { createDecipheriv, createECDH, hkdfSync, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { importJWK, type JWTPayload, jwtVerify } from 'jose';

/** How the stand-in answers a subscription's pushes. */
export type PushServiceMode = 'accept' | 'gone' | 'not-found' | 'error' | 'hang';

/** A browser's side of a subscription: what it sends the server, plus its private key to decrypt. */
export type StandInSubscription = {
  id: string;
  endpoint: string;
  keys: { p256dh: string; auth: string };
};

export type ReceivedPush = {
  subscriptionId: string;
  /** The decrypted payload, parsed as JSON. */
  payload: unknown;
  ttl: string | undefined;
  topic: string | undefined;
  urgency: string | undefined;
  contentEncoding: string | undefined;
  /** The verified VAPID claims (aud, exp, sub). */
  vapid: JWTPayload;
  /** The VAPID public key (`k=`), base64url. */
  vapidKey: string;
};

export type PushServiceStandIn = {
  /** `http://127.0.0.1:<port>`: add it to the push endpoint allowlist. */
  origin: string;
  createSubscription(): StandInSubscription;
  setMode(subscriptionId: string, mode: PushServiceMode): void;
  readonly received: readonly ReceivedPush[];
  /** Requests that failed a check (bad VAPID token, undecryptable body): always empty in a good run. */
  readonly rejected: readonly string[];
  /** Forgets the refusals so far (after a test that expects one). */
  clearRejected(): void;
  /** How many requests arrived per subscription, answered or not. */
  requestsFor(subscriptionId: string): number;
  waitForPushes(count: number, timeoutMs?: number): Promise<ReceivedPush[]>;
  close(): Promise<void>;
};

type Keys = { ecdh: ReturnType<typeof createECDH>; publicKey: Buffer; auth: Buffer };

/**
 * A local Web Push service (RFC 8030) for integration tests: it checks the VAPID Authorization
 * header (RFC 8292: an ES256 JWT for `aud` = this origin, signed by the `k` key) and decrypts the
 * aes128gcm body (RFC 8188 / 8291) with the subscription's private key, like a browser would.
 */
export async function startPushServiceStandIn(): Promise<PushServiceStandIn> {
  const keys = new Map<string, Keys>();
  const modes = new Map<string, PushServiceMode>();
  const requestCounts = new Map<string, number>();
  const received: ReceivedPush[] = [];
  const rejected: string[] = [];
  const waiters = new Set<() => void>();
  let origin = '';

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const body = await readBody(request);
    const match = /^\/push\/([0-9a-f-]{36})$/.exec(request.url ?? '');
    const id = match?.[1] ?? '';
    const subscriber = keys.get(id);
    if (request.method !== 'POST' || !subscriber) {
      response.writeHead(404).end();
      return;
    }
    requestCounts.set(id, (requestCounts.get(id) ?? 0) + 1);
    const mode = modes.get(id) ?? 'accept';
    if (mode === 'hang') return; // never answers; the socket stays open until the stand-in closes
    if (mode === 'gone') return void response.writeHead(410).end();
    if (mode === 'not-found') return void response.writeHead(404).end();
    if (mode === 'error') return void response.writeHead(500).end();
    try {
      const { claims, key } = await verifyVapid(request.headers.authorization, origin);
      const payload = JSON.parse(decryptAes128gcm(body, subscriber).toString('utf8'));
      received.push({
        subscriptionId: id,
        payload,
        ttl: header(request, 'ttl'),
        topic: header(request, 'topic'),
        urgency: header(request, 'urgency'),
        contentEncoding: header(request, 'content-encoding'),
        vapid: claims,
        vapidKey: key,
      });
      for (const wake of waiters) wake();
      response.writeHead(201, { location: `${origin}/message/${randomUUID()}` }).end();
    } catch (error) {
      rejected.push((error as Error).message);
      response.writeHead(403).end((error as Error).message);
    }
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error) => {
      rejected.push(String(error));
      if (!response.headersSent) response.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    createSubscription() {
      const id = randomUUID();
      const ecdh = createECDH('prime256v1');
      const publicKey = ecdh.generateKeys();
      const auth = randomBytes(16);
      keys.set(id, { ecdh, publicKey, auth });
      return {
        id,
        endpoint: `${origin}/push/${id}`,
        keys: { p256dh: publicKey.toString('base64url'), auth: auth.toString('base64url') },
      };
    },
    setMode(id, mode) {
      modes.set(id, mode);
    },
    get received() {
      return received;
    },
    get rejected() {
      return rejected;
    },
    clearRejected() {
      rejected.length = 0;
    },
    requestsFor: (id) => requestCounts.get(id) ?? 0,
    async waitForPushes(count, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`expected ${count} pushes, got ${received.length} (rejected: ${rejected})`);
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiters.delete(wake);
            clearTimeout(timer);
            resolve();
          };
          const timer = setTimeout(wake, left);
          waiters.add(wake);
        });
      }
      return received.slice(0, count);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** RFC 8292: `vapid t=<JWT>, k=<P-256 public key>`; the JWT is ES256 by `k`, for our origin, not expired. */
async function verifyVapid(authorization: string | undefined, audience: string) {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization ?? '');
  if (!match) throw new Error(`Authorization is not a VAPID header: ${authorization}`);
  const [, token = '', key = ''] = match;
  const raw = Buffer.from(key, 'base64url');
  if (raw.length !== 65 || raw[0] !== 4) throw new Error('k is not an uncompressed P-256 point');
  const publicKey = await importJWK(
    {
      kty: 'EC',
      crv: 'P-256',
      x: raw.subarray(1, 33).toString('base64url'),
      y: raw.subarray(33).toString('base64url'),
    },
    'ES256',
  );
  const { payload } = await jwtVerify(token, publicKey, { algorithms: ['ES256'], audience });
  if (typeof payload.exp !== 'number' || payload.exp > Date.now() / 1000 + 24 * 3600) {
    throw new Error('VAPID exp missing or more than 24 h ahead');
  }
  if (typeof payload.sub !== 'string' || !/^(mailto:|https:)/.test(payload.sub)) throw new Error('VAPID sub missing');
  return { claims: payload, key };
}

/** RFC 8291 §3.4 + RFC 8188: one aes128gcm record, keyed by ECDH with the sender's key and the auth secret. */
function decryptAes128gcm(body: Buffer, subscriber: Keys): Buffer {
  const salt = body.subarray(0, 16);
  const idLength = body.readUInt8(20);
  const senderKey = body.subarray(21, 21 + idLength);
  const record = body.subarray(21 + idLength);
  const sharedSecret = subscriber.ecdh.computeSecret(senderKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), subscriber.publicKey, senderKey]);
  const ikm = Buffer.from(hkdfSync('sha256', sharedSecret, subscriber.auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  // The last record ends with a 0x02 delimiter followed by zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  if (padded[end] !== 2) throw new Error('aes128gcm: missing last-record delimiter');
  return padded.subarray(0, end);
}
