// The SQLite engine's schema, as numbered migrations kept in the repository. `PRAGMA user_version`
// holds the number of the last one applied; a file whose number is higher was written by a newer
// kit and is refused. The `sandbox_meta` row `format` marks a file as a sandbox database, so a
// stranger's database is never written to.

export const sandboxFormat = 'exchange-api-kit-sandbox';

/** Migration n (1-based) is `migrations[n - 1]`; append only, never edit one that has shipped. */
export const migrations: readonly string[] = [
  `
  CREATE TABLE sandbox_meta (name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
  INSERT INTO sandbox_meta (name, value) VALUES ('format', '${sandboxFormat}');

  -- Small keyed records (a key's meter, a used nonce), changed atomically one at a time.
  CREATE TABLE cells (
    kind TEXT NOT NULL,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    expires_at INTEGER NOT NULL,
    PRIMARY KEY (kind, key)
  ) WITHOUT ROWID;
  CREATE INDEX cells_expiry ON cells (expires_at);

  -- Idempotency records: a reservation (status NULL) until its request finishes.
  CREATE TABLE idempotency (
    caller TEXT NOT NULL,
    key TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    reserved_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    status INTEGER,
    headers TEXT,
    body BLOB,
    PRIMARY KEY (caller, key)
  );
  CREATE INDEX idempotency_expiry ON idempotency (expires_at);
  CREATE INDEX idempotency_caller_expiry ON idempotency (caller, expires_at);
  -- Live records per caller, kept with every insert and delete, so the bound costs no count.
  CREATE TABLE idempotency_callers (caller TEXT PRIMARY KEY, records INTEGER NOT NULL) WITHOUT ROWID;
  CREATE TRIGGER idempotency_counted AFTER INSERT ON idempotency BEGIN
    INSERT INTO idempotency_callers (caller, records) VALUES (NEW.caller, 1)
      ON CONFLICT (caller) DO UPDATE SET records = records + 1;
  END;
  CREATE TRIGGER idempotency_uncounted AFTER DELETE ON idempotency BEGIN
    UPDATE idempotency_callers SET records = records - 1 WHERE caller = OLD.caller;
  END;
  `,
  `
  -- The webhook engine's records, each a JSON document beside the columns it is found by. The
  -- rowid keeps creation order ("oldest first"); queue_seq orders deliveries due at one instant.
  CREATE TABLE webhook_endpoints (rowid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, client_id TEXT NOT NULL, doc TEXT NOT NULL);
  CREATE INDEX webhook_endpoints_client ON webhook_endpoints (client_id, rowid);
  CREATE TABLE webhook_events (rowid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, client_id TEXT NOT NULL, doc TEXT NOT NULL);
  CREATE INDEX webhook_events_client ON webhook_events (client_id, rowid);
  CREATE TABLE webhook_deliveries (
    rowid INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    client_id TEXT NOT NULL,
    event_id TEXT NOT NULL,
    endpoint_id TEXT NOT NULL,
    next_attempt_at INTEGER,
    queue_seq INTEGER NOT NULL,
    doc TEXT NOT NULL
  );
  CREATE INDEX webhook_deliveries_client ON webhook_deliveries (client_id, rowid);
  CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_id, rowid);
  CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, rowid);
  CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at, queue_seq) WHERE next_attempt_at IS NOT NULL;
  `,
  `
  -- A claimed delivery is leased (real ms) to the process attempting it.
  ALTER TABLE webhook_deliveries ADD COLUMN lease_until INTEGER;
  `,
  `
  -- The journal of the domains' records (record-journal.ts): one row per record, its document
  -- as a snapshot holds it. An update keeps the row's rowid, so rows read back in creation order.
  CREATE TABLE journal_records (rowid INTEGER PRIMARY KEY, kind TEXT NOT NULL, id TEXT NOT NULL, doc TEXT NOT NULL, UNIQUE (kind, id));
  -- The parts of the document that are not lists of records (random streams, counters, settings).
  CREATE TABLE journal_headers (name TEXT PRIMARY KEY, doc TEXT NOT NULL) WITHOUT ROWID;
  `,
  `
  -- The v1 deposits stay in their journal rows and are read when asked for (sqlite-deposits.ts):
  -- indexed by the fields of their documents they are found and ordered by. A file written before
  -- builds them here, once.
  -- A partition's list, newest first (a site's history, a static address's payments).
  CREATE INDEX journal_deposits_site ON journal_records (json_extract(doc, '$.siteId'), json_extract(doc, '$.createdAtMs'), id) WHERE kind = 'deposit';
  CREATE INDEX journal_deposits_static ON journal_records (json_extract(doc, '$.staticAddressUuid'), json_extract(doc, '$.createdAtMs'), id) WHERE kind = 'deposit';
  -- A site's order id; a payment destination (the address, and the memo on memo networks).
  CREATE INDEX journal_deposits_order ON journal_records (json_extract(doc, '$.siteId'), json_extract(doc, '$.orderId')) WHERE kind = 'deposit';
  CREATE INDEX journal_deposits_destination ON journal_records (json_extract(doc, '$.address'), json_extract(doc, '$.memo')) WHERE kind = 'deposit';
  -- Expiry: the deposits of a status whose lifetime ends by an instant.
  CREATE INDEX journal_deposits_expiry ON journal_records (json_extract(doc, '$.status'), json_extract(doc, '$.expiresAtMs')) WHERE kind = 'deposit';
  -- The deposits a transaction was credited to (read at start), and a memo network's shared address.
  CREATE INDEX journal_deposits_credited ON journal_records (kind) WHERE kind = 'deposit' AND json_extract(doc, '$.transactionHashes') <> '[]';
  CREATE INDEX journal_deposits_memo ON journal_records (json_extract(doc, '$.asset')) WHERE kind = 'deposit' AND json_extract(doc, '$.memo') IS NOT NULL;
  `,
];

export const schemaVersion = migrations.length;
