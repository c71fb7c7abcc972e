import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** A self-signed certificate for 127.0.0.1 (openssl, P-256, one day), written into `dir` as cert.pem and key.pem. */
export function selfSignedCert(dir: string): { key: Buffer; cert: Buffer; keyPath: string; certPath: string } {
  const keyPath = path.join(dir, 'key.pem');
  const certPath = path.join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      keyPath,
      '-out',
      certPath,
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  return { key: fs.readFileSync(keyPath), cert: fs.readFileSync(certPath), keyPath, certPath };
}
