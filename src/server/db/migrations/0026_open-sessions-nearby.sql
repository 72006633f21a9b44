-- «Entrenos abiertos cerca» (issue #35, docs/decisions/0055, amendment of session 17): the list
-- finds the repeats a viewer is invited to (`repeat_of` = a session they held a place in) by this
-- index instead of reading every session ever published. Re-runnable (IF NOT EXISTS).
CREATE INDEX IF NOT EXISTS "open_sessions_repeat_of_idx" ON "open_sessions" USING btree ("repeat_of") WHERE "repeat_of" is not null;
