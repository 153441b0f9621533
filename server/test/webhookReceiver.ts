import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedHook {
  path: string;
  headers: IncomingHttpHeaders;
  /** The body as sent: what the signature covers. */
  body: string;
  /** Its JSON. */
  json: { type: string; timestamp: string; data: any };
  /** When its body had arrived (Date.now()). */
  receivedAt: number;
}

/** How the receiver answers a request: a status (and headers), or `hang` to never answer. */
export type Answer = { status: number; headers?: Record<string, string> } | 'hang';

export interface WebhookReceiver {
  /** Where webhooks may be pointed: `http://127.0.0.1:<port>/<path>`. */
  url(path?: string): string;
  received: ReceivedHook[];
  /** What was received at one path. */
  at(path: string): ReceivedHook[];
  /** Answers to give, first to last, at a path; once they are used up it answers 200. */
  answer(path: string, ...answers: Answer[]): void;
  /** What was received at one path once there are `count` of them; rejects after `timeoutMs`. */
  waitFor(path: string, count: number, timeoutMs?: number): Promise<ReceivedHook[]>;
  close(): Promise<void>;
}

/** A real HTTP endpoint on 127.0.0.1 that records every webhook and answers as told. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedHook[] = [];
  const answers = new Map<string, Answer[]>();
  const hanging = new Set<ServerResponse>();
  const waiting = new Set<() => void>();
  const at = (path: string) => received.filter((hook) => hook.path === path);
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = req.url ?? '/';
      received.push({ path, headers: req.headers, body, json: JSON.parse(body), receivedAt: Date.now() });
      for (const check of waiting) check();
      const answer = answers.get(path)?.shift() ?? { status: 200 };
      if (answer === 'hang') {
        hanging.add(res);
        return;
      }
      res.writeHead(answer.status, answer.headers).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    received,
    at,
    answer: (path, ...list) => answers.set(path, [...(answers.get(path) ?? []), ...list]),
    waitFor: (path, count, timeoutMs = 10_000) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.delete(check);
          reject(new Error(`${at(path).length} of ${count} webhooks received at ${path} within ${timeoutMs} ms`));
        }, timeoutMs);
        const check = () => {
          if (at(path).length < count) return;
          clearTimeout(timer);
          waiting.delete(check);
          resolve(at(path));
        };
        waiting.add(check);
        check();
      }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
