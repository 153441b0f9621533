import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataDirInUseError, LOCK_FILE, lockDataDir } from './dataDirLock.js';

/** A process id that was just in use and is now gone. */
const deadPid = () => spawnSync(process.execPath, ['-e', '0']).pid;

describe('lockDataDir: one process per embedded database folder', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'helpdesk-lock-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const lockFile = () => path.join(dir, LOCK_FILE);

  it('names this process in the folder until released, and leaves nothing behind', () => {
    const release = lockDataDir(dir);
    expect(readFileSync(lockFile(), 'utf8').trim()).toBe(String(process.pid));
    release();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuses a folder a live process holds, naming it, and leaves its lock alone', () => {
    // The test runner's parent is alive for as long as this test runs.
    writeFileSync(lockFile(), `${process.ppid}\n`);
    expect(() => lockDataDir(dir)).toThrow(DataDirInUseError);
    expect(() => lockDataDir(dir)).toThrow(`open in another process (pid ${process.ppid})`);
    expect(readFileSync(lockFile(), 'utf8').trim()).toBe(String(process.ppid));
    expect(readdirSync(dir)).toEqual([LOCK_FILE]);
  });

  it('takes over a lock left by a process that is gone (killed, crashed)', () => {
    writeFileSync(lockFile(), `${deadPid()}\n`);
    const release = lockDataDir(dir);
    expect(readFileSync(lockFile(), 'utf8').trim()).toBe(String(process.pid));
    release();
    expect(existsSync(lockFile())).toBe(false);
  });

  it('takes over a lock that names nothing readable', () => {
    writeFileSync(lockFile(), 'garbage');
    lockDataDir(dir)();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('does not remove a lock another process took after this one’s was taken over', () => {
    const release = lockDataDir(dir);
    writeFileSync(lockFile(), `${process.ppid}\n`);
    release();
    expect(readFileSync(lockFile(), 'utf8').trim()).toBe(String(process.ppid));
  });
});
