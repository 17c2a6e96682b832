// `exchange-api-kit serve` processes sharing one PostgreSQL database: the first started holds the
// sandbox, every other is its replica. All are started with the same credentials and seed (a
// replica prints none, and one that takes the sandbox over must resume it with the same ones), so
// the clients made here work against any of them, and against a front over them all.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHmacSigner, DepositV1Client, depositV1SignatureScheme } from '../../../generated/deposit-v1/client.js';
import { ExchangeV3Client } from '../../../generated/exchange-v3/client.js';
import { binRunner, output, type Output } from '../../support/bin-process.js';

export const credentials = { token: 'replica_set_token_0123456789', siteKey: 'replica-set-site-key', siteSecret: 'replica-set-site-secret-0123456789', seed: 7 };

export interface ServeProcess {
  url: string;
  /** Whether it started as a replica (another process held the sandbox). */
  asReplica: boolean;
  child: ChildProcess;
  exit: Promise<unknown>;
  /** Resolves with the output up to the banner a replica prints once it took the sandbox over. */
  tookOver: Promise<Output>;
}

export interface ReplicaSet {
  /** Starts `serve` on the database (`port` 0: any free port); resolves once it listens, as holder or replica. */
  start(port?: number): Promise<ServeProcess>;
}

/** Processes started by a suite are killed after the test that started them. */
export function replicaSet(spec: string, flags: readonly string[] = []): ReplicaSet {
  const run = binRunner(mkdtempSync(join(tmpdir(), 'exchange-api-kit-replicas-')));
  const { token, siteKey, siteSecret, seed } = credentials;
  const fixed = ['--token', token, '--site-key', siteKey, '--site-secret', siteSecret, '--seed', String(seed)];
  return {
    async start(port = 0) {
      const child = run(['serve', '--port', String(port), '--log-level', 'silent', '--store', spec, ...fixed, ...flags]);
      const exit = new Promise((resolve) => child.once('exit', resolve));
      // The holder's banner ends with a curl line, a replica's with where its credentials are.
      const started = await output(child, /try: curl .*\n|as a replica[\s\S]*credentials\)\n/);
      const url = /listening on (http:\/\/\S+)/.exec(started.stdout)?.[1];
      if (url === undefined) throw new Error(`serve did not start: ${started.stdout}${started.stderr}`);
      return { url, asReplica: started.stdout.includes(`${url} as a replica`), child, exit, tookOver: output(child, /took the sandbox over[\s\S]*try: curl .*\n/) };
    },
  };
}

/** A v3 client with the set's fixed token, or with `token` (a key minted on the sandbox). */
export function v3Client(baseUrl: string, token = credentials.token): ExchangeV3Client {
  return new ExchangeV3Client({ baseUrl, token, retry: false });
}

export function v1Client(baseUrl: string): DepositV1Client {
  const signer = createHmacSigner(depositV1SignatureScheme, { key: credentials.siteKey, secret: credentials.siteSecret });
  return new DepositV1Client({ baseUrl, signer, retry: false });
}
