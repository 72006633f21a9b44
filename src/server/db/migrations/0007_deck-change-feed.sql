-- The deck's change feed (docs/decisions/0022): every statement that inserts, deletes or changes
-- what the deck filters and ranks on in `profiles` notifies the channel `deck_profiles` with the
-- user ids concerned (comma-separated), or '*' when more than 200 rows changed at once (a bulk
-- load) or the table was truncated: listeners reload everything. Whoever writes (any feature, a
-- seed, an operator's SQL), each node's candidate index hears it at commit. Idempotent.
CREATE OR REPLACE FUNCTION "deck_profiles_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed text[];
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    PERFORM pg_notify('deck_profiles', '*');
    RETURN NULL;
  ELSIF TG_OP = 'INSERT' THEN
    SELECT array_agg(s.user_id::text) INTO changed FROM (SELECT user_id FROM new_rows LIMIT 201) s;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(s.user_id::text) INTO changed FROM (SELECT user_id FROM old_rows LIMIT 201) s;
  ELSE
    SELECT array_agg(s.user_id::text) INTO changed FROM (
      SELECT n.user_id FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE (o.latitude, o.longitude, o.gender, o.birth_date, o.active, o.visible, o.gender_preference, o.age_min, o.age_max, o.max_distance_km, o.gym_key, o.sports_mask, o.availability_mask, o.goals_mask, o.schedule_mask, o.motivation_mask, o.experience_rank, o.commitment_rank, o.frequency, o.social_preference)
        IS DISTINCT FROM
        (n.latitude, n.longitude, n.gender, n.birth_date, n.active, n.visible, n.gender_preference, n.age_min, n.age_max, n.max_distance_km, n.gym_key, n.sports_mask, n.availability_mask, n.goals_mask, n.schedule_mask, n.motivation_mask, n.experience_rank, n.commitment_rank, n.frequency, n.social_preference)
      LIMIT 201) s;
  END IF;
  IF changed IS NOT NULL THEN
    PERFORM pg_notify('deck_profiles', CASE WHEN cardinality(changed) > 200 THEN '*' ELSE array_to_string(changed, ',') END);
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
DROP TRIGGER IF EXISTS "deck_profiles_inserted" ON "profiles";--> statement-breakpoint
CREATE TRIGGER "deck_profiles_inserted" AFTER INSERT ON "profiles" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "deck_profiles_changed"();--> statement-breakpoint
DROP TRIGGER IF EXISTS "deck_profiles_updated" ON "profiles";--> statement-breakpoint
CREATE TRIGGER "deck_profiles_updated" AFTER UPDATE ON "profiles" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "deck_profiles_changed"();--> statement-breakpoint
DROP TRIGGER IF EXISTS "deck_profiles_deleted" ON "profiles";--> statement-breakpoint
CREATE TRIGGER "deck_profiles_deleted" AFTER DELETE ON "profiles" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "deck_profiles_changed"();--> statement-breakpoint
DROP TRIGGER IF EXISTS "deck_profiles_truncated" ON "profiles";--> statement-breakpoint
CREATE TRIGGER "deck_profiles_truncated" AFTER TRUNCATE ON "profiles"
  FOR EACH STATEMENT EXECUTE FUNCTION "deck_profiles_changed"();
