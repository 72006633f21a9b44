-- One place makes a match (docs/decisions/0055, amendment of session 17): `ensure_match` inserts
-- the match of an ordered pair unless it exists, its conversation unless it exists, and a new
-- conversation's two member rows, and says whether the match is new. The caller holds the pair's
-- advisory lock (`pg_advisory_xact_lock(hashtext(low), hashtext(high))`), as `record_swipes` and
-- «Conectar» after an open session both do. `record_swipes` (migration 0021) calls it and answers
-- `match_is_new`, so the swipe service announces a match only when this swipe made it (until now
-- it compared the match's time with the swipe's). The rest of `record_swipes` is unchanged. The new
-- output column changes its row type, so it is dropped and created (and 0021 now drops it first too:
-- the migrations from 0017 on stay re-runnable, migration-one-row-per-message.test.ts).
CREATE OR REPLACE FUNCTION "ensure_match"(p_low uuid, p_high uuid, p_type text, p_now timestamptz)
RETURNS TABLE (match_id uuid, match_swipe_type text, match_created_at timestamptz, conversation_id uuid, is_new boolean)
LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_column
DECLARE
  v_match uuid;
  v_type text;
  v_at timestamptz;
  v_conversation uuid;
  v_is_new boolean := true;
BEGIN
  INSERT INTO matches (user_low, user_high, swipe_type, created_at)
  VALUES (p_low, p_high, p_type, p_now)
  ON CONFLICT (user_low, user_high) DO NOTHING
  RETURNING matches.id, matches.swipe_type, matches.created_at INTO v_match, v_type, v_at;
  IF v_match IS NULL THEN
    v_is_new := false;
    SELECT m.id, m.swipe_type, m.created_at INTO v_match, v_type, v_at
    FROM matches m WHERE m.user_low = p_low AND m.user_high = p_high;
  END IF;
  INSERT INTO conversations (match_id, user_a, user_b, swipe_type, created_at, updated_at)
  VALUES (v_match, p_low, p_high, v_type, p_now, p_now)
  ON CONFLICT (match_id) DO NOTHING
  RETURNING conversations.id INTO v_conversation;
  IF v_conversation IS NOT NULL THEN
    INSERT INTO conversation_participants (conversation_id, user_id, updated_at)
    VALUES (v_conversation, p_low, p_now), (v_conversation, p_high, p_now)
    ON CONFLICT DO NOTHING;
  ELSE
    SELECT c.id INTO v_conversation FROM conversations c WHERE c.match_id = v_match;
  END IF;
  match_id := v_match;
  match_swipe_type := v_type;
  match_created_at := v_at;
  conversation_id := v_conversation;
  is_new := v_is_new;
  RETURN NEXT;
END
$$;
--> statement-breakpoint
DROP FUNCTION IF EXISTS "record_swipes"(uuid[], uuid[], uuid[], text[], text[], timestamptz[]);
--> statement-breakpoint
CREATE FUNCTION "record_swipes"(
  p_swipers uuid[], p_sessions uuid[], p_targets uuid[], p_actions text[], p_client_ids text[], p_nows timestamptz[]
) RETURNS TABLE (
  ord integer, is_session_live boolean, target_exists boolean, blocked boolean, swipe_id uuid,
  match_id uuid, match_swipe_type text, match_created_at timestamptz, match_is_new boolean, conversation_id uuid,
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
  v_is_new_match boolean;
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
    v_is_new_match := NULL;
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
      SELECT e.match_id, e.match_swipe_type, e.match_created_at, e.conversation_id, e.is_new
      INTO v_match, v_match_type, v_match_at, v_conversation, v_is_new_match
      FROM ensure_match(v_low, v_high,
        CASE WHEN v_action = 'superlike' OR v_reciprocal = 'superlike' THEN 'superlike' ELSE 'like' END, v_now) e;
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
    match_is_new := v_is_new_match;
    conversation_id := v_conversation;
    RETURN NEXT;
  END LOOP;
END
$$;
