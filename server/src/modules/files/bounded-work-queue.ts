/**
 * Runs tasks in this process, at most `concurrency` at once, with at most `capacity` waiting or running; a task
 * offered when it is full, or under a key already held, is not taken (the caller decides what that means).
 * A task's failure is the task's own business: it is logged by whoever wrote it, never thrown here.
 */
export class BoundedWorkQueue {
  private readonly waiting: { key: string; run: () => Promise<void> }[] = [];
  private readonly keys = new Set<string>();
  private running = 0;
  private idle: (() => void)[] = [];

  constructor(
    private readonly concurrency: number,
    private readonly capacity: number,
  ) {}

  /** Tasks held (waiting or running). */
  get size(): number {
    return this.keys.size;
  }

  has(key: string): boolean {
    return this.keys.has(key);
  }

  /** Takes the task unless the queue is full or already holds `key`; answers whether it took it. */
  offer(key: string, run: () => Promise<void>): boolean {
    if (this.keys.has(key) || this.keys.size >= this.capacity) return false;
    this.keys.add(key);
    this.waiting.push({ key, run });
    this.next();
    return true;
  }

  /** Resolves once nothing is waiting or running. */
  drained(): Promise<void> {
    if (this.keys.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  private next(): void {
    while (this.running < this.concurrency && this.waiting.length > 0) {
      const task = this.waiting.shift()!;
      this.running++;
      void task
        .run()
        .catch(() => undefined)
        .finally(() => {
          this.running--;
          this.keys.delete(task.key);
          if (this.keys.size === 0) this.idle.splice(0).forEach((resolve) => resolve());
          this.next();
        });
    }
  }
}
