import { useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { type JobOffer, offerApi } from '@/api/offer.api';
import { waitingFirst } from '@/features/offers/offer-lists';
import { countWaiting, waitsFor } from '@/features/offers/offer-actions';
import { offerStore } from '@/features/offers/offer.store';
import { useOfferChanges } from '@/features/offers/useLiveOffer';
import { preferencesStore } from '@/features/preferences/preferences.store';
import { type DashboardJob, dashboardApi } from './dashboard.api';

export interface DashboardData {
  /** My jobs still taking offers. */
  openJobs: DashboardJob[];
  moreJobs: boolean;
  /** Offers waiting for my move (payments due among them). */
  waiting: JobOffer[];
  /** My open offers waiting for the other side's move (mine loaded in this page of offers). */
  waitingOther: number;
  /** Offers waiting for my payment. */
  due: JobOffer[];
}

/** The dashboard's cards, loaded again after every offer:status push (unread counts come live from the chat store). */
export function useDashboard(me: string | null): { data: DashboardData | null; failed: boolean } {
  const { language } = useSnapshot(preferencesStore);
  const changes = useOfferChanges(useSnapshot(offerStore).pushes);
  const [state, setState] = useState<{ data: DashboardData | null; failed: boolean }>({ data: null, failed: false });
  useEffect(() => {
    if (!me) return;
    let live = true;
    Promise.all([dashboardApi.myJobs(language).catch(() => ({ jobs: [], hasMore: false })), offerApi.mine(language), offerApi.forPayment(language)])
      .then(([jobs, mine, due]) => {
        if (!live) return;
        const openJobs = jobs.jobs.filter((j) => j.acceptingOffers);
        setState({
          data: {
            openJobs,
            moreJobs: jobs.hasMore,
            waiting: waitingFirst(mine.offers, me).filter((o) => waitsFor(o, me)),
            waitingOther: countWaiting(mine.offers, me).forOther,
            due: due.offers,
          },
          failed: false,
        });
      })
      .catch(() => live && setState((s) => ({ ...s, failed: true })));
    return () => {
      live = false;
    };
  }, [language, changes, me]);
  return state;
}
