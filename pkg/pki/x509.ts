// The one entry to @peculiar/x509: the metadata shim must load before it, and it signs with Node's WebCrypto.
import './reflect-metadata.js';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as Crypto);

export { x509 };
