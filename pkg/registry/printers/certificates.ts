// Certificate signing requests: AGE SIGNERNAME REQUESTOR REQUESTEDDURATION CONDITION.
import type { KubeObject } from '../../../api/types.js';
import { age, humanDuration } from './duration.js';
import { ageColumn, column, nameColumn, type Printer } from './types.js';

/** "Denied", "Approved" or "Pending", then ",Failed" and ",Issued" as they apply. */
export function csrCondition(csr: KubeObject): string {
  const types = new Set((csr.status?.conditions ?? []).map((c: { type: string }) => c.type));
  let status = types.has('Denied') ? 'Denied' : types.has('Approved') ? 'Approved' : 'Pending';
  if (types.has('Failed')) status += ',Failed';
  if (csr.status?.certificate) status += ',Issued';
  return status;
}

export const certificateSigningRequestPrinter: Printer = {
  columns: [
    nameColumn,
    ageColumn,
    column('SignerName', 'The signer asked to sign the certificate.'),
    column('Requestor', 'The user who created the request.'),
    column('RequestedDuration', 'The validity the requestor asked for.'),
    column('Condition', 'Whether the request is approved, denied or pending, failed and issued.'),
  ],
  cells: (csr, now) => [
    csr.metadata?.name ?? '',
    age(csr, now),
    csr.spec?.signerName || '<none>',
    csr.spec?.username ?? '',
    typeof csr.spec?.expirationSeconds === 'number' ? humanDuration(csr.spec.expirationSeconds * 1000) : '<none>',
    csrCondition(csr),
  ],
};
