import { ChatMessageType } from '#shared/contracts/chat';
import { isSystemMessage } from './system-message';

const message = { author_id: 'u', type: ChatMessageType.Text, offer_note: false };

describe('isSystemMessage', () => {
  it('is a message without an author or of a non-text type', () => {
    expect(isSystemMessage(message)).toBe(false);
    expect(isSystemMessage({ ...message, author_id: null })).toBe(true);
    expect(isSystemMessage({ ...message, type: ChatMessageType.JobOfferApproved })).toBe(true);
  });

  it('is an offer note as marked when the marketplace posted it, whatever its text', () => {
    expect(isSystemMessage({ ...message, offer_note: true })).toBe(true);
    expect(isSystemMessage(message)).toBe(false);
  });
});
