// core -> a bound on password hashes at once in this process. Each scrypt hash holds 128 MiB and a core
// for a few hundred milliseconds, so sign-in attempts with ever new emails (each under its own limit)
// could otherwise hold every core and all the memory at once. A few run; a few more wait their turn,
// which is brief; beyond those a request is refused at once (`HashingBusy`) and told to try again.
export class HashingBusy extends Error {
  constructor() {
    super('too many password hashes at once');
    this.name = 'HashingBusy';
  }
}

/** At most `size` tasks at once, at most `waiting` more in line; the rest refused with `HashingBusy`. */
export class HashSlots {
  private running = 0;
  private readonly line: (() => void)[] = [];

  constructor(
    readonly size: number,
    readonly waiting: number,
  ) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running < this.size) this.running++;
    else if (this.line.length < this.waiting) await new Promise<void>((resolve) => this.line.push(resolve));
    else throw new HashingBusy();
    try {
      return await task();
    } finally {
      // The slot passes straight to the next in line, or is freed.
      const next = this.line.shift();
      if (next) next();
      else this.running--;
    }
  }
}
