import { ChatGroupType, ChatMessageType } from '#shared/contracts/chat';
import { isSystemMessage } from './system-message';

const message = { author_id: 'u', type: ChatMessageType.Text, group_type: ChatGroupType.User, text: 'hello' };

describe('isSystemMessage', () => {
  it('is a message without an author or of a non-text type', () => {
    expect(isSystemMessage(message)).toBe(false);
    expect(isSystemMessage({ ...message, author_id: null })).toBe(true);
    expect(isSystemMessage({ ...message, type: ChatMessageType.JobOfferApproved })).toBe(true);
  });

  it("is an offer chat's note (a JOB_OFFER.* key), and only there", () => {
    expect(isSystemMessage({ ...message, group_type: ChatGroupType.JobOffer, text: 'JOB_OFFER.STATUS.AGREED' })).toBe(true);
    expect(isSystemMessage({ ...message, text: 'JOB_OFFER.STATUS.AGREED' })).toBe(false);
    expect(isSystemMessage({ ...message, group_type: ChatGroupType.JobOffer, text: 'JOB_OFFER. is it?' })).toBe(false);
  });
});
