import type { AppConfig } from '#shared/config/config.schema';
import { JobName } from '#shared/contracts/queues';
import { ChatMessagePushDecider } from './chat-message-push.decider';
import { BeforeSend } from './notification-queries';

/*
 * The decider's rules that take no I/O. The others are specced where they are pure: which messages are never
 * pushed (system-message.spec), what a push says and in which language (push-content.spec), a user's switches
 * and quiet hours (notification-settings.spec). Who is skipped per recipient (read, blocked, muted, superseded)
 * is answered by NotificationQueries' SQL and combined in decide(), with presence in PushAudience: those run in
 * the e2e specs (push-delivery, notification-settings, security-chat).
 */

const PUSH_DELAY_MS = 10_000;
const NOW = Date.parse('2026-03-02T10:00:00.000Z');

// delayMs and skipAtSend read the configuration only: the collaborators for the queries are not reached.
const decider = new ChatMessagePushDecider({ PUSH_DELAY_MS } as AppConfig, null as never, null as never, null as never);
const committedAgo = (ms: number) => ({ id: '1', topic: 'chat.message', payload: {}, created_at: new Date(NOW - ms), traceparent: null });

describe('ChatMessagePushDecider', () => {
  beforeEach(() => jest.useFakeTimers({ now: NOW }));
  afterEach(() => jest.useRealTimers());

  it('owns the notify-message job', () => {
    expect(decider.job).toBe(JobName.NotifyMessage);
  });

  it('waits PUSH_DELAY_MS from the commit, not from the relay, so a late relay does not wait twice', () => {
    expect(decider.delayMs(committedAgo(0))).toBe(PUSH_DELAY_MS);
    expect(decider.delayMs(committedAgo(3_000))).toBe(PUSH_DELAY_MS - 3_000);
    expect(decider.delayMs(committedAgo(PUSH_DELAY_MS))).toBe(0);
    // Relayed after the delay had passed: at once, never a negative delay.
    expect(decider.delayMs(committedAgo(60_000))).toBe(0);
  });

  it('sends a push only while the message is still there and unread by its recipient', () => {
    const states: BeforeSend['message_state'][] = ['unread', 'read', 'deleted', 'left-group'];
    expect(states.map((state) => [state, decider.skipAtSend(state)])).toEqual([
      ['unread', null],
      ['read', 'read'],
      ['deleted', 'deleted'],
      ['left-group', 'left-group'],
    ]);
  });
});
