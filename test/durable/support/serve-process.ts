// `exchange-api-kit serve --store SPEC` as a child process (bin-process.ts), with v3 and v1
// clients on the credentials it prints, for the suites that kill it and start it again.
import type { ChildProcess } from 'node:child_process';
import { createHmacSigner, DepositV1Client, depositV1SignatureScheme } from '../../../generated/deposit-v1/client.js';
import { ExchangeV3Client } from '../../../generated/exchange-v3/client.js';
import { output } from '../../support/bin-process.js';

export interface Started {
  exit: Promise<unknown>;
  /** SIGKILL unless another signal is named. */
  kill(signal?: NodeJS.Signals): void;
  v3: ExchangeV3Client;
  v1: DepositV1Client;
  stdout: string;
  url: string;
}

/** A server started by `run` (binRunner's) on `spec`, once it prints how to reach it. */
export async function serve(run: (args: string[]) => ChildProcess, spec: string, ...flags: string[]): Promise<Started> {
  const child = run(['serve', '--port', '0', '--log-level', 'silent', '--store', spec, ...flags]);
  const exit = new Promise((resolve) => child.once('exit', resolve));
  const { stdout, stderr } = await output(child, /try: curl .*\n/);
  const url = /listening on (http:\/\/\S+)/.exec(stdout)?.[1];
  const token = /token: (\S+)/.exec(stdout)?.[1];
  const [, key, secret] = /site key: (\S+)\s+secret: (\S+)/.exec(stdout) ?? [];
  if (url === undefined || token === undefined || key === undefined || secret === undefined) throw new Error(`did not start: ${stdout}${stderr}`);
  const signer = createHmacSigner(depositV1SignatureScheme, { key, secret });
  return {
    exit,
    kill: (signal = 'SIGKILL') => child.kill(signal),
    v3: new ExchangeV3Client({ baseUrl: url, token, retry: false }),
    v1: new DepositV1Client({ baseUrl: url, signer, retry: false }),
    stdout,
    url,
  };
}
