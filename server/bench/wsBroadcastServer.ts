/**
 * The physical floor for bench/realtime.ts: a bare `ws` server that holds plain WebSocket clients and,
 * on `POST /broadcast`, sends the request body verbatim to every one of them. No rooms, no auth, no
 * encoding per event, so the gap to Socket.IO is what Socket.IO and the app add.
 *
 *   node --import tsx bench/wsBroadcastServer.ts   # PORT (default 0) and HOST (default 127.0.0.1)
 *
 * Prints one line `listening <port>` when ready; stops on SIGTERM/SIGINT.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';

const host = process.env.HOST ?? '127.0.0.1';
const port = Number(process.env.PORT ?? 0);

const http = createServer((req, res) => {
  if (req.method !== 'POST' || req.url !== '/broadcast') {
    res.writeHead(404).end();
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    // One buffer for every client, as Socket.IO encodes a broadcast once; sent as a text frame like its packets.
    const message = Buffer.concat(chunks);
    let sent = 0;
    for (const client of wss.clients) {
      if (client.readyState !== client.OPEN) continue;
      client.send(message, { binary: false });
      sent++;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ sent }));
  });
});

// Socket.IO's server does not negotiate compression by default; neither does this one.
const wss = new WebSocketServer({ server: http, perMessageDeflate: false });

http.listen(port, host, () => {
  console.log(`listening ${(http.address() as AddressInfo).port}`);
});

const stop = () => {
  for (const client of wss.clients) client.terminate();
  wss.close();
  http.close(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
