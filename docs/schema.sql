-- paysplit's tables, for PostgreSQL 12 or newer (PGlite included): `import.meta.resolve('paysplit/schema.sql')`.
--
-- One table per kind of row an operation's `changes` lists (docs/http.md, "The store contract"),
-- plus the outbox and the bank transfers that matched no invoice. Each table keeps the row as
-- paysplit gave it, as JSON (`data`: written whole, read back by `worldOf`), and derives from it
-- the columns the database indexes and checks, so a store writes `data` and nothing else, and what
-- must hold across processes holds in the database: one row per key, unique create references,
-- at most one open invoice per KID, and a payment written only at the version it was read at
-- (`UPDATE … WHERE version = fromVersion`). Every statement is `IF NOT EXISTS`: apply the file at
-- each start, or copy it into your migrations. Nothing here depends on the service around it.

CREATE SCHEMA IF NOT EXISTS paysplit;

-- Payments (`changes.payments[].state`): the state paysplit returned, JSON with its
-- `schemaVersion`. `key` is the id lower-cased, as the world keys payments. A store writes a state
-- only where `version` is still the change's `fromVersion` (0: a new payment, an insert); a write
-- that finds another version lost a race and runs its request again on fresh rows.
CREATE TABLE IF NOT EXISTS paysplit.payments (
  data      json NOT NULL,
  key       text GENERATED ALWAYS AS (lower(data->>'paymentReferenceID')) STORED PRIMARY KEY,
  version   integer GENERATED ALWAYS AS ((data->>'version')::integer) STORED NOT NULL,
  reference text GENERATED ALWAYS AS (data->>'externalPaymentReferenceID') STORED NOT NULL UNIQUE,
  -- the KID of an invoice while it is open (Initiated), else NULL: one open invoice per KID;
  -- a settled invoice frees its KID
  open_kid  text GENERATED ALWAYS AS (
    CASE WHEN data->>'kind' = 'invoice' AND data->>'status' = 'Initiated' THEN data->>'kid' END
  ) STORED UNIQUE
);

-- Events (`changes.payments[].events[]`: `{ version, eventID, event }`): every event paysplit
-- applied, numbered; a payment's history, appended in the transaction that wrote its state.
CREATE TABLE IF NOT EXISTS paysplit.events (
  data    json NOT NULL,
  key     text GENERATED ALWAYS AS (lower(data->>'eventID')) STORED PRIMARY KEY,
  payment text GENERATED ALWAYS AS (lower(data->'event'->>'paymentReferenceID')) STORED NOT NULL REFERENCES paysplit.payments,
  version integer GENERATED ALWAYS AS ((data->>'version')::integer) STORED NOT NULL,
  UNIQUE (payment, version)
);

-- Customers (`changes.customers[]`: `{ customerExternalID, customer }`): the record every create
-- that named the customer left, merged. A store overwrites a row only when it read (and locked)
-- it; otherwise a row that exists already lost it a race.
CREATE TABLE IF NOT EXISTS paysplit.customers (
  data json NOT NULL,
  key  text GENERATED ALWAYS AS (data->>'customerExternalID') STORED PRIMARY KEY
);

-- Create references (`changes.references[]`: `{ externalPaymentReferenceID, paymentReferenceID,
-- request, kid? }`): the request that created a payment, so that the same request again answers
-- that payment and another one with its reference is refused. Written once, never changed.
CREATE TABLE IF NOT EXISTS paysplit.payment_references (
  data    json NOT NULL,
  key     text GENERATED ALWAYS AS (data->>'externalPaymentReferenceID') STORED PRIMARY KEY,
  payment text GENERATED ALWAYS AS (lower(data->>'paymentReferenceID')) STORED NOT NULL UNIQUE REFERENCES paysplit.payments
);

-- Idempotency keys (`changes.idempotencyKeys[]`: `{ scope?, key, at, request, response }`): the
-- answer kept for an Idempotency-Key, by scope (absent: the shared one) and key, written in the
-- transaction of the change it answered. Kept 24 hours from `at` (an ISO 8601 UTC text, which
-- sorts as time does): a store deletes older rows at its own pace. The key of the row: scope and
-- key apart (the header's key is printable ASCII, never a line feed).
CREATE TABLE IF NOT EXISTS paysplit.idempotency_keys (
  data json NOT NULL,
  key  text GENERATED ALWAYS AS (coalesce('+' || (data->>'scope'), '-') || E'\n' || (data->>'key')) STORED PRIMARY KEY,
  at   text GENERATED ALWAYS AS (data->>'at') STORED NOT NULL
);
CREATE INDEX IF NOT EXISTS idempotency_keys_at ON paysplit.idempotency_keys (at);

-- OCR giro transmissions applied (`changes.ocrTransmissions[]`: `{ dataSender,
-- transmissionNumber, at }`): a file is applied once; the same file again finds its row.
CREATE TABLE IF NOT EXISTS paysplit.ocr_transmissions (
  data json NOT NULL,
  key  text GENERATED ALWAYS AS ((data->>'dataSender') || E'\n' || (data->>'transmissionNumber')) STORED PRIMARY KEY
);

-- camt.054 notifications applied (`changes.camt054Messages[]`: `{ messageId, at }`): a
-- notification is applied once; the same one again finds its row. Kept 400 days from `at`
-- (`CAMT054_MEMORY_DAYS`; an ISO 8601 UTC text): a store deletes older rows at its own pace, and
-- until then paysplit reads one as forgotten, so a store replaces such a row when it loaded it.
CREATE TABLE IF NOT EXISTS paysplit.camt054_messages (
  data json NOT NULL,
  key  text GENERATED ALWAYS AS (data->>'messageId') STORED PRIMARY KEY,
  at   text GENERATED ALWAYS AS (data->>'at') STORED NOT NULL
);
CREATE INDEX IF NOT EXISTS camt054_messages_at ON paysplit.camt054_messages (at);

-- Transactions of camt.054 notifications applied (`changes.camt054Transactions[]`:
-- `{ transactionKey, bookingDate }`): one sent again in another notification finds its row (its
-- key: `camt054TransactionKey`, a JSON array of account, entry and transaction reference). Kept
-- 400 days from `bookingDate` (`YYYY-MM-DD`), deleted and replaced as the messages are.
CREATE TABLE IF NOT EXISTS paysplit.camt054_transactions (
  data         json NOT NULL,
  key          text GENERATED ALWAYS AS (data->>'transactionKey') STORED PRIMARY KEY,
  booking_date text GENERATED ALWAYS AS (data->>'bookingDate') STORED NOT NULL
);
CREATE INDEX IF NOT EXISTS camt054_transactions_booking_date ON paysplit.camt054_transactions (booking_date);

-- Money that came with a KID no open invoice holds (`UnmatchedTransfer`; an OCR report row
-- `unmatched`): parked for a person to match, in the transaction that found no invoice. Never lost.
CREATE TABLE IF NOT EXISTS paysplit.unmatched_transfers (
  seq         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  data        json NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now()
);

-- The outbox: one row per webhook delivery (`{ url, id, body }` as paysplit gave it: `id` the
-- eventID, `body` exactly the bytes to send), written in the transaction of the change. A relay
-- signs each row as stored (`webhookMessage`, then a Standard Webhooks signature) after the
-- commit. `payment` orders a payment's deliveries to one url; `next_attempt_at` is when the next
-- attempt is due (while one runs, the end of its lease); `done_at` is set when the row is
-- delivered or given up, `last_status` the receiver's last HTTP status (0: no answer).
CREATE TABLE IF NOT EXISTS paysplit.outbox (
  seq             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  url             text NOT NULL,
  id              text NOT NULL,
  body            text NOT NULL,
  payment         text GENERATED ALWAYS AS (lower(split_part(id, ':', 1))) STORED NOT NULL,
  attempts        integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  done_at         timestamptz,
  last_status     integer,
  UNIQUE (id, url)
);
CREATE INDEX IF NOT EXISTS outbox_due ON paysplit.outbox (next_attempt_at) WHERE done_at IS NULL;
CREATE INDEX IF NOT EXISTS outbox_queue ON paysplit.outbox (payment, url, seq) WHERE done_at IS NULL;

-- What an operation reads (docs/http.md, "The store contract"): the rows its keys name (what
-- `requestKeys`, `transferKeys`, `ocrKeys`, `camt054Keys` or `formKeys` returned, as JSON), with every payment its
-- customer and reference and with every reference its payment, as `worldOf` takes them. The rows a
-- transaction may overwrite (payments, customers, the idempotency key, the camt.054 rows, which an
-- expired one is) are locked until it ends.
CREATE OR REPLACE FUNCTION paysplit.load(keys json) RETURNS json LANGUAGE sql AS $$
  WITH p AS (
    SELECT key, data FROM paysplit.payments
     WHERE key IN (SELECT json_array_elements_text(keys->'paymentReferenceIDs'))
        OR reference IN (SELECT json_array_elements_text(keys->'externalPaymentReferenceIDs'))
        OR open_kid IN (SELECT json_array_elements_text(keys->'openInvoiceKids'))
     ORDER BY key FOR UPDATE
  )
  SELECT json_build_object(
    'payments', (SELECT coalesce(json_agg(data), '[]') FROM p),
    'customers', (SELECT coalesce(json_agg(data), '[]') FROM (
      SELECT data FROM paysplit.customers
       WHERE key IN (SELECT json_array_elements_text(keys->'customerExternalIDs') UNION SELECT data->>'customerExternalID' FROM p)
       ORDER BY key FOR UPDATE) c),
    'references', (SELECT coalesce(json_agg(data), '[]') FROM paysplit.payment_references
       WHERE key IN (SELECT json_array_elements_text(keys->'externalPaymentReferenceIDs') UNION SELECT data->>'externalPaymentReferenceID' FROM p)),
    'idempotencyKeys', (SELECT coalesce(json_agg(data), '[]') FROM (
      SELECT data FROM paysplit.idempotency_keys
       WHERE key = coalesce('+' || (keys->'idempotency'->>'scope'), '-') || E'\n' || (keys->'idempotency'->>'key')
       FOR UPDATE) i),
    'ocrTransmissions', (SELECT coalesce(json_agg(data), '[]') FROM paysplit.ocr_transmissions
       WHERE key IN (SELECT (t->>'dataSender') || E'\n' || (t->>'transmissionNumber') FROM json_array_elements(keys->'ocrTransmissions') t)),
    'camt054Messages', (SELECT coalesce(json_agg(data), '[]') FROM (
      SELECT data FROM paysplit.camt054_messages
       WHERE key IN (SELECT json_array_elements_text(keys->'camt054Messages'))
       ORDER BY key FOR UPDATE) m),
    'camt054Transactions', (SELECT coalesce(json_agg(data), '[]') FROM (
      SELECT data FROM paysplit.camt054_transactions
       WHERE key IN (SELECT json_array_elements_text(keys->'camt054Transactions'))
       ORDER BY key FOR UPDATE) t)
  )
$$;
