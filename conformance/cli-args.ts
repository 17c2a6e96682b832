// The command line of `npm run conformance` (and `exchange-api-kit conformance`), parsed with
// node:util parseArgs into runner options and output files; a bad command line is a UsageError.
import { parseArgs } from 'node:util';
import type { ConformanceOptions } from './options.js';

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export interface CliRequest {
  options: ConformanceOptions;
  junitFile: string | undefined;
  jsonFile: string | undefined;
}

export const usage = `usage: npm run conformance -- --base-url URL [options]
   or: exchange-api-kit conformance --base-url URL [options]

Judges a server against the contracts (exchange v3 and deposit v1), operation by operation.

  --base-url URL          the server, e.g. http://127.0.0.1:4010 (required)
  --token T               a v3 API key (Bearer); private v3 operations are skipped without one
  --hmac-secret S         the key's HMAC secret, for keys that must sign requests
  --v1-key K              a v1 site's API key (with --v1-secret); v1 operations are skipped without
  --v1-secret S           the v1 site's API secret
  --only TAGS             only operations with these contract tags, comma separated (e.g. Webhooks,Deposits)
  --skip-operations IDS   operationIds not to judge, comma separated (reported as skipped)
  --sandbox               the target is the exchange-api-kit mock: use its control API (/__mock)
                          to mint keys and sites, force order events and put transactions on its chain
  --admin-token T         the mock's admin token (X-Mock-Admin-Token), if it was started with one
  --allow-writes          send requests that create or change data (flows, idempotency, webhooks);
                          without it the run is read-only
  --allow-skips           report a check that could not run with what the server offers (no route
                          accepts an order, no list returned an id to read) as skipped, not failed
  --receiver-host HOST    where the local webhook receiver listens and is reached (default 127.0.0.1)
  --junit FILE            also write the report as JUnit XML
  --json FILE             also write the report as JSON
  -h, --help              this text

Requests are signed with the server's time: the sandbox clock under --sandbox, else the Date
header of its answers.

Exit codes: 0 every check passed or was skipped, 1 at least one check failed (or could not run,
without --allow-skips) or a report could not be written after the run, 2 usage error (a --junit
or --json path that cannot be written among them, found before the run).
`;

/** What the contracts offer to name on the command line. */
export interface KnownNames {
  tags: readonly string[];
  operations: readonly string[];
}

export function parseCli(argv: readonly string[], known: KnownNames): CliRequest | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        'base-url': { type: 'string' },
        token: { type: 'string' },
        'hmac-secret': { type: 'string' },
        'v1-key': { type: 'string' },
        'v1-secret': { type: 'string' },
        only: { type: 'string' },
        'skip-operations': { type: 'string' },
        sandbox: { type: 'boolean' },
        'allow-writes': { type: 'boolean' },
        'allow-skips': { type: 'boolean' },
        'admin-token': { type: 'string' },
        'receiver-host': { type: 'string' },
        junit: { type: 'string' },
        json: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const values = parsed.values;
  if (values.help === true) return 'help';

  const baseUrl = values['base-url'];
  if (baseUrl === undefined) throw new UsageError('--base-url is required');
  if (!isHttpUrl(baseUrl)) throw new UsageError(`--base-url must be an http(s) URL, got ${JSON.stringify(baseUrl)}`);
  if ((values['v1-key'] === undefined) !== (values['v1-secret'] === undefined)) throw new UsageError('--v1-key and --v1-secret go together');
  if (values['hmac-secret'] !== undefined && values.token === undefined) throw new UsageError('--hmac-secret needs --token');
  if (values['admin-token'] !== undefined && values.sandbox !== true) throw new UsageError('--admin-token needs --sandbox');
  const only = list(values.only, '--only');
  const unknownTags = only?.filter((tag) => !known.tags.some((name) => name.toLowerCase() === tag.toLowerCase())) ?? [];
  if (unknownTags.length > 0) throw new UsageError(`--only: unknown tag(s) ${unknownTags.join(', ')}; known: ${known.tags.join(', ')}`);
  const skipped = list(values['skip-operations'], '--skip-operations');
  const unknownOperations = skipped?.filter((id) => !known.operations.includes(id)) ?? [];
  if (unknownOperations.length > 0) throw new UsageError(`--skip-operations: unknown operationId(s) ${unknownOperations.join(', ')}`);

  const options: ConformanceOptions = {
    baseUrl,
    ...(values.token !== undefined ? { token: values.token } : {}),
    ...(values['hmac-secret'] !== undefined ? { hmacSecret: values['hmac-secret'] } : {}),
    ...(values['v1-key'] !== undefined && values['v1-secret'] !== undefined ? { v1: { key: values['v1-key'], secret: values['v1-secret'] } } : {}),
    ...(only !== undefined ? { only } : {}),
    ...(skipped !== undefined ? { skipOperations: Object.fromEntries(skipped.map((id) => [id, 'skipped by --skip-operations'])) } : {}),
    sandbox: values.sandbox === true,
    ...(values['admin-token'] !== undefined ? { adminToken: values['admin-token'] } : {}),
    allowWrites: values['allow-writes'] === true,
    allowSkips: values['allow-skips'] === true,
    ...(values['receiver-host'] !== undefined ? { receiverHost: values['receiver-host'] } : {}),
  };
  return { options, junitFile: values.junit, jsonFile: values.json };
}

function list(value: string | undefined, flag: string): string[] | undefined {
  if (value === undefined) return undefined;
  const items = value.split(',').map((item) => item.trim()).filter((item) => item !== '');
  if (items.length === 0) throw new UsageError(`${flag} needs at least one value`);
  return items;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
