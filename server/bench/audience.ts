/**
 * The receiving side of bench/realtime.ts: N clients living in the bench process, all listening for
 * the same broadcast. A round is armed before each update and completes when the last client has
 * received a matching event, timed with performance.now() in this process.
 */
import { io } from 'socket.io-client';
import { WebSocket } from 'ws';
import type { ClientToServerEvents, ServerToClientEvents, TicketChangedEvent } from '@helpdesk/protocol';
import type { Socket } from 'socket.io-client';
import { benchSocketOptions } from './support.js';

export interface RoundResult {
  /** performance.now() when the first / the last client got the event; `last` is absent after a timeout. */
  first?: number;
  last?: number;
  missing: number;
}

export interface Audience {
  /** Every `ticket-changed` frame the first client saw on the wire, as sent (engine.io + socket.io framing). */
  readonly frames: string[];
  readonly disconnects: number;
  /** Every event delivered to any client, matching or not: N per broadcast, or something is duplicated or lost. */
  readonly received: number;
  /** Opens n more clients, at most `concurrency` handshakes at a time; rejects on the first refusal. */
  connect(n: number, concurrency: number): Promise<void>;
  /** Arm before sending the update, so an event that beats the HTTP answer still counts. */
  expect(match: (event: TicketChangedEvent) => boolean, timeoutMs: number): Promise<RoundResult>;
  close(): void;
}

type Opener = (
  index: number,
  deliver: (event: TicketChangedEvent) => void,
  audience: { frames: string[]; disconnected: () => void },
) => Promise<() => void>;

function createAudience(open: Opener): Audience {
  const closers: Array<() => void> = [];
  const frames: string[] = [];
  let size = 0;
  let disconnects = 0;
  let received = 0;
  let closing = false;
  let round:
    { match: (e: TicketChangedEvent) => boolean; got: Uint8Array; remaining: number; first?: number; finish(at: number): void } | undefined;

  const deliver = (index: number) => (event: TicketChangedEvent) => {
    received++;
    const r = round;
    if (!r || r.got[index] || !r.match(event)) return;
    r.got[index] = 1;
    r.first ??= performance.now();
    if (--r.remaining === 0) r.finish(performance.now());
  };
  const sink = {
    frames,
    disconnected: () => {
      if (!closing) disconnects++;
    },
  };

  return {
    frames,
    get disconnects() {
      return disconnects;
    },
    get received() {
      return received;
    },
    async connect(n, concurrency) {
      const start = size;
      size += n;
      let next = start;
      let failed = false;
      const worker = async () => {
        while (!failed && next < start + n) {
          const index = next++;
          try {
            const close = await open(index, deliver(index), sink);
            if (closing) close();
            else closers.push(close);
          } catch (error) {
            failed = true;
            throw new Error(`client ${index + 1} of ${size} could not connect: ${(error as Error).message}`, { cause: error });
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(concurrency, n) }, worker));
    },
    expect(match, timeoutMs) {
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          const r = round!;
          round = undefined;
          resolve({ first: r.first, missing: r.remaining });
        }, timeoutMs);
        const r: NonNullable<typeof round> = {
          match,
          got: new Uint8Array(size),
          remaining: size,
          finish(at) {
            clearTimeout(timer);
            round = undefined;
            resolve({ first: r.first, last: at, missing: 0 });
          },
        };
        round = r;
      });
    },
    close() {
      closing = true;
      round = undefined;
      for (const close of closers.splice(0)) close();
    },
  };
}

/** Socket.IO clients as the web client opens them (websocket only), all on the same staff token. */
export function socketIoAudience(urlFor: (index: number) => string, token: string): Audience {
  return createAudience((index, deliver, sink) => {
    const socket: Socket<ServerToClientEvents, ClientToServerEvents> = io(urlFor(index), benchSocketOptions(token));
    socket.on('ticket-changed', deliver);
    return new Promise((resolve, reject) => {
      socket.once('connect_error', (error) => {
        socket.disconnect();
        reject(error);
      });
      socket.once('connect', () => {
        socket.on('disconnect', sink.disconnected);
        // One probe is enough to learn the frame size: every client gets the same encoded packet.
        if (index === 0) {
          socket.io.engine.on('packet', (packet) => {
            if (packet.type === 'message' && typeof packet.data === 'string' && packet.data.startsWith('2["ticket-changed"'))
              sink.frames.push(`4${packet.data}`);
          });
        }
        resolve(() => socket.disconnect());
      });
    });
  });
}

/**
 * Plain `ws` clients of bench/wsBroadcastServer.ts. Each decodes a frame the way a Socket.IO client
 * does at least (strip the packet prefix, JSON.parse), so the floor includes the unavoidable parse.
 */
export function wsAudience(url: string): Audience {
  return createAudience((index, deliver, sink) => {
    const ws = new WebSocket(url, { perMessageDeflate: false });
    ws.on('message', (data: Buffer) => {
      const [, event] = JSON.parse(data.toString().slice(2)) as [string, TicketChangedEvent];
      deliver(event);
    });
    return new Promise((resolve, reject) => {
      ws.once('error', reject);
      ws.once('open', () => {
        ws.off('error', reject);
        ws.on('error', () => undefined);
        ws.once('close', sink.disconnected);
        if (index === 0) ws.on('message', (data: Buffer) => sink.frames.push(data.toString()));
        resolve(() => ws.terminate());
      });
    });
  });
}
