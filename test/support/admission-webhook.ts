// An HTTPS admission webhook for tests: a certificate for 127.0.0.1 (and `sans`) from a fresh CA, every
// AdmissionReview request kept in `seen` with its path, and the response `respond` gives (or resolves to) for it.
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createCa, issueCertificate } from '../../pkg/pki/index.js';

export interface TestWebhook {
  /** https://127.0.0.1:PORT */
  base: string;
  /** The CA's certificate, base64, as webhook configurations take it. */
  caBundle: string;
  /** Each request's path and query string (the apiserver's `timeout=`), and the AdmissionReview's apiVersion. */
  seen: Array<{ path: string; query: string; request: any; apiVersion: string }>;
  close(): Promise<void>;
}

export async function startTestWebhook(respond: (path: string, request: any) => Record<string, unknown> | Promise<Record<string, unknown>>, sans: string[] = []): Promise<TestWebhook> {
  const ca = await createCa('webhook-ca', 1);
  const leaf = await issueCertificate(ca, { subject: { commonName: '127.0.0.1' }, usage: 'server', sans: ['127.0.0.1', ...sans], days: 1 });
  const seen: TestWebhook['seen'] = [];
  const server = createServer({ cert: leaf.certPem, key: leaf.keyPem }, (req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => { body += c.toString(); });
    req.on('end', () => {
      const review = JSON.parse(body);
      const [path = '', query = ''] = (req.url ?? '').split('?');
      seen.push({ path, query, request: review.request, apiVersion: review.apiVersion });
      void Promise.resolve(respond(path, review.request)).then((response) => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response }));
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    base: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    caBundle: Buffer.from(ca.cert.toString('pem')).toString('base64'),
    seen,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
