import { createQueryClient } from '../lib/query-client.ts';

/** The console's one cache; sign-out clears it. */
export const queryClient = createQueryClient();
