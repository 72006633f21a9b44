-- A swipe in one round trip (docs/decisions/0036). Records the swipe only when the swiper's
-- session is live, the target has a profile and neither user blocks the other (ON CONFLICT DO
-- NOTHING on (swiper, target) and (swiper, clientId): a repeat writes nothing and answers
-- swipe_id null). A like or superlike first takes the ordered pair's advisory lock: the function
-- is VOLATILE, so each statement after the lock reads a fresh READ COMMITTED snapshot that
-- includes the other like of the pair once its transaction committed. Two concurrent likes of a
-- pair therefore never miss each other, and the match (unique on the ordered pair) and its
-- conversation (unique on the match) are made exactly once. A dislike never reads the other
-- swipe: no lock. The caller's single statement is its own transaction; the lock ends with it.
CREATE OR REPLACE FUNCTION "record_swipe"(
  p_swiper uuid, p_session uuid, p_target uuid, p_action text, p_client_id text, p_now timestamptz
) RETURNS TABLE (
  is_session_live boolean, target_exists boolean, blocked boolean, swipe_id uuid,
  match_id uuid, match_swipe_type text, match_created_at timestamptz, conversation_id uuid,
  target_name text, target_photos jsonb, swiper_name text, swiper_photos jsonb
) LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_column
DECLARE
  v_low uuid := least(p_swiper, p_target);
  v_high uuid := greatest(p_swiper, p_target);
  v_live boolean;
  v_exists boolean;
  v_blocked boolean;
  v_swipe uuid;
  v_reciprocal text;
  v_match uuid;
  v_match_type text;
  v_match_at timestamptz;
  v_conversation uuid;
  v_target_name text;
  v_target_photos jsonb;
  v_swiper_name text;
  v_swiper_photos jsonb;
BEGIN
  IF p_action <> 'dislike' THEN
    PERFORM pg_advisory_xact_lock(hashtext(v_low::text), hashtext(v_high::text));
  END IF;
  SELECT
    EXISTS (SELECT 1 FROM sessions s WHERE s.id = p_session AND s.user_id = p_swiper
      AND s.revoked_at IS NULL AND s.expires_at > p_now),
    EXISTS (SELECT 1 FROM profiles p WHERE p.user_id = p_target),
    EXISTS (SELECT 1 FROM blocks b
      WHERE (b.blocker_id = p_swiper AND b.blocked_id = p_target)
         OR (b.blocker_id = p_target AND b.blocked_id = p_swiper))
  INTO v_live, v_exists, v_blocked;
  IF v_live AND v_exists AND NOT v_blocked THEN
    INSERT INTO swipes (swiper_id, target_id, action, client_id, created_at)
    VALUES (p_swiper, p_target, p_action, p_client_id, p_now)
    ON CONFLICT DO NOTHING
    RETURNING id INTO v_swipe;
  END IF;
  IF v_swipe IS NOT NULL AND p_action <> 'dislike' THEN
    SELECT s.action INTO v_reciprocal FROM swipes s
    WHERE s.swiper_id = p_target AND s.target_id = p_swiper AND s.action IN ('like', 'superlike');
  END IF;
  IF v_reciprocal IS NOT NULL THEN
    INSERT INTO matches (user_low, user_high, swipe_type, created_at)
    VALUES (v_low, v_high,
      CASE WHEN p_action = 'superlike' OR v_reciprocal = 'superlike' THEN 'superlike' ELSE 'like' END, p_now)
    ON CONFLICT (user_low, user_high) DO NOTHING
    RETURNING id, swipe_type, created_at INTO v_match, v_match_type, v_match_at;
    IF v_match IS NULL THEN
      SELECT m.id, m.swipe_type, m.created_at INTO v_match, v_match_type, v_match_at
      FROM matches m WHERE m.user_low = v_low AND m.user_high = v_high;
    END IF;
    INSERT INTO conversations (match_id, user_a, user_b, swipe_type, created_at, updated_at)
    VALUES (v_match, v_low, v_high, v_match_type, p_now, p_now)
    ON CONFLICT (match_id) DO NOTHING
    RETURNING id INTO v_conversation;
    IF v_conversation IS NULL THEN
      SELECT c.id INTO v_conversation FROM conversations c WHERE c.match_id = v_match;
    END IF;
    UPDATE swipes SET match_id = v_match WHERE id = v_swipe;
    SELECT p.name, p.photos INTO v_target_name, v_target_photos FROM profiles p WHERE p.user_id = p_target;
    SELECT p.name, p.photos INTO v_swiper_name, v_swiper_photos FROM profiles p WHERE p.user_id = p_swiper;
  END IF;
  RETURN QUERY SELECT v_live, v_exists, v_blocked, v_swipe, v_match, v_match_type, v_match_at, v_conversation,
    v_target_name, v_target_photos, v_swiper_name, v_swiper_photos;
END
$$;
