-- Swipes in batches (docs/decisions/0057): `record_swipes` records a batch of swipes in one
-- statement, one commit, with the rules of `record_swipe` (migration 0015, docs/decisions/0036)
-- for each, in order: the swiper's session must be live, the target must have a profile and
-- neither may block the other; a repeat (same pair, or same swiper and clientId) writes nothing
-- and answers swipe_id null. The batch first takes the advisory locks of all its like and
-- superlike pairs, in one global order (so two batches never wait on each other in a cycle), then
-- records each swipe; every statement of the VOLATILE function reads a fresh snapshot that holds
-- the batch's own earlier swipes and any batch committed meanwhile, so a mutual like makes its
-- match (unique on the ordered pair) and conversation (unique on the match) exactly once, whether
-- the two likes are in one batch or in two. A new conversation gets both member rows in the same
-- transaction: every conversation has its member rows (the chat's drain relies on it).
-- Re-runnable over a later `record_swipes` (migration 0027 adds an output column, a row type that
-- CREATE OR REPLACE cannot change): the function is dropped first.
DROP FUNCTION IF EXISTS "record_swipes"(uuid[], uuid[], uuid[], text[], text[], timestamptz[]);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "record_swipes"(
  p_swipers uuid[], p_sessions uuid[], p_targets uuid[], p_actions text[], p_client_ids text[], p_nows timestamptz[]
) RETURNS TABLE (
  ord integer, is_session_live boolean, target_exists boolean, blocked boolean, swipe_id uuid,
  match_id uuid, match_swipe_type text, match_created_at timestamptz, conversation_id uuid,
  target_name text, target_photos jsonb, swiper_name text, swiper_photos jsonb
) LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_column
DECLARE
  v_pair record;
  v_i integer;
  v_swiper uuid;
  v_target uuid;
  v_action text;
  v_low uuid;
  v_high uuid;
  v_live boolean;
  v_exists boolean;
  v_blocked boolean;
  v_swipe uuid;
  v_reciprocal text;
  v_match uuid;
  v_match_type text;
  v_match_at timestamptz;
  v_conversation uuid;
  v_is_new_conversation boolean;
  v_now timestamptz;
BEGIN
  FOR v_pair IN
    SELECT DISTINCT hashtext(least(x.s, x.t)::text) AS k1, hashtext(greatest(x.s, x.t)::text) AS k2
    FROM unnest(p_swipers, p_targets, p_actions) AS x(s, t, a) WHERE x.a <> 'dislike' ORDER BY 1, 2
  LOOP
    PERFORM pg_advisory_xact_lock(v_pair.k1, v_pair.k2);
  END LOOP;
  FOR v_i IN 1 .. coalesce(array_length(p_swipers, 1), 0) LOOP
    v_swiper := p_swipers[v_i];
    v_target := p_targets[v_i];
    v_action := p_actions[v_i];
    v_now := p_nows[v_i];
    v_low := least(v_swiper, v_target);
    v_high := greatest(v_swiper, v_target);
    v_swipe := NULL;
    v_reciprocal := NULL;
    v_match := NULL;
    v_match_type := NULL;
    v_match_at := NULL;
    v_conversation := NULL;
    target_name := NULL;
    target_photos := NULL;
    swiper_name := NULL;
    swiper_photos := NULL;
    SELECT
      EXISTS (SELECT 1 FROM sessions s WHERE s.id = p_sessions[v_i] AND s.user_id = v_swiper
        AND s.revoked_at IS NULL AND s.expires_at > v_now),
      EXISTS (SELECT 1 FROM profiles p WHERE p.user_id = v_target),
      EXISTS (SELECT 1 FROM blocks b
        WHERE (b.blocker_id = v_swiper AND b.blocked_id = v_target)
           OR (b.blocker_id = v_target AND b.blocked_id = v_swiper))
    INTO v_live, v_exists, v_blocked;
    IF v_live AND v_exists AND NOT v_blocked THEN
      INSERT INTO swipes (swiper_id, target_id, action, client_id, created_at)
      VALUES (v_swiper, v_target, v_action, p_client_ids[v_i], v_now)
      ON CONFLICT DO NOTHING
      RETURNING id INTO v_swipe;
    END IF;
    IF v_swipe IS NOT NULL AND v_action <> 'dislike' THEN
      SELECT s.action INTO v_reciprocal FROM swipes s
      WHERE s.swiper_id = v_target AND s.target_id = v_swiper AND s.action IN ('like', 'superlike');
    END IF;
    IF v_reciprocal IS NOT NULL THEN
      INSERT INTO matches (user_low, user_high, swipe_type, created_at)
      VALUES (v_low, v_high,
        CASE WHEN v_action = 'superlike' OR v_reciprocal = 'superlike' THEN 'superlike' ELSE 'like' END, v_now)
      ON CONFLICT (user_low, user_high) DO NOTHING
      RETURNING id, swipe_type, created_at INTO v_match, v_match_type, v_match_at;
      IF v_match IS NULL THEN
        SELECT m.id, m.swipe_type, m.created_at INTO v_match, v_match_type, v_match_at
        FROM matches m WHERE m.user_low = v_low AND m.user_high = v_high;
      END IF;
      INSERT INTO conversations (match_id, user_a, user_b, swipe_type, created_at, updated_at)
      VALUES (v_match, v_low, v_high, v_match_type, v_now, v_now)
      ON CONFLICT (match_id) DO NOTHING
      RETURNING id INTO v_conversation;
      v_is_new_conversation := v_conversation IS NOT NULL;
      IF v_is_new_conversation THEN
        INSERT INTO conversation_participants (conversation_id, user_id, updated_at)
        VALUES (v_conversation, v_low, v_now), (v_conversation, v_high, v_now)
        ON CONFLICT DO NOTHING;
      ELSE
        SELECT c.id INTO v_conversation FROM conversations c WHERE c.match_id = v_match;
      END IF;
      UPDATE swipes SET match_id = v_match WHERE id = v_swipe;
      SELECT p.name, p.photos INTO target_name, target_photos FROM profiles p WHERE p.user_id = v_target;
      SELECT p.name, p.photos INTO swiper_name, swiper_photos FROM profiles p WHERE p.user_id = v_swiper;
    END IF;
    ord := v_i;
    is_session_live := v_live;
    target_exists := v_exists;
    blocked := v_blocked;
    swipe_id := v_swipe;
    match_id := v_match;
    match_swipe_type := v_match_type;
    match_created_at := v_match_at;
    conversation_id := v_conversation;
    RETURN NEXT;
  END LOOP;
END
$$;
--> statement-breakpoint
-- Conversations made before `record_swipes` whose member rows the chat had not made yet get them
-- (cursors at 0, as the chat's lazy insert made them).
INSERT INTO "conversation_participants" ("conversation_id", "user_id", "updated_at")
SELECT c."id", u."user_id", c."updated_at" FROM "conversations" c
CROSS JOIN LATERAL (VALUES (c."user_a"), (c."user_b")) AS u("user_id")
ON CONFLICT DO NOTHING;
