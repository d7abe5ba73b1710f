-- Safe retries (docs/service.md, "Safe retries"): what a request with an Idempotency-Key answered,
-- written in the transaction of the change it made, kept 24 hours from its first use.
CREATE TABLE idempotency_keys (
  -- the id of the caller's API key (a digest, never the key itself)
  scope      text NOT NULL,
  key        text NOT NULL CHECK (length(key) BETWEEN 1 AND 255),
  method     text NOT NULL,
  path       text NOT NULL,
  -- the request body's JSON text as parsed and written again; NULL when the request had none
  body       text,
  -- the response's JSON text ({ status, body, headers? }), sent again exactly on a retry
  response   text NOT NULL,
  -- the `at` of the first use as paysplit was given it, and when the key is forgotten
  first_at   text NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (scope, key)
);
CREATE INDEX idempotency_keys_expiry ON idempotency_keys (expires_at);
