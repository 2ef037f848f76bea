import { encodePushContent, MAX_PUSH_PLAINTEXT, messagePush, offerPush, pushLang, pushTopic } from './push-content';

describe('push content', () => {
  const base = { title: 'T', body: '', url: '/messages/abc', tag: 'abc' };

  it('leaves a small payload as it is', () => {
    expect(JSON.parse(encodePushContent({ ...base, body: 'hi' }))).toEqual({ ...base, body: 'hi' });
  });

  it('trims the body on a code-point boundary to fit 3,993 bytes, with an ellipsis', () => {
    for (const unit of ['a', 'ż', '😀', '"']) {
      const json = encodePushContent({ ...base, body: unit.repeat(5000) });
      const bytes = Buffer.byteLength(json);
      expect(bytes).toBeLessThanOrEqual(MAX_PUSH_PLAINTEXT);
      expect(bytes).toBeGreaterThan(MAX_PUSH_PLAINTEXT - 12);
      const body = (JSON.parse(json) as { body: string }).body;
      expect(body.endsWith('…')).toBe(true);
      expect(Array.from(body.slice(0, -1)).every((c) => c === unit)).toBe(true);
    }
  });

  it('trims the title too when the body alone cannot make it fit', () => {
    const json = encodePushContent({ ...base, title: 'x'.repeat(5000), body: 'y'.repeat(5000) });
    expect(Buffer.byteLength(json)).toBeLessThanOrEqual(MAX_PUSH_PLAINTEXT);
    expect(JSON.parse(json)).toMatchObject({ body: '', url: '/messages/abc' });
  });

  it('uses a code as Topic when it is 1-32 base64url characters, else a 32-character hash', () => {
    expect(pushTopic('AbC_-123xyz')).toBe('AbC_-123xyz');
    const hashed = pushTopic('a code with spaces and more than thirty-two characters');
    expect(hashed).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(pushTopic('a code with spaces and more than thirty-two characters')).toBe(hashed);
    expect(pushTopic('x'.repeat(33))).toHaveLength(32);
  });

  it('speaks Polish to pol users and English to everyone else', () => {
    expect(pushLang('pol')).toBe('pol');
    expect(pushLang('eng')).toBe('eng');
    expect(pushLang('ger')).toBe('eng');
    expect(pushLang(null)).toBe('eng');
    const input = { groupCode: 'g1234', groupName: 'Team', participantCount: 3, senderName: 'Ann', messageType: 1, text: '', hasFiles: true };
    expect(messagePush({ ...input, lang: 'pol' })).toEqual({ title: 'Ann w Team', body: 'Wysłano załącznik', url: '/messages/g1234', tag: 'g1234' });
    expect(messagePush({ ...input, lang: 'eng', participantCount: 2, text: ' line\n\nbreaks ' })).toMatchObject({ title: 'Ann', body: 'line breaks' });
    expect(offerPush({ lang: 'eng', kind: 'offer-status', offerCode: 'o1', jobCode: 'j1', status: 100 })).toEqual({
      title: 'Offer updated',
      body: 'Offer o1 is now: Agreed',
      url: '/jobs/j1/offers/o1',
      tag: 'o1',
    });
  });

  it("asks the provider to confirm a declared payment: the customer's word is not a received payment", () => {
    const declared = { kind: 'payment-declared' as const, offerCode: 'o1', jobCode: 'j1', status: 180 };
    expect(offerPush({ ...declared, lang: 'eng' })).toEqual({
      title: 'The customer says they paid',
      body: 'Confirm the payment for offer o1 once it has arrived',
      url: '/jobs/j1/offers/o1',
      tag: 'o1',
    });
    expect(offerPush({ ...declared, lang: 'pol' }).title).toBe('Klient twierdzi, że zapłacił');
    expect(offerPush({ ...declared, kind: 'offer-status', lang: 'eng' }).body).toBe('Offer o1 is now: The customer says they paid');
  });
});
