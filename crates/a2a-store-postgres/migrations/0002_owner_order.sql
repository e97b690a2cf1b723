-- An owner's tasks in creation order (a2a-store-postgres v2): the
-- per-owner quota evicts the owner's oldest finished tasks, and the
-- store-wide bound, when only the creator's own tasks are left to
-- evict, its oldest; both read this index from the owner's oldest row.
-- Built in the migration's transaction, which blocks writes to
-- a2a_tasks while it builds: on a large table, create it beforehand
-- with CREATE INDEX CONCURRENTLY under this name (IF NOT EXISTS then
-- leaves it as it is).

CREATE INDEX IF NOT EXISTS a2a_tasks_owner_seq ON a2a_tasks (owner_key, seq);
