import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { MESSAGES } from '@helpdesk/protocol';
import { bareHost, resolvePinned, type PinnedAddress } from '../lib/publicAddress.js';

/** WEBHOOK_ALLOW_HTTP / WEBHOOK_ALLOW_PRIVATE (docs/api.md#webhooks). */
export interface AddressRules {
  allowHttp: boolean;
  allowPrivate: boolean;
}

/** What one attempt came to. `refused`: not sent, the address broke the rules; `gone`: a 410. */
export type AttemptOutcome =
  | { kind: 'delivered'; statusCode: number; durationMs: number }
  | { kind: 'failed' | 'gone'; statusCode: number | null; error: string; durationMs: number }
  | { kind: 'refused'; error: string; durationMs: 0 };

/** Bytes of an answer read before it is let go: a receiver's answer is not ours to keep. */
const ANSWER_BYTES = 64 * 1024;
const USER_AGENT = 'HelpDesk-Webhooks/1.0';

/** Connects to the checked address whatever the name resolves to now; TLS still checks the name. */
const pinnedLookup =
  ({ address, family }: PinnedAddress): LookupFunction =>
  (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 500);

/** The address checks of docs/api.md#webhooks, at the moment of sending: undefined when refused. */
async function addressFor(url: URL, rules: AddressRules, resolve: typeof resolvePinned): Promise<PinnedAddress | { refused: string }> {
  if (url.protocol !== 'https:' && !(rules.allowHttp && url.protocol === 'http:')) return { refused: MESSAGES.webhooks.refusedScheme };
  const pinned = await resolve(url, rules.allowPrivate);
  return pinned ?? { refused: MESSAGES.webhooks.refusedAddress(bareHost(url)) };
}

const noAnswer = (timeoutMs: number) => new Error(`No answer within ${timeoutMs / 1000} s`);

/** The promise, or a rejection once the attempt's deadline passes: a name lookup has no timeout of its own. */
function beforeDeadline<T>(promise: Promise<T>, deadline: AbortSignal, timeoutMs: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const expire = () => reject(noAnswer(timeoutMs));
    if (deadline.aborted) expire();
    deadline.addEventListener('abort', expire, { once: true });
    promise.then(resolve, reject).finally(() => deadline.removeEventListener('abort', expire));
  });
}

function post(url: URL, pinned: PinnedAddress, headers: Record<string, string>, body: string, deadline: AbortSignal, timeoutMs: number) {
  return new Promise<IncomingMessage>((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(url, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': USER_AGENT },
      lookup: pinnedLookup(pinned),
      // A connection of its own: a pooled one could be to an address checked for another delivery.
      agent: false,
      signal: deadline,
    });
    req.on('response', (res) => {
      let read = 0;
      res.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > ANSWER_BYTES) res.destroy();
      });
      res.on('end', () => resolve(res));
      res.on('close', () => resolve(res));
      res.on('error', reject);
    });
    req.on('error', (error) => reject(error.name === 'AbortError' ? noAnswer(timeoutMs) : error));
    req.end(body);
  });
}

/**
 * One attempt: checks the address, POSTs the body over a connection pinned to it, and reads the
 * answer, all within `timeoutMs` (the sender's claim on the delivery lasts twice that). Only a 2xx is
 * a success; a redirect is not followed and counts as a failure.
 */
export async function attemptDelivery(
  url: URL,
  headers: Record<string, string>,
  body: string,
  {
    rules,
    timeoutMs,
    resolve = resolvePinned,
  }: {
    rules: AddressRules;
    timeoutMs: number;
    /** The name lookup (publicAddress.ts); a test hands in one that never answers. */
    resolve?: typeof resolvePinned;
  },
): Promise<AttemptOutcome> {
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  const deadline = AbortSignal.timeout(timeoutMs);
  try {
    const pinned = await beforeDeadline(addressFor(url, rules, resolve), deadline, timeoutMs);
    if ('refused' in pinned) return { kind: 'refused', error: pinned.refused, durationMs: 0 };
    const res = await post(url, pinned, headers, body, deadline, timeoutMs);
    const statusCode = res.statusCode ?? 0;
    if (statusCode >= 200 && statusCode < 300) return { kind: 'delivered', statusCode, durationMs: took() };
    if (statusCode === 410) return { kind: 'gone', statusCode, error: 'Answered 410 Gone', durationMs: took() };
    const error =
      statusCode >= 300 && statusCode < 400
        ? MESSAGES.webhooks.redirected(statusCode, res.headers.location)
        : `Answered ${statusCode}${res.statusMessage ? ` ${res.statusMessage}` : ''}`;
    return { kind: 'failed', statusCode, error, durationMs: took() };
  } catch (error) {
    return { kind: 'failed', statusCode: null, error: messageOf(error), durationMs: took() };
  }
}
