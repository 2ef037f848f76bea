/**
 * A local push service for tests and the push benchmark: RFC 8030 over HTTPS on loopback with a self-signed
 * certificate made per run (openssl CLI). For every push it checks the VAPID JWT (RFC 8292: ES256 signature
 * against the key in the Authorization header, which must be the subscription's application server key; aud
 * = this origin; exp in the future and at most 24 h away), decrypts the aes128gcm body (RFC 8291) with the
 * subscription's private key and auth secret, records the arrival and answers 201 — or what a test asked for
 * (410, 429 with Retry-After, 500, holding the request open, or dropping the connection).
 */
import { execFileSync } from 'node:child_process';
import { createECDH, createPublicKey, createDecipheriv, hkdfSync, randomBytes, verify } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '../utils/wait';

export interface TestSubscription {
  id: string;
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export interface Arrival {
  subscriptionId: string;
  at: number;
  /** what the service answered */
  status: number;
  ttl: number | null;
  urgency: string | null;
  topic: string | null;
  /** the decrypted body, parsed as JSON when it is JSON */
  payload: unknown;
  plaintextBytes: number;
  vapid: { aud: string; exp: number; sub: string } | null;
  /** why the service refused it (bad JWT, undecryptable, ...) */
  error?: string;
}

export interface CannedAnswer {
  status: number;
  headers?: Record<string, string>;
  /** keep the request open until release() (the sender's socket may die first) */
  hold?: boolean;
  /** destroy the connection without an answer (the sender sees a network error) */
  drop?: boolean;
}

interface SubState {
  ecdh: ReturnType<typeof createECDH>;
  publicKey: Buffer;
  auth: Buffer;
  /** the VAPID public key the subscription was made with (the browser's applicationServerKey) */
  serverKey: string;
  answers: CannedAnswer[];
  /** undelivered pushes, one per topic (a newer push with the same Topic replaces the older one) */
  inbox: Arrival[];
}

const b64u = (buf: Buffer) => buf.toString('base64url');

/** A self-signed certificate for 127.0.0.1 / localhost, in a fresh temp folder. */
export function makeCertificate(): { dir: string; certFile: string; keyFile: string } {
  const dir = mkdtempSync(join(tmpdir(), 'parley-push-'));
  const certFile = join(dir, 'cert.pem');
  const keyFile = join(dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-days',
      '2',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
    ],
    { stdio: 'ignore' },
  );
  return { dir, certFile, keyFile };
}

/** RFC 8291 decryption of one aes128gcm body with the user agent's key pair and auth secret. */
export function decryptAes128gcm(body: Buffer, ecdh: ReturnType<typeof createECDH>, uaPublic: Buffer, authSecret: Buffer): Buffer {
  if (body.length < 21) throw new Error('body shorter than the aes128gcm header');
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  const idlen = body[20];
  const asPublic = body.subarray(21, 21 + idlen);
  if (idlen !== 65 || asPublic[0] !== 0x04) throw new Error('keyid is not an uncompressed P-256 key');
  const records = body.subarray(21 + idlen);
  if (records.length > rs) throw new Error('more than one record');
  const ecdhSecret = ecdh.computeSecret(asPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), uaPublic, asPublic]);
  const ikm = Buffer.from(hkdfSync('sha256', ecdhSecret, authSecret, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(records.subarray(records.length - 16));
  const padded = Buffer.concat([decipher.update(records.subarray(0, records.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 0x02 followed by zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  if (end < 0 || padded[end] !== 0x02) throw new Error('no last-record padding delimiter');
  return padded.subarray(0, end);
}

/** Verifies `vapid t=<jwt>, k=<key>` (RFC 8292); answers the claims or throws naming the problem. */
export function verifyVapid(header: string | undefined, audience: string, expectedKey: string): { aud: string; exp: number; sub: string } {
  const m = /^vapid\s+(.+)$/i.exec(header ?? '');
  if (!m) throw new Error('no vapid Authorization');
  const params = Object.fromEntries(
    m[1].split(',').map((p) => {
      const i = p.indexOf('=');
      return [p.slice(0, i).trim(), p.slice(i + 1).trim()];
    }),
  );
  const { t, k } = params as { t?: string; k?: string };
  if (!t || !k) throw new Error('vapid t or k missing');
  if (k !== expectedKey) throw new Error("vapid key is not the subscription's application server key");
  const [h, p, s] = t.split('.');
  const head = JSON.parse(Buffer.from(h, 'base64url').toString()) as { alg?: string };
  if (head.alg !== 'ES256') throw new Error(`vapid alg ${head.alg}`);
  const raw = Buffer.from(k, 'base64url');
  const key = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: b64u(raw.subarray(1, 33)), y: b64u(raw.subarray(33, 65)) },
    format: 'jwk',
  });
  const ok = verify('sha256', Buffer.from(`${h}.${p}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(s, 'base64url'));
  if (!ok) throw new Error('vapid signature does not verify');
  const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as { aud: string; exp: number; sub: string };
  if (claims.aud !== audience) throw new Error(`vapid aud ${claims.aud} is not ${audience}`);
  const now = Math.floor(Date.now() / 1000);
  if (!(claims.exp > now)) throw new Error('vapid token expired');
  if (claims.exp > now + 24 * 3600) throw new Error('vapid exp more than 24 h away');
  if (!claims.sub) throw new Error('vapid sub missing');
  return claims;
}

export class LocalPushService {
  readonly caFile: string;
  private readonly dir: string;
  private readonly server: Server;
  private readonly subs = new Map<string, SubState>();
  private readonly held = new Set<ServerResponse>();
  readonly arrivals: Arrival[] = [];
  origin = '';

  private constructor() {
    const { dir, certFile, keyFile } = makeCertificate();
    this.dir = dir;
    this.caFile = certFile;
    this.server = createServer({ cert: readFileSync(certFile), key: readFileSync(keyFile), keepAliveTimeout: 30_000 }, (req, res) => this.handle(req, res));
  }

  /** On 127.0.0.1:port (0: a port the OS picks). */
  static async start(port = 0): Promise<LocalPushService> {
    const service = new LocalPushService();
    await new Promise<void>((resolve, reject) => {
      service.server.once('error', reject);
      service.server.listen(port, '127.0.0.1', resolve);
    });
    const address = service.server.address() as { port: number };
    service.origin = `https://127.0.0.1:${address.port}`;
    return service;
  }

  /** A new browser subscription: a real P-256 key pair and a 16-byte auth secret, for an application server key. */
  subscribe(serverKey: string): TestSubscription {
    const id = randomBytes(9).toString('base64url');
    const ecdh = createECDH('prime256v1');
    const publicKey = ecdh.generateKeys();
    const auth = randomBytes(16);
    this.subs.set(id, { ecdh, publicKey, auth, serverKey, answers: [], inbox: [] });
    return { id, endpoint: `${this.origin}/push/${id}`, keys: { p256dh: b64u(publicKey), auth: b64u(auth) } };
  }

  /** The next pushes to this subscription get these answers, in order (then 201 again). */
  answer(id: string, ...answers: CannedAnswer[]): void {
    this.subs.get(id)!.answers.push(...answers);
  }

  /** Answers 201 to every held request and stops holding. */
  release(): void {
    for (const res of this.held) if (!res.writableEnded && !res.destroyed) res.writeHead(201).end();
    this.held.clear();
  }

  arrivalsFor(id: string, status?: number): Arrival[] {
    return this.arrivals.filter((a) => a.subscriptionId === id && (status === undefined || a.status === status));
  }

  /** What the device would show now: accepted pushes, a newer one replacing an older one with the same Topic. */
  inbox(id: string): Arrival[] {
    return [...this.subs.get(id)!.inbox];
  }

  /** Resolves once the condition holds; rejects after timeoutMs naming what it waited for (for the push benchmark). */
  async until(check: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
    await waitFor(check, { timeoutMs, message: `push service: ${what}` });
  }

  async stop(): Promise<void> {
    this.release();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    rmSync(this.dir, { recursive: true, force: true });
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const m = /^\/push\/([A-Za-z0-9_-]+)$/.exec(req.url ?? '');
      const sub = m ? this.subs.get(m[1]) : undefined;
      if (req.method !== 'POST' || !m || !sub) {
        res.writeHead(404).end();
        return;
      }
      const header = (name: string) => {
        const v = req.headers[name];
        return typeof v === 'string' ? v : null;
      };
      const arrival: Arrival = {
        subscriptionId: m[1],
        at: Date.now(),
        status: 201,
        ttl: header('ttl') === null ? null : Number(header('ttl')),
        urgency: header('urgency'),
        topic: header('topic'),
        payload: null,
        plaintextBytes: 0,
        vapid: null,
      };
      try {
        arrival.vapid = verifyVapid(header('authorization') ?? undefined, this.origin, sub.serverKey);
        if (header('content-encoding') !== 'aes128gcm') throw new Error(`content-encoding ${header('content-encoding')}`);
        if (arrival.ttl === null || !Number.isInteger(arrival.ttl)) throw new Error('TTL header missing');
        if (arrival.topic !== null && !/^[A-Za-z0-9_-]{1,32}$/.test(arrival.topic)) throw new Error('Topic is not 1-32 base64url characters');
        const plain = decryptAes128gcm(Buffer.concat(chunks), sub.ecdh, sub.publicKey, sub.auth);
        arrival.plaintextBytes = plain.length;
        const text = plain.toString('utf8');
        try {
          arrival.payload = JSON.parse(text);
        } catch {
          arrival.payload = text;
        }
      } catch (err) {
        arrival.error = (err as Error).message;
        arrival.status = 400;
      }
      const canned = arrival.error ? undefined : sub.answers.shift();
      if (canned) arrival.status = canned.hold || canned.drop ? 0 : canned.status;
      this.arrivals.push(arrival);
      if (arrival.status === 201) {
        sub.inbox = sub.inbox.filter((a) => !(arrival.topic && a.topic === arrival.topic));
        sub.inbox.push(arrival);
      }
      if (canned?.drop) {
        req.socket.destroy();
        return;
      }
      if (canned?.hold) {
        this.held.add(res);
        res.on('close', () => this.held.delete(res));
        return;
      }
      res.writeHead(arrival.status, {
        ...(canned?.headers ?? {}),
        ...(arrival.status === 201 ? { Location: `${this.origin}/message/${randomBytes(6).toString('hex')}` } : {}),
      });
      res.end(arrival.error ?? '');
    });
  }
}
