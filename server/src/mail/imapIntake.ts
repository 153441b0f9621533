import { ImapFlow } from 'imapflow';
import type { Database } from '../db/client.js';
import { readImapState, saveImapState } from '../db/queries/inbound.js';
import type { Logger } from '../lib/logger.js';
import type { InboundService } from '../services/inbound/index.js';

export interface ImapIntakeOptions {
  url: string;
  doneFolder: string;
  pollMs: number;
  supportAddress: string;
}

export interface ImapIntake {
  /** Resolves after the first read of the mailbox (or the first failure to read it); for tests and logs. */
  firstPass: Promise<void>;
  /** Reads the mailbox now rather than at the next IDLE notice or poll. */
  poke(): void;
  stop(): Promise<void>;
}

/** The advisory lock that lets one process at a time read the mailbox. */
const IMAP_LOCK_KEY = 727_002;
/** After a lost connection or a refused sign-in, how long before trying again. */
const RECONNECT_MS = 5_000;
const AUTO_IDLE_MS = 1_000;

/** `user@host:port/folder`: the mailbox's name in imap_state, never with its password. */
function mailboxName(url: URL, folder: string): string {
  return `${decodeURIComponent(url.username)}@${url.hostname}:${url.port || (url.protocol === 'imaps:' ? 993 : 143)}/${folder}`;
}

/**
 * The IMAP intake (docs/api.md#email-intake): one process at a time reads IMAP_URL's folder, stores
 * each new message (its UID saved in the same transaction as its row, so a restart neither skips nor
 * stores one twice), then moves it to IMAP_DONE_FOLDER, or flags it \Seen when it cannot be moved.
 * It never deletes. New mail is noticed by IDLE where the server offers it, else every IMAP_POLL_MS.
 */
export function startImapIntake(
  inbound: InboundService,
  database: Pick<Database, 'db' | 'tryExclusive'>,
  options: ImapIntakeOptions,
  logger: Logger,
): ImapIntake {
  const url = new URL(options.url);
  const folder = decodeURIComponent(url.pathname.replace(/^\//, '')) || 'INBOX';
  const mailbox = mailboxName(url, folder);
  let running = true;
  // Read through a call: stop() changes it while a loop awaits, which narrowing cannot see.
  const isRunning = () => running;
  let wake: (() => void) | undefined;
  let client: ImapFlow | undefined;
  let firstPassDone: () => void = () => undefined;
  const firstPass = new Promise<void>((resolve) => (firstPassDone = resolve));
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      }
      wake = done;
    });

  /** Stores every message past the saved UID, oldest first, then moves it out of the folder. */
  async function readNew(imap: ImapFlow): Promise<void> {
    const opened = await imap.mailboxOpen(folder);
    const uidValidity = Number(opened.uidValidity);
    const state = await readImapState(database.db, mailbox);
    // A new UIDVALIDITY means the old UIDs mean nothing: read the folder again (copies are duplicates).
    let lastUid = state && state.uidValidity === uidValidity ? state.lastUid : 0;
    // Stored before a crash, but the process died before moving it: put away now, never stored again.
    // (A message left here on purpose is flagged \Seen, so it is not one of these.)
    if (lastUid > 0) {
      const leftover = await imap.search({ uid: `1:${lastUid}`, seen: false }, { uid: true });
      for (const uid of leftover || []) if (isRunning()) await putAway(imap, uid);
    }
    const found = await imap.search({ uid: `${lastUid + 1}:*` }, { uid: true });
    const uids = (found || []).filter((uid) => uid > lastUid).sort((a, b) => a - b);
    for (const uid of uids) {
      if (!isRunning()) return;
      const download = await imap.download(String(uid), undefined, { uid: true });
      if (!download.content) continue;
      const accepted = await inbound.accept({
        source: 'imap',
        envelopeFrom: null,
        envelopeTo: [options.supportAddress],
        data: download.content,
        within: (tx) => saveImapState(tx, mailbox, uidValidity, uid),
      });
      // Too large: never stored; the UID is passed over so the next message is not held up.
      if (!accepted.stored) {
        logger.warn({ mailbox, uid }, 'IMAP intake: a message larger than INBOUND_MAX_BYTES was left in the mailbox');
        await saveImapState(database.db, mailbox, uidValidity, uid);
        await imap.messageFlagsAdd(String(uid), ['\\Seen'], { uid: true }).catch(() => undefined);
        lastUid = uid;
        continue;
      }
      lastUid = uid;
      await putAway(imap, uid);
    }
  }

  /** Out of the folder into the done folder; flagged \Seen where it cannot be moved. Never deleted. */
  async function putAway(imap: ImapFlow, uid: number): Promise<void> {
    try {
      if (await imap.messageMove(String(uid), options.doneFolder, { uid: true })) return;
    } catch (error) {
      logger.warn({ err: error, mailbox, uid }, 'IMAP intake: could not move a stored message');
    }
    await imap.messageFlagsAdd(String(uid), ['\\Seen'], { uid: true }).catch(() => undefined);
  }

  async function session(): Promise<void> {
    const imap = new ImapFlow({
      host: url.hostname,
      port: Number(url.port) || (url.protocol === 'imaps:' ? 993 : 143),
      secure: url.protocol === 'imaps:',
      auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) },
      logger: false,
      // Idle a second after the last command (not imapflow's 15 s), so new mail is heard at once.
      autoIdleDelay: AUTO_IDLE_MS,
    });
    client = imap;
    imap.on('error', (error) => logger.warn({ err: error, mailbox }, 'IMAP intake connection error'));
    // New mail announced while idling: read it now.
    imap.on('exists', () => wake?.());
    const closed = new Promise<void>((resolve) => imap.once('close', () => resolve()));
    await imap.connect();
    await imap.mailboxCreate(options.doneFolder).catch(() => undefined);
    logger.info({ mailbox, idle: imap.capabilities.has('IDLE') }, 'IMAP intake reading');
    try {
      while (isRunning() && imap.usable) {
        await readNew(imap);
        firstPassDone();
        // With IDLE the server's notice wakes us (imapflow idles between commands); the poll is the fallback.
        await Promise.race([pause(options.pollMs), closed]);
      }
    } finally {
      client = undefined;
      await imap.logout().catch(() => imap.close());
    }
  }

  const done = (async () => {
    while (isRunning()) {
      const lock = await database.tryExclusive(IMAP_LOCK_KEY).catch((error: unknown) => {
        logger.warn({ err: error }, 'IMAP intake: the lock could not be asked for');
        return undefined;
      });
      if (!lock) {
        // Another process reads the mailbox; ask again later in case it stops.
        await pause(options.pollMs);
        continue;
      }
      try {
        // A lock whose connection failed is no longer held: take it again before reading on.
        while (isRunning() && !lock.lost) {
          try {
            await session();
          } catch (error) {
            logger.warn({ err: error, mailbox }, 'IMAP intake: reading the mailbox failed; trying again');
            firstPassDone();
            if (isRunning()) await pause(RECONNECT_MS);
          }
        }
      } finally {
        await lock.release();
      }
    }
  })();

  return {
    firstPass,
    poke: () => wake?.(),
    async stop() {
      running = false;
      wake?.();
      client?.close();
      await done;
    },
  };
}
