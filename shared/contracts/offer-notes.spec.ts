import { ChatMessageType } from './chat';
import { offerNoteOf, OfferStatus } from './offers';

describe('offer notes', () => {
  it('a revising update posts REVISED, the first one PROPOSAL; other moves their own note', () => {
    expect(offerNoteOf('update', OfferStatus.Proposal).text).toBe('JOB_OFFER.MESSAGE.REVISED');
    expect(offerNoteOf('update', OfferStatus.Initial).text).toBe('JOB_OFFER.MESSAGE.PROPOSAL');
    expect(offerNoteOf('final', OfferStatus.Proposal)).toEqual({ type: ChatMessageType.FinalJobOfferRequest, text: 'JOB_OFFER.MESSAGE.FINAL_OFFER' });
  });
});
