import { createGuardCache } from './guard-rules';

/** The app's one guard cache; the session clears it whenever the user changes ("guards reloaded"). */
export const guardCache = createGuardCache();
