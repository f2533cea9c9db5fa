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

export interface DataDirLock {
  readonly dir: string;
  /** Gives the folder up; safe to call more than once. */
  release(): void;
}

export class DataDirInUseError extends Error {}

export function lockDataDir(dir: string): DataDirLock {
  fs.mkdirSync(dir, { recursive: true });
  const pidFile = path.join(dir, 'engine.pid');
  // No busy timeout: a held lock is an answer, not something to wait for.
  const db = new Database(path.join(dir, 'engine.lock'), { timeout: 0 });
  try {
    db.exec('BEGIN EXCLUSIVE');
  } catch (err) {
    db.close();
    if ((err as { code?: string }).code !== 'SQLITE_BUSY') throw err;
    const pid = readPid(pidFile);
    throw new DataDirInUseError(`the data folder ${dir} is in use by another engine${pid ? ` (pid ${pid})` : ''}; ` +
      'stop that engine first, or give this one its own ATELIER_DATA_DIR');
  }
  fs.writeFileSync(pidFile, `${process.pid}\n`);
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
