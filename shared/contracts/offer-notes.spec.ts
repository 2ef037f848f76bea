import { ChatMessageType } from './chat';
import { isOfferNote, OFFER_NOTE_TEXTS, offerNoteOf, OfferStatus } from './offers';

describe('offer notes', () => {
  it('a revising update posts REVISED, the first one PROPOSAL; other moves their own note', () => {
    expect(offerNoteOf('update', OfferStatus.Proposal).text).toBe('JOB_OFFER.MESSAGE.REVISED');
    expect(offerNoteOf('update', OfferStatus.Initial).text).toBe('JOB_OFFER.MESSAGE.PROPOSAL');
    expect(offerNoteOf('final', OfferStatus.Proposal)).toEqual({ type: ChatMessageType.FinalJobOfferRequest, text: 'JOB_OFFER.MESSAGE.FINAL_OFFER' });
  });

  it('knows a stored message as a note by its type and one of the listed texts, never by the look of a key', () => {
    expect(OFFER_NOTE_TEXTS).toContain('JOB_OFFER.MESSAGE.REVISED');
    expect(isOfferNote({ type: ChatMessageType.Text, text: 'JOB_OFFER.MESSAGE.PAID' })).toBe(true);
    expect(isOfferNote({ type: ChatMessageType.JobOfferApproved, text: 'JOB_OFFER.MESSAGE.APPROVED' })).toBe(true);
    expect(isOfferNote({ type: ChatMessageType.Text, text: 'JOB_OFFER.MESSAGE.SOMETHING_NEW' })).toBe(false);
    expect(isOfferNote({ type: ChatMessageType.Text, text: 'hello' })).toBe(false);
    expect(isOfferNote({ type: ChatMessageType.Unknown, text: 'JOB_OFFER.MESSAGE.PAID' })).toBe(false);
  });
});
