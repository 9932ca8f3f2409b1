// core -> what a host wires in for one environment: the ports (storage, clock, renderer, …) and the
// settings. Endpoints and workers take it, each naming the ports it calls (`Services<Pick<Ports, …>>`);
// each host (a Lambda function, the local stack) builds it with at least those.
import type { Ports } from './ports';
import type { Settings } from './settings';

export interface Services<P = Ports> {
  ports: P;
  settings: Settings;
}
