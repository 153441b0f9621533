import path from 'node:path';
import { DataDirInUseError } from '../db/dataDirLock.js';
import { DatabaseInUseError } from '../db/dbProcesses.js';
import type { Settings } from '../settings.js';

type SystemError = NodeJS.ErrnoException & { port?: number; address?: string };

/** What of the settings a start failure may be traced to. */
export type StartupSettings = Pick<Settings, 'port' | 'dataDir'> & {
  inbound: Pick<Settings['inbound'], 'smtpPort'>;
  metrics: Pick<Settings['metrics'], 'port'>;
  attachments: Pick<Settings['attachments'], 'dir'>;
};

/** The folder errors a setting can fix (a path through a file, no permission, a read-only disk, a full one). */
const FOLDER_CODES = new Set(['ENOTDIR', 'EACCES', 'EPERM', 'EROFS', 'ENOSPC', 'EEXIST']);

/**
 * A start failure the operator fixes with a setting, not a bug: a port or address this process
 * cannot take, a data or attachment folder it cannot write, a database another process holds in a
 * way this one cannot share. Said as one line naming the setting to
 * change, without the stack trace an unexpected failure is logged with; undefined for anything else.
 */
export function startupProblem(error: unknown, settings: StartupSettings): string | undefined {
  if (!(error instanceof Error)) return undefined;
  if (error instanceof DataDirInUseError)
    return `DATA_DIR ${settings.dataDir} is in use by another HelpDesk process (pid ${error.pid}): the embedded database serves one process; stop that one, give this one its own DATA_DIR, or set DATABASE_URL to share PostgreSQL`;
  if (error instanceof DatabaseInUseError)
    return error.alone
      ? 'Another HelpDesk process uses this database, and without REDIS_URL a server must be its only one: set the same REDIS_URL on every process, or stop the other one'
      : 'A HelpDesk process without REDIS_URL uses this database: set the same REDIS_URL on it too, or stop it';
  const systemError = error as SystemError;
  if (systemError.syscall === 'listen') return listenProblem(systemError, settings);
  if (systemError.path !== undefined && systemError.code !== undefined && FOLDER_CODES.has(systemError.code))
    return folderProblem(systemError, settings);
  return undefined;
}

function listenProblem({ code, port, address }: SystemError, settings: StartupSettings): string | undefined {
  // The app's own port is named first: a listener given the same port as the app fails second.
  const [portSetting, hostSetting] =
    port === settings.port
      ? ['PORT', 'HOST']
      : port === settings.inbound.smtpPort
        ? ['INBOUND_SMTP_PORT', 'INBOUND_SMTP_HOST']
        : port === settings.metrics.port
          ? ['METRICS_PORT', 'HOST']
          : ['PORT', 'HOST'];
  // Every interface (no HOST) says nothing an operator needs.
  const where = address && address !== '::' && address !== '0.0.0.0' ? `${address} port ${port}` : `Port ${port}`;
  switch (code) {
    case 'EADDRINUSE':
      return `${where} is already in use: stop what listens there, or set ${portSetting} to a free port`;
    case 'EACCES':
      return `${where} needs privileges this process does not have: set ${portSetting} to a port above 1023`;
    case 'EADDRNOTAVAIL':
      return `${address ?? 'The address'} is not an address of this machine: set ${hostSetting} to one of its addresses`;
    default:
      return undefined;
  }
}

function folderProblem({ code, path: failed = '' }: SystemError, settings: StartupSettings): string | undefined {
  const within = (dir: string) => {
    const relative = path.relative(path.resolve(dir), path.resolve(failed));
    return !relative.startsWith('..') && !path.isAbsolute(relative);
  };
  // The attachments' folder may sit inside DATA_DIR (its default) or anywhere ATTACHMENT_DIR says.
  const [setting, dir] = within(settings.attachments.dir)
    ? ['ATTACHMENT_DIR', settings.attachments.dir]
    : within(settings.dataDir)
      ? ['DATA_DIR', settings.dataDir]
      : [undefined, undefined];
  if (!setting) return undefined;
  return `${setting} ${dir} cannot be used (${code} at ${failed}): set ${setting} to a folder this process can create and write`;
}
