import type { Settings } from '../settings.js';

type ListenError = NodeJS.ErrnoException & { port?: number; address?: string };

/**
 * A port or address this process cannot take is the operator's to fix, not a bug: what is wrong and
 * which setting changes it, without the stack trace an unexpected start failure is logged with.
 * Undefined for any other error.
 */
export function listenProblem(
  error: unknown,
  settings: Pick<Settings, 'port'> & { inbound: Pick<Settings['inbound'], 'smtpPort'> },
): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const { code, syscall, port, address } = error as ListenError;
  if (syscall !== 'listen') return undefined;
  const smtp = port === settings.inbound.smtpPort && port !== settings.port;
  const [portSetting, hostSetting] = smtp ? ['INBOUND_SMTP_PORT', 'INBOUND_SMTP_HOST'] : ['PORT', 'HOST'];
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
