import { connect, createServer, type Socket } from 'node:net';

export interface Upstream {
  host: string;
  port: number;
}

export interface TcpProxy {
  port: number;
  url(original: string): string;
  /** Drops every open connection and refuses new ones, like a database or Redis going away. */
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

export interface TcpProxyOptions {
  /**
   * Sees each chunk a client sends before it is passed on; answering false drops the connection
   * instead, without passing it on (a test acts at the exact moment a command is on its way).
   */
  fromClient?: (chunk: Buffer) => boolean;
}

/**
 * A loopback TCP proxy the test controls. With several upstreams it spreads connections round-robin,
 * which makes it a small layer-4 load balancer: WebSocket upgrades pass through untouched and a
 * connection stays on one backend for its whole life.
 */
export async function startTcpProxy(upstreams: Upstream | Upstream[], options: TcpProxyOptions = {}): Promise<TcpProxy> {
  const targets = Array.isArray(upstreams) ? upstreams : [upstreams];
  const open = new Set<Socket>();
  let cut = false;
  let next = 0;

  const server = createServer((client) => {
    if (cut) return void client.destroy();
    const target = targets[next++ % targets.length]!;
    const upstream = connect(target.port, target.host);
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    for (const [a, b] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      open.add(a);
      const watch = a === client ? options.fromClient : undefined;
      if (watch)
        a.on('data', (chunk: Buffer) => {
          if (watch(chunk)) b.write(chunk);
          else a.destroy();
        });
      else a.pipe(b);
      a.on('error', () => b.destroy());
      a.on('close', () => {
        open.delete(a);
        b.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };

  return {
    port,
    url(original) {
      const url = new URL(original);
      url.hostname = '127.0.0.1';
      url.port = String(port);
      return url.toString();
    },
    cut() {
      cut = true;
      for (const socket of open) socket.destroy();
    },
    restore() {
      cut = false;
    },
    async close() {
      cut = true;
      for (const socket of open) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** host:port of a postgres:// or redis:// URL. */
export function upstreamOf(url: string, defaultPort: number): Upstream {
  const parsed = new URL(url);
  return { host: parsed.hostname || '127.0.0.1', port: Number(parsed.port || defaultPort) };
}
