/** Claims of the access token, named as the architecture fixes them. */
export interface AccessTokenClaims {
  /** user code */
  unique_name: string;
  /** login (e-mail) */
  nameid: string;
  role: number;
  nbf: number;
  exp: number;
  iat: number;
}

/** What a guarded request knows about its caller. */
export interface AuthUser {
  id: string;
  code: string;
  email: string;
  role: number;
  instanceId: string;
}
