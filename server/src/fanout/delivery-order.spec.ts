import { compareStreamIds, DeliveryOrder } from './delivery-order';

/** DeliveryOrder's rules, with entries named by what they carry. */
describe('DeliveryOrder', () => {
  let delivered: string[][];
  let order: DeliveryOrder;
  const inbox = (...entries: [id: string, e: string][]) => order.received(entries.map(([id, e]) => ({ id, message: { e } })));

  beforeEach(() => {
    delivered = [];
    order = new DeliveryOrder((entries) => delivered.push(entries));
    order.resume();
  });

  it('compares stream ids as Redis orders them', () => {
    expect(compareStreamIds('1700000000000-0', '1700000000000-1')).toBeLessThan(0);
    expect(compareStreamIds('1700000000001-0', '1700000000000-9')).toBeGreaterThan(0);
    expect(compareStreamIds('999-10', '999-9')).toBeGreaterThan(0);
    expect(compareStreamIds('5-5', '5-5')).toBe(0);
    expect(compareStreamIds('0-0', '1-0')).toBeLessThan(0);
  });

  it('delivers an answer at once when the reader has the inbox up to its place, and an entry when no call is in flight', () => {
    inbox(['10-0', 'inbox 1']);
    const call = order.callSent();
    order.answered(call, { entry: 'own 1', after: '10-0' });
    inbox(['11-0', 'inbox 2']);
    expect(delivered).toEqual([['inbox 1'], ['own 1'], ['inbox 2']]);
  });

  it('holds an answer until the reader received the inbox entries written before its call ran', () => {
    const call = order.callSent();
    order.answered(call, { entry: 'own', after: '20-0' });
    expect(delivered).toEqual([]);
    inbox(['19-0', 'before 1'], ['20-0', 'before 2'], ['21-0', 'after']);
    expect(delivered).toEqual([['before 1', 'before 2', 'own', 'after']]);
  });

  it('holds an inbox entry while a call sent before it arrived is unanswered, then puts the answer in its place', () => {
    const first = order.callSent();
    const second = order.callSent();
    inbox(['30-0', 'from another node']);
    expect(delivered).toEqual([]);
    // The first call ran before the entry was written, the second after it.
    order.answered(first, { entry: 'own 1', after: '29-0' });
    expect(delivered).toEqual([['own 1']]);
    order.answered(second, { entry: 'own 2', after: '30-0' });
    expect(delivered).toEqual([['own 1'], ['from another node', 'own 2']]);
  });

  it('lets an entry go when the calls in flight before it fail or answer nothing for this node', () => {
    const failed = order.callSent();
    inbox(['40-0', 'entry']);
    const later = order.callSent();
    order.answered(failed, null);
    expect(delivered).toEqual([['entry']]);
    order.answered(later, { entry: 'own', after: '40-0' });
    expect(delivered).toEqual([['entry'], ['own']]);
  });

  it('on a restart delivers what waits in its order, then holds answers until the reader resumes on the new inbox', () => {
    const call = order.callSent();
    inbox(['50-0', 'old inbox']);
    order.answered(call, { entry: 'own before', after: '49-0' });
    const pending = order.callSent();
    order.answered(pending, { entry: 'own, ran on the old inbox', after: '60-0' });
    order.restart();
    expect(delivered.flat()).toEqual(['own before', 'old inbox', 'own, ran on the old inbox']);
    delivered = [];

    const next = order.callSent();
    order.answered(next, { entry: 'own after', after: '0-0' });
    expect(delivered).toEqual([]);
    order.resume();
    expect(delivered).toEqual([['own after']]);
  });
});
