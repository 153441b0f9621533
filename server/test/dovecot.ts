import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { ImapFlow } from 'imapflow';
import { freePort } from './serverProcess.js';

const DOVECOT = '/usr/sbin/dovecot';

export interface Dovecot {
  port: number;
  user: string;
  password: string;
  /** For the server's IMAP_URL: plain IMAP on loopback. */
  url(folder?: string): string;
  /** A client of the same mailbox, for the test to append and look. */
  client(): Promise<ImapFlow>;
  close(): Promise<void>;
}

/**
 * A real dovecot on a loopback port with a throw-away configuration, mailbox and password file.
 * Missing dovecot is an error, never a skip: the IMAP intake is only tested against a real server.
 */
export async function startDovecot(): Promise<Dovecot> {
  if (!existsSync(DOVECOT)) throw new Error(`the IMAP intake tests need dovecot at ${DOVECOT} (Debian: dovecot-imapd)`);
  const dir = await mkdtemp(path.join(tmpdir(), 'helpdesk-dovecot-'));
  const port = await freePort();
  const user = 'helpdesk';
  const password = 'mailbox-password';
  // As root, dovecot runs its parts as its own users; otherwise everything runs as whoever we are.
  const root = process.getuid?.() === 0;
  const me = userInfo().username;
  const mailUid = root ? Number(execFileSync('id', ['-u', 'dovecot']).toString().trim()) : userInfo().uid;
  const mailGid = root ? Number(execFileSync('id', ['-g', 'dovecot']).toString().trim()) : userInfo().gid;
  // dovecot's own users must reach the mail below it.
  await chmod(dir, 0o755);
  for (const sub of ['run', 'state', 'mail', 'home']) await mkdir(path.join(dir, sub), { recursive: true });
  if (root) {
    await chown(path.join(dir, 'mail'), mailUid, mailGid);
    await chown(path.join(dir, 'home'), mailUid, mailGid);
  }
  await writeFile(path.join(dir, 'passwd'), `${user}:{PLAIN}${password}\n`);
  await writeFile(
    path.join(dir, 'dovecot.conf'),
    `base_dir = ${dir}/run
state_dir = ${dir}/state
log_path = ${dir}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
default_internal_user = ${root ? 'dovecot' : me}
default_login_user = ${root ? 'dovenull' : me}
${root ? '' : `default_internal_group = ${userInfo().username}\n`}first_valid_uid = ${Math.min(mailUid, 100)}
mail_location = maildir:${dir}/mail/%u
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${dir}/passwd
}
userdb {
  driver = static
  args = uid=${mailUid} gid=${mailGid} home=${dir}/home/%u
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
  chroot =
}
service anvil {
  chroot =
}
namespace inbox {
  inbox = yes
  separator = /
}
`,
  );
  const child: ChildProcess = spawn(DOVECOT, ['-F', '-c', path.join(dir, 'dovecot.conf')], { stdio: 'ignore' });
  const connect = async () => {
    const client = new ImapFlow({ host: '127.0.0.1', port, secure: false, auth: { user, pass: password }, logger: false });
    await client.connect();
    return client;
  };
  // Ready once a client can sign in.
  const until = Date.now() + 10_000;
  for (;;) {
    try {
      await (await connect()).logout();
      break;
    } catch (error) {
      if (Date.now() > until || child.exitCode !== null) {
        const log = await readFile(path.join(dir, 'dovecot.log'), 'utf8').catch(() => '(no log)');
        throw new Error(`dovecot did not start: ${String(error)}\n${log}`, { cause: error });
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    port,
    user,
    password,
    url: (folder = 'INBOX') => `imap://${user}:${password}@127.0.0.1:${port}/${folder}`,
    client: connect,
    async close() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}
