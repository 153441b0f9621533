import { linkSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The file in an embedded database's folder naming the process that has it open. */
export const LOCK_FILE = 'helpdesk.pid';

/** Another live process has the embedded database's folder open. */
export class DataDirInUseError extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super(`The embedded database in ${dir} is open in another process (pid ${pid})`);
    this.name = 'DataDirInUseError';
  }
}

/** Whether a process with this pid is running. */
export const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists, it is only not ours to signal.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

const holderOf = (file: string): number | undefined => {
  try {
    const pid = Number(readFileSync(file, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
};

/**
 * Takes an embedded database's folder for this process, or throws DataDirInUseError. PGlite has no
 * lock of its own: a second process opening the same folder (a second `npm start` on one DATA_DIR)
 * served requests from the same files, and two writers there corrupt them. The lock is a file naming
 * this process, made by an atomic link so two starts cannot both make it; one left by a process that
 * is gone (killed, crashed) is taken over. Returns the release, which removes the file if still ours.
 */
export function lockDataDir(dir: string): () => void {
  const file = path.join(dir, LOCK_FILE);
  const mine = path.join(dir, `${LOCK_FILE}.${process.pid}`);
  writeFileSync(mine, `${process.pid}\n`);
  try {
    for (;;) {
      try {
        linkSync(mine, file);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const holder = holderOf(file);
      // Our own pid is a previous run of this process id (a container's pid 1 after a restart).
      if (holder !== undefined && holder !== process.pid && alive(holder)) throw new DataDirInUseError(dir, holder);
      // Moved aside, not deleted: of two starts finding the same stale file, one moves it and both
      // then race for the link, which one wins.
      const stale = path.join(dir, `${LOCK_FILE}.stale.${process.pid}`);
      try {
        renameSync(file, stale);
        rmSync(stale, { force: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
  } finally {
    rmSync(mine, { force: true });
  }
  return () => {
    if (holderOf(file) === process.pid) unlinkSync(file);
  };
}
