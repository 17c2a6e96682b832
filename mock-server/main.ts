// `npm start`: the mock server on one port, v3 under /api/v3, v1 under /v1/public and the
// sandbox control API under /__mock, with in-memory state. Prints the URL and ready-to-use
// credentials. Flags win over environment variables.
import { parseArgs } from 'node:util';
import { startMockServer } from './server.js';

const usage = `usage: npm start -- [options]
  --port <n>          port (env PORT; default 4010; 0 = any free port)
  --host <address>    address to listen on (env HOST; default 127.0.0.1; 0.0.0.0 in containers)
  --seed <n>          seed: same seed, same ids, tokens and data (env MOCK_SEED)
  --token <value>     fixed value of the default v3 token (env MOCK_TOKEN)
  --site-key <value>  fixed API key of the default v1 site (env MOCK_SITE_KEY)
  --site-secret <v>   fixed API secret of the default v1 site (env MOCK_SITE_SECRET)
  --admin-token <v>   require X-Mock-Admin-Token on the control API (env MOCK_ADMIN_TOKEN)
  --no-control        do not serve the sandbox control API under /__mock
  --webhooks-loopback-only  deliver webhooks only to loopback addresses (env MOCK_WEBHOOKS_LOOPBACK_ONLY=1)
  --webhook-retry-schedule <s,s,...>  seconds before each delivery attempt (env MOCK_WEBHOOK_RETRY_SCHEDULE;
                      default the contract's: 0,5,300,1800,7200,18000,36000,36000)
  --webhook-egress-ips <ip,ip,...>    what /v1/public/webhooks/egress-ips lists (env MOCK_WEBHOOK_EGRESS_IPS; default 127.0.0.1)
  --help              this text`;

function main(): Promise<void> | void {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      seed: { type: 'string' },
      token: { type: 'string' },
      'site-key': { type: 'string' },
      'site-secret': { type: 'string' },
      'admin-token': { type: 'string' },
      'no-control': { type: 'boolean', default: false },
      'webhooks-loopback-only': { type: 'boolean', default: false },
      'webhook-retry-schedule': { type: 'string' },
      'webhook-egress-ips': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(usage);
    return;
  }
  const env = process.env;
  const port = integer('--port / PORT', values.port ?? env.PORT ?? '4010', 0, 65535);
  const seedText = values.seed ?? env.MOCK_SEED;
  const seed = seedText === undefined ? undefined : integer('--seed / MOCK_SEED', seedText, 0, 2 ** 31 - 1);
  const token = values.token ?? env.MOCK_TOKEN;
  if (token !== undefined && !/^[A-Za-z0-9_\-.]{16,128}$/.test(token)) {
    fail('--token / MOCK_TOKEN must be 16 to 128 letters, digits, "_", "-" or "."');
  }
  return startMockServer({
    port,
    host: values.host ?? env.HOST ?? '127.0.0.1',
    ...(seed !== undefined ? { seed } : {}),
    ...(token !== undefined ? { token } : {}),
    ...optional('siteKey', values['site-key'] ?? env.MOCK_SITE_KEY),
    ...optional('siteSecret', values['site-secret'] ?? env.MOCK_SITE_SECRET),
    ...optional('adminToken', values['admin-token'] ?? env.MOCK_ADMIN_TOKEN),
    control: !values['no-control'],
    loopbackWebhooksOnly: values['webhooks-loopback-only'] || env.MOCK_WEBHOOKS_LOOPBACK_ONLY === '1',
    ...retrySchedule(values['webhook-retry-schedule'] ?? env.MOCK_WEBHOOK_RETRY_SCHEDULE),
    ...egressIps(values['webhook-egress-ips'] ?? env.MOCK_WEBHOOK_EGRESS_IPS),
  }).then((server) => {
    console.log(`exchange-api-kit mock server listening on ${server.url}
  v3 (exchange):    ${server.url}/api/v3        token: ${server.token}
  v1 (deposits):    ${server.url}/v1/public     site key: ${server.site.apiKey}  secret: ${server.site.apiSecret}
                                           webhook secret: ${server.site.webhookSecret}
  sandbox control:  ${values['no-control'] ? 'off' : `${server.url}/__mock`}
  seed: ${server.seed}

  try: curl -H "Authorization: Bearer ${server.token}" ${server.url}/api/v3/private/ping`);
    const stop = () => void server.close().then(() => process.exit(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

function integer(name: string, text: string, min: number, max: number): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max) fail(`${name} must be an integer from ${min} to ${max}, got "${text}"`);
  return value;
}

function retrySchedule(text: string | undefined): { webhookRetrySchedule?: number[] } {
  if (text === undefined) return {};
  const seconds = text.split(',').map((part) => integer('--webhook-retry-schedule / MOCK_WEBHOOK_RETRY_SCHEDULE', part.trim(), 0, 31_536_000));
  return { webhookRetrySchedule: seconds };
}

function egressIps(text: string | undefined): { webhookEgressIps?: string[] } {
  return text === undefined ? {} : { webhookEgressIps: text.split(',').map((ip) => ip.trim()) };
}

function optional<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, string>);
}

function fail(message: string): never {
  console.error(`mock server: ${message}\n\n${usage}`);
  process.exit(2);
}

try {
  await main();
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
