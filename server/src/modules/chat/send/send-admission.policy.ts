/** What this node measures of its own load, each in ms (see NodeLoadSignals). */
export interface LoadReading {
  /** age of the fan-out stream entries its reader delivered lately: how late deliveries are */
  fanoutLagMs: number;
  /** how long the oldest send waiting for the insert statement has waited */
  insertWaitMs: number;
  /** the event loop's worst delay lately */
  loopDelayMs: number;
}

export type LoadSignal = keyof LoadReading;

/** Per signal, the reading above which sends are refused; 0 leaves that signal out. */
export type LoadLimits = LoadReading;

export interface AdmissionChange {
  refusing: boolean;
  /** the signal that crossed its limit (when refusing starts) */
  cause?: LoadSignal;
}

/**
 * The decision alone, with hysteresis so it does not flap: sends are refused from the reading where any signal
 * is above its limit, and admitted again only once every signal is below `clearFraction` of its limit.
 */
export class AdmissionPolicy {
  private refusing = false;

  constructor(
    private readonly limits: LoadLimits,
    private readonly clearFraction: number,
  ) {}

  get isRefusing(): boolean {
    return this.refusing;
  }

  /** Takes a reading; answers the change it made, or null when the decision stays. */
  update(reading: LoadReading): AdmissionChange | null {
    const signals = Object.keys(this.limits) as LoadSignal[];
    if (!this.refusing) {
      const cause = signals.find((s) => this.limits[s] > 0 && reading[s] > this.limits[s]);
      if (!cause) return null;
      this.refusing = true;
      return { refusing: true, cause };
    }
    if (signals.some((s) => this.limits[s] > 0 && reading[s] >= this.limits[s] * this.clearFraction)) return null;
    this.refusing = false;
    return { refusing: false };
  }
}

/** The longest wait a refusal asks for (the client's own back-off may wait longer). */
export const MAX_RETRY_AFTER_MS = 10_000;
/** Below this admitted rate (per ms) the ratio is not trusted: a node that admitted little lately is not a measure. */
const MIN_ADMITTED_PER_MS = 0.05;

/**
 * What a refusal asks the client to wait: the configured delay, stretched by how many senders are turned away per
 * one let in. A refused sender waits for its turn behind the others, so when refusals outnumber admissions ten to
 * one, coming back after the base delay only adds a refusal the node must answer with the CPU its deliveries need.
 * Rounded to 100 ms so the prebuilt refusal changes rarely.
 */
export function retryAfterMs(baseMs: number, refusedPerMs: number, admittedPerMs: number): number {
  const stretch = Math.max(1, refusedPerMs / Math.max(admittedPerMs, MIN_ADMITTED_PER_MS));
  return Math.min(MAX_RETRY_AFTER_MS, Math.max(baseMs, Math.round((baseMs * stretch) / 100) * 100));
}
