import { ChatGroupType, ChatMessageType } from '#shared/contracts/chat';
import { OFFER_NOTE_TEXTS } from '#shared/contracts/offers';
import { isSystemMessage } from './system-message';

const message = { author_id: 'u', type: ChatMessageType.Text, group_type: ChatGroupType.User, text: 'hello' };

describe('isSystemMessage', () => {
  it('is a message without an author or of a non-text type', () => {
    expect(isSystemMessage(message)).toBe(false);
    expect(isSystemMessage({ ...message, author_id: null })).toBe(true);
    expect(isSystemMessage({ ...message, type: ChatMessageType.JobOfferApproved })).toBe(true);
  });

  it("is an offer chat's note (one of the contract's note texts), and only there", () => {
    const note = OFFER_NOTE_TEXTS[0];
    expect(isSystemMessage({ ...message, group_type: ChatGroupType.JobOffer, text: note })).toBe(true);
    expect(isSystemMessage({ ...message, text: note })).toBe(false);
    // A text that merely looks like a key is somebody's message, not a note.
    expect(isSystemMessage({ ...message, group_type: ChatGroupType.JobOffer, text: 'JOB_OFFER.STATUS.MADE_UP' })).toBe(false);
  });
});
