-- The reference service's tables (docs/service.md, "Tables").

-- One row per payment: the state paysplit made, as JSON (it carries its schemaVersion), and the
-- columns the database must index or keep unique across processes.
CREATE TABLE payments (
  payment_reference_id          uuid PRIMARY KEY,
  external_payment_reference_id text NOT NULL,
  customer_external_id          text NOT NULL,
  kind                          text NOT NULL CHECK (kind IN ('card', 'invoice')),
  status                        text NOT NULL,
  kid                           text,
  -- the number of events applied: the optimistic-concurrency check of every write
  version                       integer NOT NULL CHECK (version >= 1),
  state                         jsonb NOT NULL,
  -- the create request as decoded: an identical repeat returns this payment (docs/rules.md, idempotent create)
  request                       jsonb NOT NULL,
  created_at                    timestamptz NOT NULL DEFAULT now(),
  updated_at                    timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT payments_external_reference_unique UNIQUE (external_payment_reference_id),
  CONSTRAINT payments_invoice_kid CHECK ((kind = 'invoice') = (kid IS NOT NULL))
);

-- A KID names at most one open invoice; a settled invoice frees its KID.
CREATE UNIQUE INDEX payments_open_kid_unique ON payments (kid) WHERE status = 'Initiated' AND kid IS NOT NULL;
CREATE INDEX payments_customer ON payments (customer_external_id);

-- Every event paysplit decided, in order: the payment's history.
CREATE TABLE payment_events (
  payment_reference_id uuid NOT NULL REFERENCES payments,
  version              integer NOT NULL CHECK (version >= 1),
  type                 text NOT NULL,
  body                 jsonb NOT NULL,
  at                   timestamptz NOT NULL,
  PRIMARY KEY (payment_reference_id, version)
);

-- Customers as the create requests left them (given fields overwrite, absent ones stay).
CREATE TABLE customers (
  customer_external_id text PRIMARY KEY,
  record               jsonb NOT NULL,
  version              integer NOT NULL,
  updated_at           timestamptz NOT NULL DEFAULT now()
);

-- The transactional outbox: one row per (event, url), written in the transaction of the change.
CREATE TABLE outbox (
  id                   bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  payment_reference_id uuid NOT NULL,
  event_version        integer NOT NULL,
  webhook_id           text NOT NULL,
  url                  text NOT NULL,
  event_type           text NOT NULL,
  -- the payload's JSON text exactly as paysplit made it: every attempt sends the same bytes
  payload              text NOT NULL,
  status               text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'dead')),
  attempts             integer NOT NULL DEFAULT 0,
  -- when the next attempt is due; while an attempt runs, the end of its lease
  next_attempt_at      timestamptz NOT NULL DEFAULT now(),
  last_status          integer,
  last_error           text,
  created_at           timestamptz NOT NULL DEFAULT now(),
  finished_at          timestamptz,
  CONSTRAINT outbox_message_unique UNIQUE (webhook_id, url),
  FOREIGN KEY (payment_reference_id, event_version) REFERENCES payment_events
);
CREATE INDEX outbox_due ON outbox (next_attempt_at) WHERE status = 'pending';
CREATE INDEX outbox_queue ON outbox (payment_reference_id, url, id) WHERE status = 'pending';

-- Bank transfers whose KID names no open invoice: parked for manual matching, never lost.
CREATE TABLE unmatched_transfers (
  id          uuid PRIMARY KEY,
  kid         text NOT NULL,
  amount      bigint NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  request_id  text
);
