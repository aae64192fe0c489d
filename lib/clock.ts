// Time as a dependency: code whose behaviour depends on "now" (billing periods, renewals, expiries)
// takes a Clock, so tests can move time instead of waiting for it.

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that only moves when told to (tests, replays). */
export class ManualClock implements Clock {
  private t: number;
  constructor(start: Date | number = Date.now()) {
    this.t = typeof start === 'number' ? start : start.getTime();
  }
  now(): Date {
    return new Date(this.t);
  }
  set(at: Date | number): void {
    this.t = typeof at === 'number' ? at : at.getTime();
  }
  advance(ms: number): Date {
    this.t += ms;
    return this.now();
  }
}
