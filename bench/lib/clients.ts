/** Forked client processes of a benchmark (their sockets and requests cost them, not the server's process). */
import { fork, type ChildProcess } from 'node:child_process';

export class ClientProcesses<To, From> {
  private children: ChildProcess[] = [];
  private waiting = new Map<ChildProcess, (m: From) => void>();

  /**
   * `script` is forked `n` times under tsx. `failed` is the answer of a child that exits while one
   * is awaited; `aside` sees every message first and returns true for those that answer nothing.
   */
  constructor(script: string, n: number, failed: (code: number | null) => From, aside?: (m: From, from: number) => boolean) {
    for (let i = 0; i < n; i++) {
      const child = fork(script, [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
      child.on('message', (m: From) => {
        if (aside?.(m, i)) return;
        const w = this.waiting.get(child);
        this.waiting.delete(child);
        w?.(m);
      });
      child.on('exit', (code) => {
        const w = this.waiting.get(child);
        this.waiting.delete(child);
        if (w && code !== 0) w(failed(code));
      });
      this.children.push(child);
    }
  }

  get size() {
    return this.children.length;
  }

  /** Sends `m` to every child but the one numbered `except`. */
  others(except: number, m: To) {
    this.children.forEach((child, i) => i !== except && child.send(m as object));
  }

  /** Sends each child its message and waits for all answers. */
  async all<T extends From>(messages: To[] | ((i: number) => To)): Promise<T[]> {
    return Promise.all(
      this.children.map(
        (child, i) =>
          new Promise<T>((resolve) => {
            this.waiting.set(child, resolve as (m: From) => void);
            child.send((typeof messages === 'function' ? messages(i) : messages[i]!) as object);
          }),
      ),
    );
  }

  /** Sends each child `close` and waits for it to exit. */
  async close(close: To) {
    await Promise.all(
      this.children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.send(close as object);
          }),
      ),
    );
  }
}
