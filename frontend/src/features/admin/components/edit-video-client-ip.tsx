import { useClientIp } from '../api/get-client-ip';

export const CLIENT_IP_LOADING = 'Fetching IP...';

/** The address the server sees for this admin (useful when checking rate limits or proxy trust). */
export function EditVideoClientIp() {
  const clientIp = useClientIp();
  const text = clientIp.isPending
    ? CLIENT_IP_LOADING
    : clientIp.isError
      ? 'Error fetching IP'
      : clientIp.data?.ip || 'Unknown IP';

  return (
    <p className="edit-video__ip">
      Your IP address: <span className="edit-video__ip-value">{text}</span>
    </p>
  );
}
