import { once } from 'node:events';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { listenProblem } from './listenProblem.js';

/** The error Node gives when `port` on `host` cannot be listened on. */
async function listenError(port: number, host?: string): Promise<unknown> {
  const server = createServer();
  server.listen(port, host);
  const [error] = (await once(server, 'error')) as [unknown];
  return error;
}

describe('listenProblem: a port the process cannot take, said as what to change', () => {
  let taken: Server | undefined;
  afterEach(() => void taken?.close());

  const takeAPort = async (host?: string) => {
    taken = createServer().listen(0, host);
    await once(taken, 'listening');
    return (taken.address() as AddressInfo).port;
  };

  it('names PORT when the app port is in use', async () => {
    const port = await takeAPort();
    const error = await listenError(port);
    expect(listenProblem(error, { port, inbound: { smtpPort: undefined } })).toBe(
      `Port ${port} is already in use: stop what listens there, or set PORT to a free port`,
    );
  });

  it('names INBOUND_SMTP_PORT and the address when the mail listener’s port is in use', async () => {
    const port = await takeAPort('127.0.0.1');
    const error = await listenError(port, '127.0.0.1');
    expect(listenProblem(error, { port: 3000, inbound: { smtpPort: port } })).toBe(
      `127.0.0.1 port ${port} is already in use: stop what listens there, or set INBOUND_SMTP_PORT to a free port`,
    );
  });

  it('names HOST when it is no address of this machine', async () => {
    const error = await listenError(3999, '192.0.2.1');
    expect(listenProblem(error, { port: 3999, inbound: { smtpPort: undefined } })).toBe(
      '192.0.2.1 is not an address of this machine: set HOST to one of its addresses',
    );
  });

  it('leaves every other error to the generic start failure', () => {
    expect(
      listenProblem(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { port: 3000, inbound: { smtpPort: undefined } }),
    ).toBeUndefined();
    expect(listenProblem('not an error', { port: 3000, inbound: { smtpPort: undefined } })).toBeUndefined();
  });
});
