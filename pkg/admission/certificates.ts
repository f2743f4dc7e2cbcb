// The certificates admission plugins (upstream plugin/pkg/admission/certificates): approving a request needs
// `approve` on its signer (signers/<signerName> or signers/<domain>/*), issuing a certificate through /status needs
// `sign`, and nobody gets a kubernetes.io/kube-apiserver-client certificate in the system:masters group.
import type { KubeObject } from '../../api/types.js';
import type { AdmissionDeps } from './deps.js';
import { admissionForbidden, isResource } from './errors.js';
import type { AdmissionAttributes, ValidatingPlugin } from './interface.js';

const GROUP = 'certificates.k8s.io';
const CLIENT_SIGNER = 'kubernetes.io/kube-apiserver-client';

/** Whether the user may `verb` the signer, by its name or its domain wildcard (upstream IsAuthorizedForSignerName). */
async function mayUseSigner(deps: Pick<AdmissionDeps, 'authorize'>, a: AdmissionAttributes, verb: string, signerName: string): Promise<boolean> {
  if (!a.user || !deps.authorize) return false;
  const check = (name: string): Promise<boolean> => deps.authorize!({ user: a.user!, verb, apiGroup: GROUP, resource: 'signers', namespace: '', name });
  if (await check(signerName)) return true;
  const slash = signerName.indexOf('/');
  return slash > 0 && check(`${signerName.slice(0, slash)}/*`);
}

const signerOf = (csr: KubeObject | undefined): string => String(csr?.spec?.signerName ?? '');

export class CertificateApproval implements ValidatingPlugin {
  readonly name = 'CertificateApproval';
  constructor(private readonly deps: Pick<AdmissionDeps, 'authorize'>) {}

  validate(a: AdmissionAttributes): Promise<void> | void {
    if (a.operation !== 'UPDATE' || a.subresource !== 'approval' || !isResource(a, GROUP, 'certificatesigningrequests')) return;
    return this.check(a);
  }

  private async check(a: AdmissionAttributes): Promise<void> {
    const signer = signerOf(a.oldObject ?? a.object);
    if (!(await mayUseSigner(this.deps, a, 'approve', signer))) throw admissionForbidden(a, `user not permitted to approve requests with signerName ${JSON.stringify(signer)}`);
  }
}

export class CertificateSigning implements ValidatingPlugin {
  readonly name = 'CertificateSigning';
  constructor(private readonly deps: Pick<AdmissionDeps, 'authorize'>) {}

  validate(a: AdmissionAttributes): Promise<void> | void {
    if (a.operation !== 'UPDATE' || a.subresource !== 'status' || !isResource(a, GROUP, 'certificatesigningrequests')) return;
    if ((a.object?.status?.certificate ?? '') === (a.oldObject?.status?.certificate ?? '')) return;
    return this.check(a);
  }

  private async check(a: AdmissionAttributes): Promise<void> {
    const signer = signerOf(a.oldObject ?? a.object);
    if (!(await mayUseSigner(this.deps, a, 'sign', signer))) throw admissionForbidden(a, `user not permitted to sign requests with signerName ${JSON.stringify(signer)}`);
  }
}

export class CertificateSubjectRestriction implements ValidatingPlugin {
  readonly name = 'CertificateSubjectRestriction';

  validate(a: AdmissionAttributes): Promise<void> | void {
    if (a.operation !== 'CREATE' || a.subresource || !isResource(a, GROUP, 'certificatesigningrequests')) return;
    if (signerOf(a.object) !== CLIENT_SIGNER) return;
    return this.check(a);
  }

  private async check(a: AdmissionAttributes): Promise<void> {
    const { x509 } = await import('../pki/x509.js');
    let organizations: string[];
    try {
      const pem = Buffer.from(String(a.object?.spec?.request ?? ''), 'base64').toString('latin1');
      organizations = new x509.Pkcs10CertificateRequest(pem).subjectName.getField('O');
    } catch {
      return; // validation refuses a request that does not parse
    }
    if (organizations.includes('system:masters')) throw admissionForbidden(a, `use of ${CLIENT_SIGNER} signer with system:masters group is not allowed`);
  }
}
