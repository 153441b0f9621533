/**
 * The floor of bench/scale.ts in a process of its own, like the server it is compared with: a bare Koa
 * app answering GET /bare with the bytes of the file named on the command line (no auth, no database,
 * no JSON encoding). Prints {"port": n} once it listens; SIGTERM stops it.
 *
 *   node --import tsx bench/scaleFloor.ts <body-file>
 */
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { bareFloorServer } from './bareFloor.js';

const file = process.argv[2];
if (!file) throw new Error('usage: scaleFloor.ts <body-file>');
const body = readFileSync(file);

const server = bareFloorServer(body);
server.listen(0, '127.0.0.1', () => {
  console.log(JSON.stringify({ port: (server.address() as AddressInfo).port }));
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
