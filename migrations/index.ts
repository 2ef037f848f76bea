import { InitialSchema1763769600000 } from './1763769600000-InitialSchema';

/** Every migration, in order. Listed by class so the same list works compiled and under jest. */
export const migrations = [InitialSchema1763769600000];
