import { useSnapshot } from 'valtio';
import { offerStore } from '@/features/offers/offer.store';
import { sessionStore } from '@/features/session/session.store';
import { TrackRecordLine } from './TrackRecordLine';

/** In an offer's chat: the other party's track record (for a moderator looking on, the provider's). */
export function OfferPartyRecord({ offerCode }: { offerCode: string }) {
  const me = useSnapshot(sessionStore).user?.code ?? null;
  const entry = useSnapshot(offerStore).byCode[offerCode];
  if (entry?.state !== 'loaded') return null;
  const { providerCode, customerCode } = entry.offer;
  return <TrackRecordLine userCode={me === providerCode ? customerCode : providerCode} size="xs" />;
}
