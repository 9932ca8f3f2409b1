// bench -> the part of autocannon's programmatic API the bench uses (the package ships no types).
declare module 'autocannon' {
  export interface Options {
    url: string;
    connections?: number;
    duration?: number;
    pipelining?: number;
    timeout?: number;
    method?: string;
    headers?: Record<string, string>;
  }

  /** An hdr-histogram summary: mean, spread and the usual percentiles. */
  export interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p90: number;
    p99: number;
  }

  export interface Result {
    requests: Histogram;
    latency: Histogram;
    throughput: Histogram;
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
    statusCodeStats: Record<string, { count: number }>;
  }

  /** Emitted once a second while it runs: the responses (`counter`) and bytes of that second. */
  export interface Tick {
    counter: number;
    bytes: number;
  }

  export interface Instance extends Promise<Result> {
    stop(): void;
    on(event: 'tick', listener: (tick: Tick) => void): this;
  }

  export default function autocannon(options: Options): Instance;
}
