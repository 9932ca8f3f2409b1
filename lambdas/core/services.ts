// core -> what a host wires in for one environment: the ports (storage, clock, renderer, …) and the
// settings. Endpoints and workers take it; each host (a Lambda function, the local stack) builds it.
import type { Ports } from './ports';
import type { Settings } from './settings';

export interface Services {
  ports: Ports;
  settings: Settings;
}
