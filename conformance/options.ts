// What a run is told: where the server is, which credentials it may use, and how far it may go.

export interface ConformanceOptions {
  /** Scheme, host and port of the server, e.g. http://127.0.0.1:4010 (the families add /api/v3, /v1/public). */
  baseUrl: string;
  /** A v3 API key (Bearer token). With --sandbox and no token, one is minted. */
  token?: string | undefined;
  /** The v3 key's HMAC secret, for keys that must sign (hmac_required). */
  hmacSecret?: string | undefined;
  /** v1 site credentials. With --sandbox and none given, a site is created. */
  v1?: { key: string; secret: string } | undefined;
  /** Only operations with these contract tags (case-insensitive), and the flows over them. */
  only?: readonly string[] | undefined;
  /** Operations not to judge, with the reason shown in the report (e.g. not simulated by a stub). */
  skipOperations?: Readonly<Record<string, string>> | undefined;
  /** The target is our mock: the sandbox control API (/__mock) may be used. */
  sandbox?: boolean | undefined;
  /** The mock's admin token (X-Mock-Admin-Token), when it was started with one. */
  adminToken?: string | undefined;
  /** Sends requests that create or change data (flows, idempotency, webhooks). */
  allowWrites?: boolean | undefined;
  /**
   * Reports a check that could not run with what the server offers (no route takes the
   * requisites built from its rules, no list returned an id to read) as skipped; without it such
   * a check fails, so a run cannot pass while part of it never ran.
   */
  allowSkips?: boolean | undefined;
  /** Host the local webhook receiver listens on and the server is told to call (default 127.0.0.1). */
  receiverHost?: string | undefined;
  /** How long to wait for a webhook delivery (default 10 000 ms). */
  webhookTimeoutMs?: number | undefined;
}
