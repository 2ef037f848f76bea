import { AdmissionPolicy, LoadReading, MAX_RETRY_AFTER_MS, retryAfterMs } from './send-admission.policy';

/** The admission decision on its signals alone: when it starts refusing, and the hysteresis that ends it. */
describe('AdmissionPolicy', () => {
  const limits: LoadReading = { fanoutLagMs: 250, insertWaitMs: 500, loopDelayMs: 0 };
  const reading = (r: Partial<LoadReading> = {}): LoadReading => ({ fanoutLagMs: 0, insertWaitMs: 0, loopDelayMs: 0, ...r });

  it('admits while every signal is at or under its limit, and refuses from the reading where one goes over, naming it', () => {
    const policy = new AdmissionPolicy(limits, 0.4);
    expect(policy.update(reading({ fanoutLagMs: 250, insertWaitMs: 500 }))).toBeNull();
    expect(policy.isRefusing).toBe(false);
    expect(policy.update(reading({ insertWaitMs: 501 }))).toEqual({ refusing: true, cause: 'insertWaitMs' });
    expect(policy.isRefusing).toBe(true);
  });

  it('keeps refusing until every signal is under the clear fraction of its limit, so it does not flap around the limit', () => {
    const policy = new AdmissionPolicy(limits, 0.4);
    policy.update(reading({ fanoutLagMs: 400 }));
    // Back under the limit but above 40 % of it (100 ms): still refusing.
    expect(policy.update(reading({ fanoutLagMs: 200 }))).toBeNull();
    expect(policy.update(reading({ fanoutLagMs: 100 }))).toBeNull();
    // The lag cleared but the insert queue still waits over 40 % of its limit (200 ms).
    expect(policy.update(reading({ fanoutLagMs: 10, insertWaitMs: 250 }))).toBeNull();
    expect(policy.isRefusing).toBe(true);
    expect(policy.update(reading({ fanoutLagMs: 99, insertWaitMs: 199 }))).toEqual({ refusing: false });
    expect(policy.isRefusing).toBe(false);
    // Admitting again: the same 200 ms that kept it refusing does not start a refusal.
    expect(policy.update(reading({ fanoutLagMs: 200 }))).toBeNull();
  });

  it('leaves out a signal whose limit is 0', () => {
    const policy = new AdmissionPolicy(limits, 0.4);
    expect(policy.update(reading({ loopDelayMs: 60_000 }))).toBeNull();
    policy.update(reading({ fanoutLagMs: 1000 }));
    expect(policy.update(reading({ loopDelayMs: 60_000 }))).toEqual({ refusing: false });
  });
});

describe('retryAfterMs', () => {
  it('asks for the base delay while refusals do not outnumber admissions, or too few were admitted to tell', () => {
    expect(retryAfterMs(1000, 0, 0)).toBe(1000);
    expect(retryAfterMs(1000, 0.5, 1)).toBe(1000);
    expect(retryAfterMs(1000, 0.01, 0)).toBe(1000);
  });

  it('stretches the delay by refusals per admission, up to its ceiling', () => {
    expect(retryAfterMs(1000, 4, 1)).toBe(4000);
    expect(retryAfterMs(1000, 2.5, 1)).toBe(2500);
    expect(retryAfterMs(1000, 100, 1)).toBe(MAX_RETRY_AFTER_MS);
  });
});
