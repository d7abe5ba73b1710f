-- OCR giro files (docs/service.md, "POST /bank/ocr").

-- One row per transmission applied, by its data sender and transmission number: a file sent
-- again finds its row and changes nothing. Written in the transaction that applies the file.
CREATE TABLE ocr_transmissions (
  data_sender         text NOT NULL,
  transmission_number text NOT NULL,
  data_recipient      text NOT NULL,
  nets_date           date NOT NULL,
  transactions        integer NOT NULL CHECK (transactions >= 0),
  total_amount        bigint NOT NULL,
  -- the answer given: one row per transaction, in file order
  report              jsonb,
  request_id          text,
  received_at         timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT ocr_transmissions_pkey PRIMARY KEY (data_sender, transmission_number)
);

-- A transfer of a file that no open invoice holds is parked like one of POST /bank/transfers,
-- with the transmission and transaction it came from.
ALTER TABLE unmatched_transfers
  ADD COLUMN ocr_data_sender text,
  ADD COLUMN ocr_transmission_number text,
  ADD COLUMN ocr_transaction_number integer;
