import { once } from 'node:events';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startupProblem, type StartupSettings } from './startupProblem.js';

/** The error Node gives when `port` on `host` cannot be listened on. */
async function listenError(port: number, host?: string): Promise<unknown> {
  const server = createServer();
  server.listen(port, host);
  const [error] = (await once(server, 'error')) as [unknown];
  return error;
}

/** The error Node gives when `dir` cannot be made, as the server makes its folders. */
function mkdirError(dir: string): unknown {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    return error;
  }
  throw new Error(`${dir} could be made`);
}

const settings = (overrides: Partial<StartupSettings> = {}): StartupSettings => ({
  port: 3000,
  dataDir: './data',
  inbound: { smtpPort: undefined },
  metrics: { port: undefined },
  attachments: { dir: './data/attachments' },
  ...overrides,
});

describe('startupProblem: a start failure said as the setting to change', () => {
  let taken: Server | undefined;
  const scratch = mkdtempSync(path.join(tmpdir(), 'helpdesk-startup-'));
  // A file where a folder is wanted: every folder under it fails with ENOTDIR, as on any system.
  const aFile = path.join(scratch, 'a-file');
  writeFileSync(aFile, 'not a folder');
  afterEach(() => void taken?.close());
  afterAll(() => rm(scratch, { recursive: true, force: true }));

  const takeAPort = async (host?: string) => {
    taken = createServer().listen(0, host);
    await once(taken, 'listening');
    return (taken.address() as AddressInfo).port;
  };

  it('names PORT when the app port is in use', async () => {
    const port = await takeAPort();
    expect(startupProblem(await listenError(port), settings({ port }))).toBe(
      `Port ${port} is already in use: stop what listens there, or set PORT to a free port`,
    );
  });

  it('names INBOUND_SMTP_PORT and the address when the mail listener’s port is in use', async () => {
    const port = await takeAPort('127.0.0.1');
    expect(startupProblem(await listenError(port, '127.0.0.1'), settings({ inbound: { smtpPort: port } }))).toBe(
      `127.0.0.1 port ${port} is already in use: stop what listens there, or set INBOUND_SMTP_PORT to a free port`,
    );
  });

  it('names METRICS_PORT when the metrics listener’s port is in use', async () => {
    const port = await takeAPort('127.0.0.1');
    expect(startupProblem(await listenError(port, '127.0.0.1'), settings({ metrics: { port } }))).toBe(
      `127.0.0.1 port ${port} is already in use: stop what listens there, or set METRICS_PORT to a free port`,
    );
  });

  it('names HOST when it is no address of this machine', async () => {
    expect(startupProblem(await listenError(3999, '192.0.2.1'), settings({ port: 3999 }))).toBe(
      '192.0.2.1 is not an address of this machine: set HOST to one of its addresses',
    );
  });

  it('names DATA_DIR when a folder under it cannot be made', () => {
    const dataDir = path.join(aFile, 'data');
    const error = mkdirError(path.join(dataDir, 'pglite'));
    expect(startupProblem(error, settings({ dataDir, attachments: { dir: path.join(dataDir, 'attachments') } }))).toBe(
      `DATA_DIR ${dataDir} cannot be used (ENOTDIR at ${path.join(dataDir, 'pglite')}): set DATA_DIR to a folder this process can create and write`,
    );
  });

  it('names ATTACHMENT_DIR when the attachments’ own folder is the one that fails', () => {
    const dir = path.join(aFile, 'files');
    expect(startupProblem(mkdirError(dir), settings({ attachments: { dir } }))).toBe(
      `ATTACHMENT_DIR ${dir} cannot be used (ENOTDIR at ${dir}): set ATTACHMENT_DIR to a folder this process can create and write`,
    );
  });

  it('leaves every other error to the generic start failure, with its stack', () => {
    expect(startupProblem(new Error('connect ECONNREFUSED 127.0.0.1:5432'), settings())).toBeUndefined();
    expect(startupProblem('not an error', settings())).toBeUndefined();
    // A folder error outside the folders the settings name is a bug to read the stack of.
    expect(startupProblem(mkdirError(path.join(aFile, 'elsewhere')), settings())).toBeUndefined();
  });
});
