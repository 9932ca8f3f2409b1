// adapter -> the clock port: epoch microseconds from the high-resolution timer, never repeating or
// going backwards within a process (two records made in one microsecond still sort apart).
import type { Clock } from '../core/ports';

export const systemClock = (): Clock => {
  let last = 0;
  return {
    now: () => {
      const micros = Math.floor((performance.timeOrigin + performance.now()) * 1000);
      last = Math.max(micros, last + 1);
      return last;
    },
  };
};
