import { userApi } from '@/api/user.api';

/** The people matching a query, for the user search dialog (POST /api/user/search, cached 10 s). */
export const searchPeople = (query: string) => userApi.search(query);
