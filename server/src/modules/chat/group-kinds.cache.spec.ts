import { ChatGroupType } from '#shared/contracts/chat';
import { GroupKindsCache } from './group-kinds.cache';

describe('GroupKindsCache', () => {
  it('answers false only for groups known not to be offer chats, and forgets the oldest past its size', () => {
    const kinds = new GroupKindsCache(2);
    expect(kinds.mayBeOfferChat('G1')).toBe(true);
    kinds.remember('G1', ChatGroupType.User);
    kinds.remember('G2', ChatGroupType.JobOffer);
    expect(kinds.mayBeOfferChat('G1')).toBe(false);
    expect(kinds.mayBeOfferChat('G2')).toBe(true);
    kinds.remember('G3', ChatGroupType.Job);
    expect(kinds.mayBeOfferChat('G3')).toBe(false);
    expect(kinds.mayBeOfferChat('G1')).toBe(true);
  });
});
