/**
 * Pages drawn at once, and waiting their turn at most (docs/security.md › "Renders no one can force"). A render
 * is React's renderToString on this process's thread (17-35 ms of CPU for a listing or a watch page), around
 * the catalogue reads it makes to this same API; four at a time keep both cores busy, and a line of 16 is under
 * half a second of work. Past it a page is answered 503 with Retry-After and the bare shell (the browser draws
 * it), rather than queueing renders that would starve the API's reads and the media.
 */
export const RENDER_CONCURRENCY = 4;
export const RENDER_QUEUE_MAX = 16;
export const RENDER_RETRY_AFTER_SECONDS = 2;

/**
 * Search pages drawn on the server that were not kept already: their words are anyone's to make up, so each new
 * one would be a render. They share this budget (a token bucket per process): 20 at once, 5 a second after that.
 * Past it a search page is the shell, drawn by the browser (search pages are `noindex`: crawlers lose nothing).
 */
export const SEARCH_RENDER_BURST = 20;
export const SEARCH_RENDERS_PER_SECOND = 5;

/** The render pool is full: the page is answered 503 with the shell. */
export class RendersBusy extends Error {}

/**
 * A bounded line of renders. (Not p-limit, which the password hashes use: it counts a call as waiting until a
 * microtask later, so a burst arriving in one tick would be refused while slots were free.)
 */
export class RenderPool {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly concurrency = RENDER_CONCURRENCY,
    private readonly queueMax = RENDER_QUEUE_MAX,
  ) {}

  /** Runs `render` in turn, or throws RendersBusy at once when the line is full. */
  async run<T>(render: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) {
      if (this.waiting.length >= this.queueMax) throw new RendersBusy();
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else this.running++;
    try {
      return await render();
    } finally {
      // The slot passes to the next in line, or is freed.
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }

  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }
}

/** A token bucket: `take()` spends one token when there is one. */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly burst = SEARCH_RENDER_BURST,
    private readonly perSecond = SEARCH_RENDERS_PER_SECOND,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.tokens = burst;
    this.last = now();
  }

  take(): boolean {
    const now = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.perSecond);
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
