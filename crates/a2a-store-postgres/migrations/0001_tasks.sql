-- Tasks, their event logs and push configs (a2a-store-postgres v1).
-- Ids compare bytewise (COLLATE "C"), as the in-memory store orders them.

CREATE TABLE a2a_tasks (
    id             text COLLATE "C" PRIMARY KEY,
    -- Creation order: the count bound evicts the lowest first.
    seq            bigserial NOT NULL,
    -- The owner as one comparable key (a JSON array [tenant, principal]),
    -- and its parts for operators.
    owner_key      text COLLATE "C" NOT NULL,
    tenant         text NOT NULL,
    principal      text,
    version        bigint NOT NULL,
    -- The whole task, as a2a_types encodes it.
    task           json NOT NULL,
    state          text NOT NULL,
    -- The status timestamp (the epoch when the task has none).
    status_s       bigint NOT NULL,
    status_ns      integer NOT NULL,
    context_id     text NOT NULL,
    -- The status timestamp at creation, in Unix milliseconds: the TTL's clock.
    created_ms     bigint NOT NULL,
    -- The position the next event gets, and the first one still in a2a_events.
    next_position  bigint NOT NULL DEFAULT 0,
    log_first      bigint NOT NULL DEFAULT 0,
    -- Who runs the task and until when that claim holds (Unix ms).
    lease_holder   text,
    lease_until_ms bigint
);

CREATE UNIQUE INDEX a2a_tasks_seq ON a2a_tasks (seq);
-- ListTasks: an owner's tasks, newest status first, ties by id descending.
CREATE INDEX a2a_tasks_listing ON a2a_tasks (owner_key, status_s DESC, status_ns DESC, id DESC);
CREATE INDEX a2a_tasks_created ON a2a_tasks (created_ms);
CREATE INDEX a2a_tasks_leases ON a2a_tasks (lease_until_ms) WHERE lease_until_ms IS NOT NULL;

CREATE TABLE a2a_events (
    task_id  text COLLATE "C" NOT NULL REFERENCES a2a_tasks (id) ON DELETE CASCADE,
    position bigint NOT NULL,
    event    json NOT NULL,
    PRIMARY KEY (task_id, position)
);

CREATE TABLE a2a_push_configs (
    task_id   text COLLATE "C" NOT NULL REFERENCES a2a_tasks (id) ON DELETE CASCADE,
    config_id text COLLATE "C" NOT NULL,
    -- The order configs were made in (a replaced one keeps its place).
    seq       bigserial NOT NULL,
    owner_key text COLLATE "C" NOT NULL,
    config    json NOT NULL,
    PRIMARY KEY (task_id, config_id)
);
