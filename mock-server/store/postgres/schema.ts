// The PostgreSQL engine's schema, as numbered migrations kept in the repository (the same tables
// as the SQLite engine's, in PostgreSQL's types). The `sandbox_meta` rows `format` and
// `schema_version` mark a database as a sandbox's and say which migrations it has; they are
// applied at start under an advisory lock, so replicas starting together migrate once.

export const sandboxFormat = 'exchange-api-kit-sandbox';

/** Migration n (1-based) is `migrations[n - 1]`; append only, never edit one that has shipped. */
export const migrations: readonly string[] = [
  `
  CREATE TABLE sandbox_meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
  INSERT INTO sandbox_meta (name, value) VALUES ('format', '${sandboxFormat}');

  CREATE TABLE cells (
    kind TEXT NOT NULL,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    expires_at BIGINT NOT NULL,
    PRIMARY KEY (kind, key)
  );
  CREATE INDEX cells_expiry ON cells (expires_at);

  CREATE TABLE idempotency (
    caller TEXT NOT NULL,
    key TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    reserved_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    status INTEGER,
    headers TEXT,
    body BYTEA,
    PRIMARY KEY (caller, key)
  );
  CREATE INDEX idempotency_expiry ON idempotency (expires_at);
  CREATE INDEX idempotency_caller_expiry ON idempotency (caller, expires_at);
  -- Live records per caller; its row is also the lock that orders one caller's reservations.
  CREATE TABLE idempotency_callers (caller TEXT PRIMARY KEY, records INTEGER NOT NULL);
  CREATE FUNCTION idempotency_count() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_OP = 'INSERT' THEN
      INSERT INTO idempotency_callers (caller, records) VALUES (NEW.caller, 1)
        ON CONFLICT (caller) DO UPDATE SET records = idempotency_callers.records + 1;
    ELSE
      UPDATE idempotency_callers SET records = records - 1 WHERE caller = OLD.caller;
    END IF;
    RETURN NULL;
  END $$;
  CREATE TRIGGER idempotency_counted AFTER INSERT OR DELETE ON idempotency FOR EACH ROW EXECUTE FUNCTION idempotency_count();

  CREATE TABLE webhook_endpoints (seq BIGSERIAL PRIMARY KEY, id TEXT NOT NULL UNIQUE, client_id TEXT NOT NULL, doc TEXT NOT NULL);
  CREATE INDEX webhook_endpoints_client ON webhook_endpoints (client_id, seq);
  CREATE TABLE webhook_events (seq BIGSERIAL PRIMARY KEY, id TEXT NOT NULL UNIQUE, client_id TEXT NOT NULL, doc TEXT NOT NULL);
  CREATE INDEX webhook_events_client ON webhook_events (client_id, seq);
  CREATE SEQUENCE webhook_queue_seq;
  CREATE TABLE webhook_deliveries (
    seq BIGSERIAL PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    client_id TEXT NOT NULL,
    event_id TEXT NOT NULL,
    endpoint_id TEXT NOT NULL,
    next_attempt_at BIGINT,
    queue_seq BIGINT NOT NULL,
    doc TEXT NOT NULL
  );
  CREATE INDEX webhook_deliveries_client ON webhook_deliveries (client_id, seq);
  CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_id, seq);
  CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, seq);
  CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at, queue_seq) WHERE next_attempt_at IS NOT NULL;
  `,
  `
  -- A claimed delivery is leased (real ms) to the replica attempting it.
  ALTER TABLE webhook_deliveries ADD COLUMN lease_until BIGINT;
  `,
  `
  -- The journal of the domains' records (record-journal.ts): one row per record, its document as
  -- JSON text, seq its creation order (an update keeps it); the rest of the sandbox as named headers.
  CREATE TABLE journal_records (seq BIGSERIAL PRIMARY KEY, kind TEXT NOT NULL, id TEXT NOT NULL, doc TEXT NOT NULL, UNIQUE (kind, id));
  CREATE TABLE journal_headers (name TEXT PRIMARY KEY, doc TEXT NOT NULL);
  `,
  `
  -- The journal's holder (record-journal.ts, JournalHolding): one row. epoch counts the holds
  -- taken; a journal write checks it (FOR SHARE), so a process that lost its hold writes nothing
  -- once another took over. peer_url and secret: where replicas forward requests to the holder.
  CREATE TABLE sandbox_holder (one BOOLEAN PRIMARY KEY DEFAULT true CHECK (one), epoch BIGINT NOT NULL, peer_url TEXT, secret TEXT);
  INSERT INTO sandbox_holder (epoch) VALUES (0);
  `,
  `
  -- Where each replica listens (postgres-replica-listeners.ts): the holder never sends a webhook
  -- there. A row counts while the session that wrote it holds the advisory lock (class, id), so a
  -- replica that dies (kill -9 included) stops counting once PostgreSQL ends its session.
  CREATE TABLE replica_listeners (id SERIAL PRIMARY KEY, port INTEGER NOT NULL, addresses TEXT[] NOT NULL);
  `,
  `
  -- One journal write (postgres-journal.ts) as one statement, so one round trip: sent alone, the
  -- call is its own transaction. holder_epoch NULL: a store that holds nothing (no fence); a
  -- holder whose epoch another hold replaced gets SQLSTATE KJ001 and nothing is written. Each
  -- pair or group of arrays is one list of rows (kind, key or id, value, …), given in order.
  CREATE FUNCTION journal_write(
    holder_epoch BIGINT, whole BOOLEAN, cells_cleared BOOLEAN,
    gone_kinds TEXT[], gone_keys TEXT[],
    cell_kinds TEXT[], cell_keys TEXT[], cell_values TEXT[], cell_expiries BIGINT[],
    deleted_kinds TEXT[], deleted_ids TEXT[],
    upsert_kinds TEXT[], upsert_ids TEXT[], upsert_docs TEXT[],
    header_names TEXT[], header_docs TEXT[]
  ) RETURNS void LANGUAGE plpgsql AS $$
  BEGIN
    IF holder_epoch IS NOT NULL THEN
      PERFORM 1 FROM sandbox_holder WHERE epoch = holder_epoch FOR SHARE;
      IF NOT FOUND THEN RAISE EXCEPTION 'the sandbox is held by another process' USING ERRCODE = 'KJ001'; END IF;
    END IF;
    IF whole THEN TRUNCATE journal_records, journal_headers; END IF;
    IF cells_cleared THEN DELETE FROM cells; END IF;
    DELETE FROM cells WHERE (kind, key) IN (SELECT * FROM unnest(gone_kinds, gone_keys));
    INSERT INTO cells (kind, key, value, expires_at) SELECT * FROM unnest(cell_kinds, cell_keys, cell_values, cell_expiries)
      ON CONFLICT (kind, key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at;
    DELETE FROM journal_records WHERE (kind, id) IN (SELECT * FROM unnest(deleted_kinds, deleted_ids));
    -- In the order given (a new row's seq is its creation order); a changed row keeps its seq.
    INSERT INTO journal_records (kind, id, doc)
      SELECT kind, id, doc FROM unnest(upsert_kinds, upsert_ids, upsert_docs) WITH ORDINALITY AS given (kind, id, doc, n) ORDER BY n
      ON CONFLICT (kind, id) DO UPDATE SET doc = excluded.doc;
    INSERT INTO journal_headers (name, doc) SELECT * FROM unnest(header_names, header_docs)
      ON CONFLICT (name) DO UPDATE SET doc = excluded.doc;
  END $$;
  `,
];

export const schemaVersion = migrations.length;
