-- The database announces every committed change that a cached answer is built from, whoever makes it (a route, a job, a payment webhook, a seed, SQL by hand), on the channel `spotter_change`; each server process maps the payload to the cached answers it drops (apps/server/src/platform/events.ts, docs/caching.md, docs/decisions/036-invalidation-by-the-database.md). A payload is `<what>` or `<what>:<id>,<id>…` (the accounts concerned, sorted, so a transaction's identical payloads are delivered once); past 100 ids it names no ids, which drops everything of that kind. Triggers are per statement, reading the statement's transition tables: a bulk write (a seed's 50,000 rows) sends one notification, not one per row. Changes that end tokens (role, token version, deletion) are also announced per account on `spotter_account`, as `announceAccountChanged` did by hand.
CREATE FUNCTION spotter_notify_change(what text, ids text[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF ids IS NULL OR cardinality(ids) = 0 THEN
    RETURN;
  ELSIF cardinality(ids) > 100 THEN
    PERFORM pg_notify('spotter_change', what);
  ELSE
    PERFORM pg_notify('spotter_change', what || ':' || array_to_string(ids, ','));
  END IF;
END
$$;--> statement-breakpoint
-- accounts: `accounts` when a column shown in a public or personal answer (or the token check) changes (not the e-mail, phone, website, age, height, weight, password or notification settings, which no cached answer shows); `ratings` when only the derived rating columns do (a review's own trigger names the trainer already). A new account shows anywhere only once it is a verified trainer.
CREATE FUNCTION spotter_accounts_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  shown text[];
  rated text[];
  rights text[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(id::text ORDER BY id) INTO shown FROM new_rows
      WHERE role = 'trainer' AND email_verified_at IS NOT NULL AND deleted_at IS NULL;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(id::text ORDER BY id) INTO shown FROM old_rows;
    rights := shown;
  ELSE
    SELECT
      array_agg(n.id::text ORDER BY n.id) FILTER (WHERE
        (o.role, o.first_name, o.last_name, o.title, o.description, o.city, o.country, o.picture, o.gender,
         o.price_cents, o.email_verified_at, o.deleted_at, o.token_version)
        IS DISTINCT FROM
        (n.role, n.first_name, n.last_name, n.title, n.description, n.city, n.country, n.picture, n.gender,
         n.price_cents, n.email_verified_at, n.deleted_at, n.token_version)),
      array_agg(n.id::text ORDER BY n.id) FILTER (WHERE
        (o.rating_avg, o.rating_count, o.rating_score) IS DISTINCT FROM (n.rating_avg, n.rating_count, n.rating_score)),
      array_agg(n.id::text ORDER BY n.id) FILTER (WHERE
        (o.role, o.token_version, o.deleted_at) IS DISTINCT FROM (n.role, n.token_version, n.deleted_at))
      INTO shown, rated, rights
      FROM new_rows n JOIN old_rows o ON o.id = n.id;
  END IF;
  IF shown IS NOT NULL THEN
    PERFORM spotter_notify_change('accounts', shown);
  ELSE
    PERFORM spotter_notify_change('ratings', rated);
  END IF;
  IF rights IS NOT NULL THEN
    PERFORM pg_notify('spotter_account', r) FROM unnest(rights) AS r;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER accounts_insert_notify AFTER INSERT ON "accounts" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION spotter_accounts_changed();--> statement-breakpoint
CREATE TRIGGER accounts_update_notify AFTER UPDATE ON "accounts" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION spotter_accounts_changed();--> statement-breakpoint
CREATE TRIGGER accounts_delete_notify AFTER DELETE ON "accounts" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION spotter_accounts_changed();--> statement-breakpoint
-- reviews, bookings, availability, messages: the accounts a change concerns (`user_id`, `trainer_id`). Bookings also send `sessions` with the trainers whose paid sessions (confirmed or completed) changed: subscriber counts and verified reviews are public.
CREATE FUNCTION spotter_rows_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids text[];
  paid text[];
BEGIN
  IF TG_TABLE_NAME = 'availability' THEN
    IF TG_OP = 'DELETE' THEN
      SELECT array_agg(DISTINCT trainer_id::text) INTO ids FROM old_rows;
    ELSE
      SELECT array_agg(DISTINCT trainer_id::text) INTO ids FROM new_rows;
    END IF;
  ELSIF TG_OP = 'INSERT' THEN
    SELECT array_agg(x ORDER BY x) INTO ids FROM (SELECT trainer_id::text AS x FROM new_rows UNION SELECT user_id::text FROM new_rows) s;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(x ORDER BY x) INTO ids FROM (SELECT trainer_id::text AS x FROM old_rows UNION SELECT user_id::text FROM old_rows) s;
  ELSE
    SELECT array_agg(x ORDER BY x) INTO ids FROM (
      SELECT trainer_id::text AS x FROM new_rows UNION SELECT user_id::text FROM new_rows
      UNION SELECT trainer_id::text FROM old_rows UNION SELECT user_id::text FROM old_rows) s;
  END IF;
  IF TG_TABLE_NAME = 'bookings' THEN
    IF TG_OP = 'INSERT' THEN
      SELECT array_agg(DISTINCT trainer_id::text) INTO paid FROM new_rows WHERE status IN ('confirmed', 'completed');
    ELSIF TG_OP = 'DELETE' THEN
      SELECT array_agg(DISTINCT trainer_id::text) INTO paid FROM old_rows WHERE status IN ('confirmed', 'completed');
    ELSE
      SELECT array_agg(DISTINCT n.trainer_id::text) INTO paid FROM new_rows n JOIN old_rows o ON o.id = n.id
        WHERE (o.status IN ('confirmed', 'completed') OR n.status IN ('confirmed', 'completed'))
          AND (o.status, o.ends_at, o.trainer_id, o.user_id) IS DISTINCT FROM (n.status, n.ends_at, n.trainer_id, n.user_id);
    END IF;
    PERFORM spotter_notify_change('sessions', paid);
  END IF;
  PERFORM spotter_notify_change(TG_TABLE_NAME, ids);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER reviews_insert_notify AFTER INSERT ON "reviews" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION spotter_rows_changed();--> statement-breakpoint
CREATE TRIGGER reviews_update_notify AFTER UPDATE ON "reviews" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION spotter_rows_changed();--> statement-breakpoint
CREATE TRIGGER reviews_delete_notify AFTER DELETE ON "reviews" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION spotter_rows_changed();--> statement-breakpoint
-- replaces migration 0011's row-level triggers on bookings and availability (one notification per row, on `spotter_personal`)
DROP TRIGGER bookings_personal_notify ON "bookings";--> statement-breakpoint
DROP TRIGGER availability_personal_notify ON "availability";--> statement-breakpoint
DROP FUNCTION spotter_personal_notify();--> statement-breakpoint
CREATE TRIGGER bookings_insert_notify AFTER INSERT ON "bookings" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION spotter_rows_changed();--> statement-breakpoint
CREATE TRIGGER bookings_update_notify AFTER UPDATE ON "bookings" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION spotter_rows_changed();--> statement-breakpoint
CREATE TRIGGER bookings_delete_notify AFTER DELETE ON "bookings" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION spotter_rows_changed();--> statement-breakpoint
CREATE TRIGGER availability_insert_notify AFTER INSERT ON "availability" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION spotter_rows_changed();--> statement-breakpoint
CREATE TRIGGER availability_update_notify AFTER UPDATE ON "availability" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION spotter_rows_changed();--> statement-breakpoint
CREATE TRIGGER availability_delete_notify AFTER DELETE ON "availability" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION spotter_rows_changed();--> statement-breakpoint
-- messages: a new message is announced on `spotter_chat` by the statement that inserts it, with both accounts (the chat push and the personal cache read it); a trigger on inserts as well cost the chat benchmark its throughput (docs/decisions/024-personal-read-cache.md). Read marks, mail marks, edits and deletions come from here.
CREATE TRIGGER messages_update_notify AFTER UPDATE ON "messages" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION spotter_rows_changed();--> statement-breakpoint
CREATE TRIGGER messages_delete_notify AFTER DELETE ON "messages" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION spotter_rows_changed();
