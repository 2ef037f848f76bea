import { useParams } from 'react-router-dom';
import { NotFoundPage } from '@/features/placeholders/NotFoundPage';
import { NEW_OFFER_CODE } from '@/routes/paths';
import { NewOfferPage } from './NewOfferPage';
import { OfferViewPage } from './OfferViewPage';

/** /jobs/{jobId}/offers/{offerCode}: the make-an-offer page for the reserved code 'new', else the offer view. */
export function OfferPage() {
  const { jobId, offerCode } = useParams();
  if (!jobId || !offerCode) return <NotFoundPage />;
  if (offerCode === NEW_OFFER_CODE) return <NewOfferPage key={jobId} jobCode={jobId} />;
  return <OfferViewPage key={`${jobId}/${offerCode}`} jobCode={jobId} offerCode={offerCode} />;
}
