import { trpc } from '../trpc';
import { useAccount } from './company';

/**
 * Whether the signed-in person is a global doctor (an approved doctor of the platform's pool, who
 * serves many companies without being their member). The route guard sends them home where a
 * blocked or removed attendant would go to /{emp}/block (spec 2, route guard).
 */
export function useIsGlobalDoctor(): boolean {
  const { status } = useAccount();
  const mine = trpc.telemedicine.mine.useQuery(undefined, { enabled: status === 'signedIn', staleTime: 60_000, retry: false });
  return mine.data?.globalDoctor ?? false;
}

export { globalDoctorTarget } from '../../shared/domain/telemedicine';
