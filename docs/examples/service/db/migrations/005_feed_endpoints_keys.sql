-- The event feed and replay (docs/service.md, "The event feed"), disabled webhook urls
-- ("The outbox"), and the row lock of a key in flight ("Safe retries").

-- The transaction that wrote each outbox row. The feed reads rows in (transaction_id, id) order and
-- only below the oldest transaction still running, so a transaction that commits late (with a
-- smaller id than rows already read) is never skipped: its rows sort after every row a reader has
-- seen. Rows written before this column existed get the migration's own transaction.
ALTER TABLE outbox ADD COLUMN transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id();
CREATE INDEX outbox_feed ON outbox (transaction_id, id);
-- Retention and replay by time.
CREATE INDEX outbox_created ON outbox (created_at);

-- A url that answered 410 Gone: later messages to it are dead at once (reason 'gone') until an
-- operator enables it again (the dead-letter command).
CREATE TABLE webhook_disabled_urls (
  id          bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  url         text PRIMARY KEY,
  disabled_at timestamptz NOT NULL DEFAULT now(),
  -- the message whose attempt was answered 410
  webhook_id  text NOT NULL
);

-- A key whose first request is still running holds a row without a response, inserted by that
-- request's transaction (INSERT … ON CONFLICT DO NOTHING, then SELECT … FOR UPDATE): the row lock
-- is what a second request with the key waits on. The row is never committed without a response
-- (the transaction writes the answer into it, or deletes it, or rolls back).
ALTER TABLE idempotency_keys ALTER COLUMN response DROP NOT NULL;
