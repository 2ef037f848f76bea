/** Shapes the server answers with (spec section 3 and the server foundation's DTOs). */
export interface Timezone {
  abbr: string;
  name: string;
  offset: number;
}

export interface User {
  code: string;
  name: string;
  surname: string;
  /** 1 personal, 2 company. */
  type: number;
  avatar: { code: string | null; url: string | null } | null;
  country: string | null;
  lang: string;
  timezone: Timezone | null;
  jobIds: string[];
  /** Minutes since the last activity. */
  away: number | null;
  role?: number;
  email?: string;
}

export interface LoginResponse {
  token: string;
  user: User;
  redirectUrl: string | null;
}

export interface UserStatus {
  userCode: string;
  online: boolean;
  lastActiveAt: string | null;
  away: number | null;
}

export interface Instance {
  code: string;
  name: string;
  /** Hex colour without '#'. */
  color: string;
  accent: string;
  logoUrl: string | null;
  customCss?: string;
}

export interface AppConfigFile {
  languages: { code: string; locale: string; suggestedCurrencies: string[] }[];
  currencies: { code: string; name: string; decimals: number }[];
  defaultCurrency: string;
}
