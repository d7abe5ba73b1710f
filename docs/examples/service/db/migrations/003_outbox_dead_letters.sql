-- Dead letters and claims of the outbox (docs/service.md, "The outbox", "Dead letters").

-- Why a message is dead: 'attempts' (every attempt failed), 'gone' (410), 'refused' (the guard
-- would not connect to its address: docs/service.md, "Where webhooks may go"). NULL while not dead.
ALTER TABLE outbox ADD COLUMN dead_reason text
  CHECK (dead_reason IS NULL OR dead_reason IN ('attempts', 'gone', 'refused'));
-- How many times an operator sent the message again from the dead letters.
ALTER TABLE outbox ADD COLUMN replays integer NOT NULL DEFAULT 0;

-- The dead-letter list reads dead rows newest first.
CREATE INDEX outbox_dead ON outbox (finished_at DESC, id DESC) WHERE status = 'dead';
