// The one entry to @peculiar/x509: it signs with Node's WebCrypto.
// @peculiar/x509 wires itself with tsyringe, which needs the Reflect metadata API first.
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as Crypto);

export { x509 };
