/**
 * One engine per data folder. Two engines on one folder would sweep and requeue each other's running
 * tasks and serve the same results, so an engine takes an exclusive lock on the folder before it reads
 * or writes anything in it, and a second one stops at once, having changed nothing.
 *
 * Node has no flock(), so the lock is an SQLite database, `engine.lock`, held in an open exclusive
 * transaction for the engine's life. SQLite locks it with a POSIX record lock (fcntl), which the kernel
 * drops when the process ends, however it ends: a crashed engine leaves no stale lock, and no pid has to
 * be trusted (pids get reused; in a container every engine is pid 1). SQLite also tracks its locks within
 * the process, so a second engine in the same process is refused as well. Nothing else may open the lock
 * file: closing any descriptor of a file drops the process's fcntl locks on it. `engine.pid` names the
 * holder, for the refusal's message only.
 */
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Everything the engine keeps (the key, inputs, results, the task database) is for its own user only:
 * folders 0700, files 0600, set explicitly rather than left to the umask, and put right on what an older
 * engine left behind.
 */
export const PRIVATE_DIR = 0o700;
export const PRIVATE_FILE = 0o600;

/** Makes the folder (and its parents) if needed and sets its mode. */
export function privateDir(dir: string) {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR });
  fs.chmodSync(dir, PRIVATE_DIR);
}

/**
 * Sets the mode of a file the engine keeps, if it is there. By path, never by opening it: closing a
 * descriptor of an SQLite file would drop the process's locks on it.
 */
export function privateFile(file: string) {
  try {
    fs.chmodSync(file, PRIVATE_FILE);
  } catch (err) {
    if ((err as { code?: string }).code !== 'ENOENT') throw err;
  }
}

/**
 * Creates an empty file with the private mode unless one is there. SQLite gives a database's -wal,
 * -shm and journal files the database file's own mode, so a database made this way keeps them private.
 */
export function createPrivateFile(file: string) {
  try {
    fs.closeSync(fs.openSync(file, 'wx', PRIVATE_FILE)); // 'wx': never opens a file someone may hold
  } catch (err) {
    if ((err as { code?: string }).code !== 'EEXIST') throw err;
  }
  privateFile(file);
}

export interface DataDirLock {
  readonly dir: string;
  /** Gives the folder up; safe to call more than once. */
  release(): void;
}

export class DataDirInUseError extends Error {}

export function lockDataDir(dir: string): DataDirLock {
  privateDir(dir);
  const pidFile = path.join(dir, 'engine.pid');
  const lockFile = path.join(dir, 'engine.lock');
  createPrivateFile(lockFile);
  // No busy timeout: a held lock is an answer, not something to wait for.
  const db = new Database(lockFile, { timeout: 0 });
  try {
    db.exec('BEGIN EXCLUSIVE');
  } catch (err) {
    db.close();
    if ((err as { code?: string }).code === 'SQLITE_NOTADB') {
      // Never removed here: an engine may hold it even so, and a new file would let a second one in.
      throw new Error(`${lockFile} is not an Atelier lock (something else wrote to it); if no engine runs on ${dir}, delete it`);
    }
    if ((err as { code?: string }).code !== 'SQLITE_BUSY') throw err;
    const pid = readPid(pidFile);
    throw new DataDirInUseError(`the data folder ${dir} is in use by another engine${pid ? ` (pid ${pid})` : ''}; ` +
      'stop that engine first, or give this one its own ATELIER_DATA_DIR');
  }
  fs.writeFileSync(pidFile, `${process.pid}\n`, { mode: PRIVATE_FILE });
  privateFile(pidFile); // one a dead engine left keeps its old mode through the write
  let held = true;
  return {
    dir,
    release() {
      if (!held) return;
      held = false;
      fs.rmSync(pidFile, { force: true });
      db.exec('ROLLBACK');
      db.close();
    },
  };
}

function readPid(file: string): number | undefined {
  try {
    const pid = Number(fs.readFileSync(file, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}
