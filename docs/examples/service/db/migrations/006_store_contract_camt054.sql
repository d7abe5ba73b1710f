-- The store contract's rows for the bank (docs/service.md, "Tables"): an OCR giro transmission
-- keeps the `at` paysplit gave it, and camt.054 notifications (POST /bank/camt054) get their own
-- rows.

-- `at`: the context's `at` of the operation that applied the file, as paysplit's row holds it (an
-- ISO 8601 UTC text). Rows applied before this column existed: their `received_at`.
ALTER TABLE ocr_transmissions ADD COLUMN at text;
UPDATE ocr_transmissions SET at = to_char(received_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') WHERE at IS NULL;
ALTER TABLE ocr_transmissions ALTER COLUMN at SET NOT NULL;
-- The file's details are written after the row paysplit asked for, in the same transaction.
ALTER TABLE ocr_transmissions ALTER COLUMN data_recipient DROP NOT NULL;
ALTER TABLE ocr_transmissions ALTER COLUMN nets_date DROP NOT NULL;
ALTER TABLE ocr_transmissions ALTER COLUMN transactions DROP NOT NULL;
ALTER TABLE ocr_transmissions ALTER COLUMN total_amount DROP NOT NULL;

-- camt.054 notifications applied, by their message id (`GrpHdr/MsgId`): the same notification again
-- finds its row. Kept 400 days from `at`; paysplit reads an older row as forgotten, and the store
-- then replaces it.
CREATE TABLE camt054_messages (
  message_id   text PRIMARY KEY,
  at           text NOT NULL,
  transactions integer,
  -- the answer given: one row per transaction, in document order
  report       jsonb,
  request_id   text,
  received_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX camt054_messages_at ON camt054_messages (at);

-- Transactions of camt.054 notifications applied or refused for good, by paysplit's key (account,
-- entry and transaction reference): one the bank sends again in another notification is a
-- duplicate. Kept 400 days from the booking date.
CREATE TABLE camt054_transactions (
  transaction_key text PRIMARY KEY,
  booking_date    text NOT NULL,
  received_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX camt054_transactions_booking_date ON camt054_transactions (booking_date);

-- A transfer of a notification that no open invoice holds is parked like one of an OCR giro file,
-- with the notification and transaction it came from.
ALTER TABLE unmatched_transfers
  ADD COLUMN camt054_message_id text,
  ADD COLUMN camt054_transaction_number integer;
